// SPDX-License-Identifier: Apache-2.0
// The GPU against the CPU path beyond the method grids (test_gpu_vs_cpu.cpp): output depths with
// scale and offset, large separable kernels, resident regions, the streamed pipeline on one GPU
// and what the planner chooses.

#include "gpu_vs_cpu_fixture.h"
#include "values/errors.h"

namespace tessera::gpu {
namespace {

using namespace vs_cpu;

// Output depths other than the input's, with scale and offset, on every method. The kernels are
// rank 1 so that Separable applies too; Sobel has negative weights.
TEST_F(GpuVsCpu, OutputDepthsScaleAndOffset)
{
    SCOPED_TRACE(test::seedNote(seed_));
    struct DepthCase {
        PixelDepth in;
        OutputDepth out;
        double scale;
        double offset;
        bool sobel;
        const char* property;  ///< what the GPU output must show besides matching the CPU
    };
    const DepthCase cases[] = {
        {PixelDepth::U8, OutputDepth::F32, 1.0, 0.0, true, "negative"},
        {PixelDepth::U8, OutputDepth::U16, 150.0, 0.0, false, "above255"},
        {PixelDepth::F32, OutputDepth::U8, 300.0, 128.0, false, "saturates"},
        {PixelDepth::U16, OutputDepth::U8, 1.0 / 256.0, 0.0, false, ""},
        {PixelDepth::U16, OutputDepth::F32, 1.0, -1000.0, true, "negative"},
        {PixelDepth::F32, OutputDepth::U16, 30000.0, 30000.0, false, ""},
        {PixelDepth::U8, OutputDepth::Same, 0.5, 10.3, false, ""},
        {PixelDepth::F32, OutputDepth::Same, -2.0, 0.5, true, ""},
    };
    std::size_t index = 0;
    for (const Method method : {Method::Direct, Method::Separable, Method::Fft}) {
        for (const DepthCase& dc : cases) {
            auto rng = test::caseRng(seed_, 41, index);
            Case c;
            c.method = method;
            c.format = {dc.in, test::kChannels[index % 3]};
            c.width = test::reducedExtent(333, 97);
            c.height = test::reducedExtent(197, 61);
            c.padded = index % 2 == 0;
            c.spec = dc.sobel ? filters::makeSobel(1, 0, 5) : test::randomRank1Spec(7, 3, rng);
            if (std::string(dc.property) == "above255" || std::string(dc.property) == "saturates") {
                // Non-negative taps, so that the property holds whatever the seed (with signed
                // random taps the response can stay small everywhere).
                for (auto* taps : {&c.spec.separable->row, &c.spec.separable->column}) {
                    for (double& t : *taps) {
                        t = std::abs(t);
                    }
                }
                for (double& w : c.spec.kernel.weights) {
                    w = std::abs(w);
                }
            }
            c.spec.border = test::kBorders[index % 5];
            c.spec.borderValue = test::borderValueFor(dc.in, index);
            c.spec.depth = dc.out;
            c.spec.scale = dc.scale;
            c.spec.offset = dc.offset;
            const Outcome r = check(c, rng, index);
            ++index;
            if (!r.ok) {
                continue;
            }
            SCOPED_TRACE(describe(c));
            double lo = 0.0;
            double hi = 0.0;
            cv::minMaxLoc(r.gpu.reshape(1), &lo, &hi);
            const std::string property = dc.property;
            if (property == "negative") {
                EXPECT_LT(lo, 0.0) << "an f32 output must keep negative responses";
            } else if (property == "above255") {
                EXPECT_GT(hi, 255.0) << "a u16 output must not be clamped to the u8 range";
            } else if (property == "saturates") {
                EXPECT_EQ(lo, 0.0);
                EXPECT_EQ(hi, 255.0);
            }
        }
    }
}

// The separable kernel keeps a whole tile window per channel in shared memory; a large
// kernel on a 4-channel image is where that runs out first.
TEST_F(GpuVsCpu, SeparableLargeKernelsOnEveryChannelCount)
{
    SCOPED_TRACE(test::seedNote(seed_));
    std::size_t index = 0;
    for (const int channels : test::kChannels) {
        for (const cv::Size k : {cv::Size(201, 201), cv::Size(9, 199), cv::Size(255, 3)}) {
            auto rng = test::caseRng(seed_, 51, index);
            Case c;
            c.method = Method::Separable;
            c.format = {PixelDepth::U8, channels};
            c.width = test::reducedExtent(333, 97);
            c.height = test::reducedExtent(197, 61);
            c.spec = k.width == k.height ? filters::makeGaussian(33.0, k.width)
                                         : test::randomRank1Spec(k.width, k.height, rng);
            check(c, rng, index++);
        }
    }
}

// A region of the resident image (the preview of what a view shows) against the CPU path on the
// same region, for a chain, every channel count and regions touching each edge.
TEST_F(GpuVsCpu, ResidentRegionMatchesCpu)
{
    SCOPED_TRACE(test::seedNote(seed_));
    auto rng = test::caseRng(seed_, 62, 0);
    const cv::Rect regions[] = {{0, 0, 64, 40}, {100, 50, 150, 90}, {270, 150, 63, 47}, {332, 196, 1, 1}};
    for (const int channels : test::kChannels) {
        const PixelFormat format{PixelDepth::U8, channels};
        const cv::Mat src = test::randomImage(197, 333, format, rng);
        FilterSpec dense = test::randomDenseSpec(15, 9, rng);
        dense.border = Border::Reflect;
        const filters::FilterChain chain{{dense, filters::makeGaussian(3.0, 31)}};
        RunOptions options;
        options.placement = Placement::Resident;
        options.deviceSlots = {DeviceSlot{device_.id, 0, 1.0}};
        Pipeline resident(options);
        for (const cv::Rect& r : regions) {
            RunReport info;
            cv::Mat gpu;
            resident.run(src, chain, gpu, &info, r);
            ASSERT_TRUE(info.fallback.empty()) << info.fallback;
            ASSERT_EQ(info.methods.size(), chain.steps.size());
            const cv::Mat cpu = filters::applyCpuRegion(src, chain, r);
            ASSERT_EQ(gpu.size(), r.size());
            // Two 8-bit steps, each within 1 of the CPU: the second can carry the first's
            // difference through a kernel of positive taps summing to 1.
            EXPECT_LE(cv::norm(gpu, cpu, cv::NORM_INF), 2.0)
                << format.name() << " region " << r.x << "," << r.y << " " << r.width << "x" << r.height << "; "
                << info.methods.front() << "; " << info.methods.back();
        }
        cv::Mat outside;
        EXPECT_THROW(resident.run(src, chain, outside, nullptr, cv::Rect(400, 0, 5, 5)), std::invalid_argument);
    }
}

namespace {

// The means of f x f blocks of a result, as a fit-zoom preview shows it (the edge blocks hold fewer
// pixels), in the result's depth.
cv::Mat blockMeansOf(const cv::Mat& full, int f)
{
    const int c = full.channels();
    cv::Mat sums((full.rows + f - 1) / f, (full.cols + f - 1) / f, CV_64FC(c), cv::Scalar::all(0.0));
    cv::Mat wide;
    full.convertTo(wide, CV_64F);
    for (int y = 0; y < full.rows; ++y) {
        for (int x = 0; x < full.cols; ++x) {
            for (int k = 0; k < c; ++k) {
                sums.ptr<double>(y / f)[(x / f) * c + k] += wide.ptr<double>(y)[x * c + k];
            }
        }
    }
    for (int y = 0; y < sums.rows; ++y) {
        for (int x = 0; x < sums.cols; ++x) {
            const double n = std::min(f, full.rows - y * f) * std::min(f, full.cols - x * f);
            for (int k = 0; k < c; ++k) {
                sums.ptr<double>(y)[x * c + k] /= n;
            }
        }
    }
    cv::Mat out;
    sums.convertTo(out, full.depth());
    return out;
}

}  // namespace

// A fit-zoom preview: the GPUs sum the result's blocks and only the sums come back. Two bands
// whose boundary splits a block row, every channel count, 8-bit and float outputs, factors that
// leave partial blocks at the edges.
TEST_F(GpuVsCpu, ResidentReducedRunGivesTheBlockMeans)
{
    SCOPED_TRACE(test::seedNote(seed_));
    auto rng = test::caseRng(seed_, 63, 0);
    for (const int channels : test::kChannels) {
        const cv::Mat src = test::randomImage(197, 333, PixelFormat{PixelDepth::U8, channels}, rng);
        FilterSpec edges = filters::makeSobel(1, 0, 3);
        edges.depth = OutputDepth::F32;
        for (const filters::FilterChain& chain :
             {filters::FilterChain{{filters::makeGaussian(2.0)}}, filters::FilterChain{{edges}}}) {
            RunOptions options;
            options.placement = Placement::Resident;
            options.deviceSlots = {DeviceSlot{device_.id, 0, 1.0}, DeviceSlot{device_.id, 1, 1.0}};
            Pipeline resident(options);
            for (const int f : {2, 4, 5}) {
                RunControl control;
                control.reduce = f;
                RunReport info;
                cv::Mat gpu;
                resident.run(src, chain, gpu, control, &info);
                ASSERT_TRUE(info.fallback.empty()) << info.fallback;
                ASSERT_EQ(resident.bands().size(), 2u);
                cv::Mat full;
                resident.run(src, chain, full);
                // The reduction itself: the block means of the GPUs' own full result (8-bit: the
                // means' rounding alone).
                const cv::Mat own = blockMeansOf(full, f);
                ASSERT_EQ(gpu.size(), own.size()) << "factor " << f;
                ASSERT_EQ(gpu.type(), own.type());
                const bool isFloat = gpu.depth() == CV_32F;
                const double scale = std::max(1.0, cv::norm(own, cv::NORM_INF));
                EXPECT_LE(cv::norm(gpu, own, cv::NORM_INF), isFloat ? scale * 1e-5 : 1.0)
                    << channels << " channels, factor " << f;
                // And the CPU path's: its pixels may differ from the GPUs' by one level, and the
                // means' rounding adds up to one more.
                const cv::Mat want = blockMeansOf(filters::applyCpu(src, chain), f);
                EXPECT_LE(cv::norm(gpu, want, cv::NORM_INF), isFloat ? scale * 1e-4 : 2.0)
                    << channels << " channels, factor " << f;
                const bool blockRecord = std::any_of(info.records.begin(), info.records.end(),
                                                     [](const auto& r) { return r.label == "download block sums"; });
                EXPECT_TRUE(blockRecord);
            }
        }
    }
}

// One GPU, host to host, through the streamed pipeline: the report names the steps' methods and
// the device, and a forced method applies where a step can use it.
TEST_F(GpuVsCpu, PipelineOnOneGpuMatchesCpu)
{
    SCOPED_TRACE(test::seedNote(seed_));
    auto rng = test::caseRng(seed_, 61, 0);
    const cv::Mat src = test::randomImage(197, 333, {PixelDepth::U8, 3}, rng);
    const FilterSpec gaussian = filters::makeGaussian(1.1, 5);
    RunOptions options;
    options.deviceSlots = {DeviceSlot{device_.id, 0, 1.0}};
    const auto runWith = [&](const filters::FilterChain& chain, Method method, RunReport& info) {
        options.method = method;
        const cv::Mat out = runStreamed(src, chain, options, &info);
        EXPECT_TRUE(info.fallback.empty()) << info.fallback;
        EXPECT_EQ(info.devicesUsed(), std::vector<DeviceId>{device_.id});
        return out;
    };

    RunReport info;
    const cv::Mat one = runWith(filters::FilterChain{{gaussian}}, Method::Auto, info);
    EXPECT_LE(test::compareImages(one, filters::applyCpu(src, gaussian), 1.0).max, 1.0);
    ASSERT_EQ(info.stepMethods.size(), 1u);
    EXPECT_GE(info.kernelMs(), 0.0);

    // Two positive, unit-sum steps: each may round differently by 1, so 2 in all.
    const filters::FilterChain chain{{filters::makeBox(3), gaussian}};
    const cv::Mat two = runWith(chain, Method::Direct, info);
    EXPECT_LE(test::compareImages(two, filters::applyCpu(src, chain), 2.0).max, 2.0);
    ASSERT_EQ(info.stepMethods.size(), 2u);
    EXPECT_EQ(info.stepMethods[0], Method::Direct);

    // Forcing Separable on a chain with a rank-2 step falls back to Auto for that step only.
    const filters::FilterChain mixed{{gaussian, filters::makeSharpen(0.5)}};
    runWith(mixed, Method::Separable, info);
    ASSERT_EQ(info.stepMethods.size(), 2u);
    EXPECT_EQ(info.stepMethods[0], Method::Separable);
    EXPECT_NE(info.stepMethods[1], Method::Separable);
}

// ---- method choice (no timing: only what the planner decides and that it runs) -------------

class MethodChoice : public GpuVsCpu {
protected:
    /// Plans with Auto and checks that the plan runs and matches the reference on sampled rows.
    Plan planAndRun(const FilterSpec& spec, PixelFormat format, int width, int height, std::size_t index)
    {
        auto rng = test::caseRng(seed_, 71, index);
        const Plan plan = makePlan(spec, format, width, height, device_);
        EXPECT_FALSE(plan.reason.empty()) << plan.describe();
        Case c;
        c.method = plan.method;
        c.tensor = plan.tensorCores ? TensorCores::On : TensorCores::Off;
        c.format = format;
        c.width = width;
        c.height = height;
        c.spec = spec;
        c.sampled = width * height > 1000000;
        check(c, rng, index);
        return plan;
    }
};

TEST_F(MethodChoice, AutoPicksSeparableForGaussian31)
{
    SCOPED_TRACE(test::seedNote(seed_));
    const FilterSpec g = filters::makeGaussian(5.0, 31);
    ASSERT_TRUE(g.separable.has_value());
    const Plan plan = planAndRun(g, {PixelDepth::U8, 3}, 1920, 1080, 0);
    EXPECT_EQ(plan.method, Method::Separable) << plan.describe();
}

TEST_F(MethodChoice, AutoAvoidsSeparableForRandom63)
{
    SCOPED_TRACE(test::seedNote(seed_));
    auto rng = test::caseRng(seed_, 72, 0);
    const FilterSpec k = test::randomDenseSpec(63, 63, rng);
    ASSERT_FALSE(k.separable.has_value());
    const Plan plan = planAndRun(k, {PixelDepth::U8, 3}, 1920, 1080, 1);
    EXPECT_TRUE(plan.method == Method::Fft || plan.method == Method::Direct) << plan.describe();
}

TEST_F(MethodChoice, AutoTakesTensorCoresForLarge8BitKernels)
{
    SCOPED_TRACE(test::seedNote(seed_));
    if (device_.ccMajor < 8) {
        GTEST_SKIP() << "tensor-core kernels need compute capability 8.0";
    }
    auto rng = test::caseRng(seed_, 74, 0);
    const Plan dense = planAndRun(test::randomDenseSpec(31, 31, rng), {PixelDepth::U8, 4}, 1920, 1080, 2);
    EXPECT_TRUE(dense.tensorCores) << dense.describe();
    const Plan gaussian = planAndRun(filters::makeGaussian(5.0, 31), {PixelDepth::U8, 4}, 1920, 1080, 3);
    EXPECT_EQ(gaussian.method, Method::Separable) << gaussian.describe();
    EXPECT_TRUE(gaussian.tensorCores) << gaussian.describe();
    // Float images never take them.
    const Plan f32 = makePlan(filters::makeGaussian(5.0, 31), {PixelDepth::F32, 4}, 1920, 1080, device_);
    EXPECT_FALSE(f32.tensorCores) << f32.describe();
}

TEST_F(MethodChoice, TensorCoresRefuseWithTheReason)
{
    auto rng = test::caseRng(seed_, 75, 0);
    const FilterSpec dense = test::randomDenseSpec(15, 15, rng);
    auto refusal = [&](const FilterSpec& spec, PixelFormat format, Method method) -> std::string {
        try {
            makePlan(spec, format, 64, 64, device_, method, TensorCores::On);
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return {};
    };
    EXPECT_NE(refusal(dense, {PixelDepth::F32, 1}, Method::Direct).find("8-bit"), std::string::npos);
    EXPECT_NE(refusal(dense, {PixelDepth::U16, 3}, Method::Direct).find("8-bit"), std::string::npos);
    FilterSpec widened = dense;
    widened.depth = OutputDepth::F32;
    EXPECT_NE(refusal(widened, {PixelDepth::U8, 3}, Method::Direct).find("8-bit"), std::string::npos);
    // Sharpen's taps sum to 9 in absolute value: fp16 could move a result by more than 0.5. (On
    // RGBA8 the integer kernel takes it exactly, as the last lines check.)
    EXPECT_NE(refusal(filters::makeSharpen(1.0), {PixelDepth::U8, 3}, Method::Direct).find("fp16"), std::string::npos);
    EXPECT_NE(refusal(test::randomDenseSpec(65, 3, rng), {PixelDepth::U8, 1}, Method::Direct).find("64 taps"),
              std::string::npos);
    FilterSpec oddBorder = dense;
    oddBorder.border = Border::Constant;
    oddBorder.borderValue = 100.3;
    EXPECT_NE(refusal(oddBorder, {PixelDepth::U8, 1}, Method::Direct).find("border"), std::string::npos);
    if (device_.ccMajor >= 8) {
        EXPECT_EQ(refusal(dense, {PixelDepth::U8, 4}, Method::Direct), "");
        EXPECT_EQ(refusal(filters::makeGaussian(2.0, 9), {PixelDepth::U8, 3}, Method::Separable), "");
        EXPECT_EQ(refusal(filters::makeSharpen(1.0), {PixelDepth::U8, 4}, Method::Direct), "");
    }
}

TEST_F(MethodChoice, ForcedSeparableOnRank2Throws)
{
    auto rng = test::caseRng(seed_, 73, 0);
    const FilterSpec k = test::randomDenseSpec(5, 5, rng);
    ASSERT_FALSE(k.separable.has_value());
    EXPECT_THROW(makePlan(k, {PixelDepth::F32, 1}, 64, 64, device_, Method::Separable), std::invalid_argument);
    EXPECT_THROW(makePlan(filters::makeSharpen(1.0), {PixelDepth::U8, 4}, 64, 64, device_, Method::Separable),
                 std::invalid_argument);
}

// Whatever Auto picks must be runnable, including rank-1 kernels too large for one method.
TEST_F(MethodChoice, AutoPlansAreRunnable)
{
    SCOPED_TRACE(test::seedNote(seed_));
    auto rng = test::caseRng(seed_, 74, 0);
    struct Item {
        FilterSpec spec;
        PixelFormat format;
        int width, height;
    };
    const Item items[] = {
        {filters::makeIdentity(), {PixelDepth::U8, 1}, 17, 13},
        {filters::makeSharpen(0.7), {PixelDepth::U16, 3}, 333, 197},
        {filters::makeGaussian(30.0), {PixelDepth::U8, 4}, 333, 197},
        {filters::makeBox(255), {PixelDepth::F32, 4}, 333, 197},
        {test::randomDenseSpec(31, 17, rng), {PixelDepth::F32, 3}, 333, 197},
        {filters::makeGaussian(2.0), {PixelDepth::U8, 4}, 1920, 1080},
    };
    std::size_t index = 10;
    for (const Item& item : items) {
        try {
            planAndRun(item.spec, item.format, item.width, item.height, index++);
        } catch (const std::exception& e) {
            ADD_FAILURE() << "Auto plan for " << test::describeSpec(item.spec) << " on " << item.format.name()
                          << " threw: " << e.what();
        }
    }
}

// The walking RGBA8 kernel converts bytes in one instruction where the bound of
// direct_rgba8_bound.h allows and in two (exactly) where it does not: both routes, both sizes,
// against the CPU path within 1. The strong kernel (centre 41, the rest -5) sends its sums far
// past 2^15 and must take the exact route; the mild ones (random unit-sum, box) the fast one.
TEST_F(GpuVsCpu, Rgba8WalkBothByteConversions)
{
    SCOPED_TRACE(test::seedNote(seed_));
    std::size_t index = 0;
    for (const int side : {3, 5}) {
        filters::Kernel2D strong{side, side, std::vector<double>(static_cast<std::size_t>(side) * side, -5.0)};
        strong.weights[strong.weights.size() / 2] = 5.0 * (side * side - 1) + 1.0;
        auto rng = test::caseRng(seed_, 75, index);
        const FilterSpec specs[] = {test::randomDenseSpec(side, side, rng), filters::makeBox(side),
                                    filters::makeCustom(strong)};
        for (const FilterSpec& spec : specs) {
            auto caseRng = test::caseRng(seed_, 76, index);
            Case c;
            c.method = Method::Direct;
            c.variant = KernelVariant::DirectRgba8Walk;
            c.format = {PixelDepth::U8, 4};
            c.width = test::reducedExtent(333, 131);
            c.height = test::reducedExtent(261, 97);
            c.spec = spec;
            c.spec.border = test::kBorders[index % 5];
            c.spec.borderValue = test::borderValueFor(PixelDepth::U8, index);
            c.spec.offset = index % 2 == 0 ? 0.0 : 3.5;
            c.padded = index % 2 == 1;
            check(c, caseRng, index);
            ++index;
        }
    }
}

// The walking RGBA8 kernel's fp16 form, forced by its name direct-rgba8-walk-half (3 x 3 kernels
// whose bound of direct_rgba8_bound.h allows it): box, a binomial blur, random unit-sum kernels and boxes scaled far down (small taps, whose
// fp16 tap scale differs), offsets that push sums below 0 and past 255, every border; images
// smaller than the kernel, narrower than a strip, no multiple of a strip's 128 columns or a
// step's 32 rows, tall ones over many steps, tight and padded pitches; the output poisoned first.
// The plan must state the fp16 form; results within 1 of the CPU path.
TEST_F(GpuVsCpu, Rgba8WalkHalfGrid)
{
    SCOPED_TRACE(test::seedNote(seed_));
    const cv::Size images[] = {{1, 1}, {2, 3}, {4, 5}, {7, 2}, {126, 33}, {131, 97}, {333, 261}, {1001, 1307}};
    const filters::Kernel2D binomial{
        3, 3, {1 / 16.0, 2 / 16.0, 1 / 16.0, 2 / 16.0, 4 / 16.0, 2 / 16.0, 1 / 16.0, 2 / 16.0, 1 / 16.0}};
    std::size_t index = 0;
    for (const cv::Size image : images) {
        for (int form = 0; form < 5; ++form) {
            auto rng = test::caseRng(seed_, 78, index);
            Case c;
            c.method = Method::Direct;
            c.variant = KernelVariant::DirectRgba8WalkHalf;
            c.format = {PixelDepth::U8, 4};
            c.width = image.width;
            c.height = image.height;
            c.spec = form == 0 || form > 2 ? filters::makeBox(3)
                     : form == 1           ? filters::makeCustom(binomial)
                                           : test::randomDenseSpec(3, 3, rng);
            // Small taps: the tap scale 2^k moves up (form 3), or stops at its cap of 2^24 (form 4).
            c.spec.scale = form == 3 ? 1.0 / 40.0 : form == 4 ? 1e-4 : 1.0;
            c.spec.border = test::kBorders[(index + index / 5) % 5];  // every border for every form
            c.spec.borderValue = test::borderValueFor(PixelDepth::U8, index);
            c.spec.offset = index % 3 == 0 ? 0.0 : index % 3 == 1 ? 3.5 : -7.25;
            c.padded = index % 2 == 1;
            // Box, binomial and the small boxes always qualify; a random draw almost always (skip the
            // rare one that does not: the fp16 form refuses it by name).
            std::optional<Plan> plan;
            std::string refusal;
            try {
                plan = makePlanForVariant(c.spec, c.format, c.width, c.height, device_, *c.variant);
            } catch (const NotSupported& e) {
                refusal = e.what();
            }
            if (form != 2) {
                EXPECT_TRUE(plan.has_value()) << refusal;
            }
            if (plan) {
                EXPECT_NE(plan->describe().find("fp16 sums"), std::string::npos) << plan->describe();
                check(c, rng, index);
            }
            ++index;
        }
    }
}

// The integer tensor-core RGBA8 kernel (direct-rgba8-imma): both sizes, random unit-sum, box,
// sharpen and the strong kernel (integer taps, sums far outside 0..255), offsets, every border;
// images smaller than the kernel, narrower than a strip, no multiple of a strip's 128 columns
// (strips start 2 pixels left) or of a step's 32 lines, tall ones over many steps, tight and
// padded pitches; the output poisoned first. Within 1 of the CPU path.
TEST_F(GpuVsCpu, Rgba8ImmaGrid)
{
    SCOPED_TRACE(test::seedNote(seed_));
    const cv::Size images[] = {{1, 1}, {2, 3}, {4, 5}, {7, 2}, {126, 33}, {131, 97}, {333, 261}, {1001, 1307}};
    std::size_t index = 0;
    for (const int side : {3, 5}) {
        filters::Kernel2D strong{side, side, std::vector<double>(static_cast<std::size_t>(side) * side, -5.0)};
        strong.weights[strong.weights.size() / 2] = 5.0 * (side * side - 1) + 1.0;
        for (const cv::Size image : images) {
            auto rng = test::caseRng(seed_, 77, index);
            const FilterSpec specs[] = {test::randomDenseSpec(side, side, rng), filters::makeBox(side),
                                        filters::makeSharpen(1.5), filters::makeCustom(strong)};
            Case c;
            c.method = Method::Direct;
            c.tensor = TensorCores::On;
            c.variant = KernelVariant::DirectRgba8Imma;
            c.format = {PixelDepth::U8, 4};
            c.width = image.width;
            c.height = image.height;
            c.spec = specs[index % 4];
            if (c.spec.kernel.width != side) {
                c.spec = test::randomDenseSpec(side, side, rng);  // sharpen is 3 x 3 only
            }
            c.spec.border = test::kBorders[index % 5];
            c.spec.borderValue = test::borderValueFor(PixelDepth::U8, index);
            c.spec.offset = index % 3 == 0 ? 0.0 : index % 3 == 1 ? 3.5 : -7.25;
            c.padded = index % 2 == 1;
            check(c, rng, index);
            ++index;
        }
    }
}

}  // namespace
}  // namespace tessera::gpu
