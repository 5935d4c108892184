// SPDX-License-Identifier: Apache-2.0
// The float rule on the GPU, every variant and the automatic choice: NaN and infinity reach
// exactly the outputs whose window holds them (as a direct sum puts them); a huge value stays
// within each output's own bound for the direct and separable variants and within the global
// bound for the transforms.

#include "filters/float_range.h"
#include "gpu/exec/chain_runner.h"
#include "tessera/gpu/engine.h"
#include "tessera/gpu/kernel_variant.h"
#include "gpu_test_util.h"

#include <string>
#include <vector>

namespace tessera::gpu::test {
namespace {

struct Poison {
    const char* name;
    float value;
};

constexpr Poison kPoisons[] = {{"NaN", std::numeric_limits<float>::quiet_NaN()},
                               {"+inf", std::numeric_limits<float>::infinity()},
                               {"-inf", -std::numeric_limits<float>::infinity()},
                               {"1e30", 1e30f}};

/// The correlation in double and sum |w| |x| over each window (CV_64F, the image's channels).
void reference(const cv::Mat& src, const filters::FilterSpec& spec, cv::Mat& value, cv::Mat& scale)
{
    const int n = src.channels();
    value.create(src.size(), CV_64FC(n));
    scale.create(src.size(), CV_64FC(n));
    const auto a = spec.effectiveAnchor();
    const int border = filters::toCvBorder(spec.border);
    cv::parallel_for_(cv::Range(0, src.rows), [&](const cv::Range& rows) {
        for (int y = rows.start; y < rows.end; ++y) {
            for (int x = 0; x < src.cols; ++x) {
                for (int c = 0; c < n; ++c) {
                    double sum = 0.0;
                    double s = 0.0;
                    for (int ky = 0; ky < spec.kernel.height; ++ky) {
                        const int sy = cv::borderInterpolate(y + ky - a.y, src.rows, border);
                        for (int kx = 0; kx < spec.kernel.width; ++kx) {
                            const int sx = cv::borderInterpolate(x + kx - a.x, src.cols, border);
                            const double v = sy < 0 || sx < 0 ? spec.borderValue
                                                              : static_cast<double>(src.ptr<float>(sy)[sx * n + c]);
                            const double w = spec.kernel.at(kx, ky) * spec.scale;
                            sum += w * v;
                            s += std::abs(w) * std::abs(v);
                        }
                    }
                    value.ptr<double>(y)[x * n + c] = sum + spec.offset;
                    scale.ptr<double>(y)[x * n + c] = s + std::abs(spec.offset);
                }
            }
        }
    });
}

/// "" when out follows the rule against the reference, else the first few offences.
std::string offences(const cv::Mat& out, const cv::Mat& value, const cv::Mat& scale, bool transform, double globalScale,
                     double taps)
{
    std::ostringstream os;
    int bad = 0;
    const int n = value.channels();
    const double rel = 1e-5 * std::max(1.0, std::sqrt(taps / 4096.0));
    for (int y = 0; y < out.rows && bad < 4; ++y) {
        for (int i = 0; i < out.cols * n && bad < 4; ++i) {
            const double got = out.ptr<float>(y)[i];
            const double want = value.ptr<double>(y)[i];
            const double s = scale.ptr<double>(y)[i];
            bool ok = false;
            if (std::isnan(want)) {
                ok = std::isnan(got);
            } else if (std::isinf(want)) {
                ok = got == want;
            } else if (std::isfinite(got)) {
                const double bound = transform ? 2e-4 * globalScale : rel * s;
                ok = std::abs(got - want) <= std::max(bound, 1e-12);
            }
            if (!ok) {
                ++bad;
                os << " (x " << i / n << ", y " << y << ", ch " << i % n << ": got " << got << ", want " << want
                   << ", window scale " << s << ")";
            }
        }
    }
    return os.str();
}

class FloatSemanticsGpu : public GpuTest {};

TEST_F(FloatSemanticsGpu, EveryVariantAndAutoConfinePoisonsToTheirWindows)
{
    std::mt19937_64 rng = caseRng(seed_, 0xF10A7, 0);
    const int sizes[][2] = {{3, 3}, {5, 5}, {9, 9}, {15, 15}, {31, 31}, {17, 9}};
    int checked = 0;
    int transforms = 0;
    for (const int channels : {1, 4}) {
        const PixelFormat format{PixelDepth::F32, channels};
        for (const auto& size : sizes) {
            for (const bool rank1 : {false, true}) {
                filters::FilterSpec spec =
                    rank1 ? randomRank1Spec(size[0], size[1], rng) : randomDenseSpec(size[0], size[1], rng);
                for (const Poison& poison : kPoisons) {
                    // Wider than one row-spectrum strip (128 columns) and taller than its tiles.
                    cv::Mat src = randomImage(150, 301, format, rng);
                    src.ptr<float>(70)[150 * channels] = poison.value;
                    src.ptr<float>(3)[295 * channels + channels - 1] = poison.value;
                    cv::Mat value;
                    cv::Mat scale;
                    reference(src, spec, value, scale);
                    // S of the transforms' bound: the largest finite magnitude in the image.
                    const double largest =
                        std::isfinite(poison.value) ? std::max(1.0, std::abs(static_cast<double>(poison.value))) : 1.0;
                    const double globalScale =
                        sumAbs(spec.kernel.weights) * std::abs(spec.scale) * largest + std::abs(spec.offset);
                    std::vector<std::optional<KernelVariant>> runs{std::nullopt};
                    for (KernelVariant v : allKernelVariants()) {
                        runs.emplace_back(v);
                    }
                    for (const auto& v : runs) {
                        std::optional<Plan> plan;
                        try {
                            plan = v ? makePlanForVariant(spec, format, src.cols, src.rows, device_, *v)
                                     : makePlan(spec, format, src.cols, src.rows, device_);
                        } catch (const std::invalid_argument&) {
                            continue;  // the variant cannot implement this spec
                        }
                        const bool transform = plan->method == Method::Fft;
                        transforms += transform ? 1 : 0;
                        const GpuOutput out = runPoisoned(*plan, src, stream(), false, 0x7F);
                        const std::string what = std::string(v ? toString(*v) : "auto (" + plan->describe() + ")") +
                                                 " " + format.name() + " " + describeSpec(spec) + " poison " +
                                                 poison.name + "; " + seedNote(seed_);
                        EXPECT_EQ(out.damage, "") << what;
                        const double taps = static_cast<double>(spec.kernel.width) * spec.kernel.height;
                        // The transforms keep their global bound, meaningless next to 1e30: a
                        // huge value is checked against it only.
                        const std::string bad = offences(out.image, value, scale, transform, globalScale, taps);
                        EXPECT_EQ(bad, "") << what;
                        ++checked;
                    }
                }
            }
        }
    }
    EXPECT_GT(checked, 100);
    EXPECT_GT(transforms, 0);  // cuFFT is on the GPU machine
}

TEST_F(FloatSemanticsGpu, TheAutomaticChoiceLeavesTheFftForImagesItsBoundDoesNotServe)
{
    std::mt19937_64 rng = caseRng(seed_, 0xF10A8, 0);
    const PixelFormat format{PixelDepth::F32, 1};
    const filters::FilterSpec spec = randomDenseSpec(31, 31, rng);
    const Plan usual = makePlan(spec, format, 8192, 8192, device_);
    ASSERT_EQ(usual.method, Method::Fft) << usual.describe();  // the bench's choice for this case
    const Plan guarded = makePlan(spec, format, 8192, 8192, device_, Method::Auto, TensorCores::Auto,
                                  SourceValues{.transformsSafe = false});
    EXPECT_NE(guarded.method, Method::Fft) << guarded.describe();
    EXPECT_NE(guarded.reason.find("no FFT"), std::string::npos) << guarded.reason;
    // Forced stays forced.
    EXPECT_EQ(makePlan(spec, format, 8192, 8192, device_, Method::Fft, TensorCores::Auto,
                       SourceValues{.transformsSafe = false})
                  .method,
              Method::Fft);

    cv::Mat src = randomImage(600, 700, format, rng);
    filters::FilterChain chain;
    chain.steps.push_back(spec);
    EXPECT_TRUE(sourceValuesFor(src, chain).transformsSafe);
    src.at<float>(300, 350) = 1e30f;
    EXPECT_FALSE(sourceValuesFor(src, chain).transformsSafe);

    // End to end through the pipeline: no FFT step, and the pixels far from the huge one keep
    // their own windows' accuracy.
    RunOptions options;
    options.deviceSlots = slotsFor({device_.id});
    RunReport report;
    const cv::Mat out = runStreamed(src, chain, options, &report);
    ASSERT_FALSE(out.empty());
    for (const Method m : report.stepMethods) {
        EXPECT_NE(m, Method::Fft);
    }
    cv::Mat value;
    cv::Mat scale;
    reference(src, spec, value, scale);
    EXPECT_EQ(offences(out, value, scale, false, 0.0, 31.0 * 31.0), "") << seedNote(seed_);
}

// A plan that knows its source bounded runs the walks without their check: the same outputs,
// bit for bit, on an ordinary image; the chain runner hands the bound on to later steps.
TEST_F(FloatSemanticsGpu, BoundedSourcesRunTheWalksUncheckedWithTheSameOutputs)
{
    std::mt19937_64 rng = caseRng(seed_, 0xF10A9, 0);
    const PixelFormat format{PixelDepth::F32, 1};
    const cv::Mat src = randomImage(700, 900, format, rng);
    const SourceValues known = sourceValuesOf(filters::scanFloatRange(src));
    ASSERT_NE(known.maxExponent, SourceValues::kUnknown);
    int walks = 0;
    for (const int k : {5, 15, 31}) {
        const filters::FilterSpec spec = randomRank1Spec(k, k, rng);
        const Plan checked = makePlan(spec, format, src.cols, src.rows, device_, Method::Separable);
        const Plan unchecked =
            makePlan(spec, format, src.cols, src.rows, device_, Method::Separable, TensorCores::Auto, known);
        ASSERT_EQ(checked.shape.variant, unchecked.shape.variant);
        const KernelVariant v = checked.shape.variant;
        if (v != KernelVariant::SeparableWalk && v != KernelVariant::SeparableTf32Walk) {
            continue;
        }
        ++walks;
        EXPECT_NE(unchecked.outputMaxExponent, SourceValues::kUnknown) << unchecked.describe();
        const GpuOutput a = runPoisoned(checked, src, stream(), false, 0x7F);
        const GpuOutput b = runPoisoned(unchecked, src, stream(), false, 0x7F);
        EXPECT_EQ(a.damage, "");
        EXPECT_EQ(b.damage, "");
        EXPECT_EQ(cv::norm(a.image, b.image, cv::NORM_INF), 0.0) << unchecked.describe();
    }
    EXPECT_GE(walks, 2);

    filters::FilterChain chain;
    chain.steps.push_back(randomRank1Spec(31, 31, rng));
    chain.steps.push_back(randomRank1Spec(15, 15, rng));
    ChainRunner runner(device_);
    EXPECT_EQ(runner.plansFor(chain, format, src.cols, src.rows, Method::Auto)[1].outputMaxExponent,
              SourceValues::kUnknown);
    runner.setSourceValues(known);
    const std::vector<Plan>& plans = runner.plansFor(chain, format, src.cols, src.rows, Method::Auto);
    ASSERT_EQ(plans.size(), 2U);
    EXPECT_NE(plans[0].outputMaxExponent, SourceValues::kUnknown);
    EXPECT_NE(plans[1].outputMaxExponent, SourceValues::kUnknown);
    EXPECT_GE(plans[1].outputMaxExponent, plans[0].outputMaxExponent - 1) << plans[1].describe();
}

}  // namespace
}  // namespace tessera::gpu::test
