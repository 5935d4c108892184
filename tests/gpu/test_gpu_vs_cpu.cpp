// SPDX-License-Identifier: Apache-2.0
// Every GPU method against the CPU path (filters::applyCpu, i.e. cv::filter2D semantics) over a
// covering grid. The full cross product (3 depths x 3 channel counts x 5 borders x 11 kernel
// sizes x 4 image sizes x 3 methods) is far too slow, so each method runs:
//   - a format grid: every depth x channels x border for kernel sizes 3, 5, 7, 8, 15 on the odd
//     image sizes 17x13 and 333x197 (450 cases);
//   - a kernel-size grid: every kernel size 1..63 and some larger than the image (19x19, 33x21,
//     65x65, 9x199, 201x201) on 1x1, 17x13 and 333x197, each with every depth x channels,
//     shape (square / wide / tall) and border rotating (324 cases);
//   - 1920x1080 once per depth x channels (9 cases), kernel shape and border rotating; kernels
//     above 15 taps per side compare a sample of rows with a double-precision reference
//     computed here, and the whole f32 output is scanned for poison.
// Within each grid the anchor (centred or random), scale/offset, constant border value, row
// pitch (tight or padded) and, for Separable, the kernel family (Gaussian, box, random rank 1)
// rotate with the case index. Inputs and weights are random and fresh each run; the seed is in
// every failure message.

#include "gpu_test_util.h"

#include "gpu/engine.h"

#include <opencv2/core.hpp>

#include <cmath>
#include <string>

namespace tessera::gpu {
namespace {

using filters::Border;
using filters::FilterSpec;
using filters::OutputDepth;
using test::GpuTest;

struct GridPoint {
    PixelFormat format;
    int width = 1;
    int height = 1;
    int kw = 1;
    int kh = 1;
    Border border = Border::Reflect101;
    std::size_t variant = 0;  ///< drives the rotating choices listed at the top of the file
    bool sampled = false;     ///< compare sampled rows against test::referenceRows
};

struct Case {
    Method method = Method::Direct;
    TensorCores tensor = TensorCores::Off;
    PixelFormat format;
    int width = 1;
    int height = 1;
    FilterSpec spec;
    bool padded = false;
    bool sampled = false;
    int workspaceFill = 0xFF;
};

std::string describe(const Case& c)
{
    return toString(c.method) + (c.tensor == TensorCores::On ? " (tensor cores)" : "") + " " + c.format.name() + " " + std::to_string(c.width) + "x" +
           std::to_string(c.height) + " " + test::describeSpec(c.spec) + (c.padded ? " padded pitch" : " tight pitch") +
           (c.sampled ? " sampled rows" : "");
}

FilterSpec separableKernel(int kw, int kh, std::size_t variant, std::mt19937_64& rng)
{
    const std::size_t family = variant % 3;
    if (family == 0 && kw == kh && kw % 2 == 1) {
        return filters::makeGaussian(0.3 * ((kw - 1) * 0.5 - 1) + 0.8, kw);
    }
    if (family == 1 && kw == kh) {
        return filters::makeBox(kw);
    }
    return test::randomRank1Spec(kw, kh, rng);
}

Case realise(Method method, TensorCores tensor, const GridPoint& p, std::mt19937_64& rng)
{
    Case c;
    c.method = method;
    c.tensor = tensor;
    c.format = p.format;
    // Reduced runs (see test::reducedSizes) shrink the image further as the kernel grows: the
    // checking tool's time goes with pixels times taps.
    const int taps = p.kw * p.kh;
    c.width = test::reducedExtent(p.width, taps > 1024 ? 17 : taps > 100 ? 33 : 97);
    c.height = test::reducedExtent(p.height, taps > 1024 ? 13 : taps > 100 ? 29 : 61);
    c.sampled = p.sampled;
    c.padded = p.variant % 2 == 0;
    c.workspaceFill = p.variant % 2 == 0 ? 0xFF : 0x7F;  // NaN or 3.4e38 as floats
    c.spec = method == Method::Separable ? separableKernel(p.kw, p.kh, p.variant, rng)
                                         : test::randomDenseSpec(p.kw, p.kh, rng);
    c.spec.border = p.border;
    c.spec.borderValue = test::borderValueFor(p.format.depth, p.variant / 5);
    if (p.variant % 3 == 1) {
        c.spec.anchor = filters::Point{std::uniform_int_distribution<int>(0, p.kw - 1)(rng),
                                       std::uniform_int_distribution<int>(0, p.kh - 1)(rng)};
    }
    const bool isFloat = p.format.depth == PixelDepth::F32;
    switch (p.variant % 4) {
    case 1:
        // Tensor-core separable plans keep 3 * 255 * scale * 2^-11 (their error bound) below 0.5.
        c.spec.scale = tensor == TensorCores::On && method == Method::Separable ? 1.2 : 1.7;
        break;
    case 2:
        c.spec.scale = 0.8;
        c.spec.offset = isFloat ? 0.25 : 12.5;
        break;
    default: break;
    }
    return c;
}

class GpuVsCpu : public GpuTest {
protected:
    struct Outcome {
        bool ok = false;
        cv::Mat gpu;
    };

    /// Runs one case and adds a failure (with the case in the trace) when it does not match.
    Outcome check(const Case& c, std::mt19937_64& rng, std::size_t index)
    {
        SCOPED_TRACE("case " + std::to_string(index) + ": " + describe(c));
        Outcome result;
        const cv::Mat src = test::randomImage(c.height, c.width, c.format, rng);
        Plan plan;
        try {
            plan = makePlan(c.spec, c.format, c.width, c.height, device_, c.method, c.tensor);
        } catch (const std::exception& e) {
            ADD_FAILURE() << "makePlan threw: " << e.what();
            return result;
        }
        if (plan.method != c.method || plan.tensorCores != (c.tensor == TensorCores::On)) {
            ADD_FAILURE() << "forced method not honoured: " << plan.describe();
            return result;
        }
        test::GpuOutput out;
        try {
            out = test::runPoisoned(plan, src, stream(), c.padded, c.workspaceFill);
        } catch (const std::exception& e) {
            ADD_FAILURE() << "run threw: " << e.what() << "; plan: " << plan.describe();
            return result;
        }
        result.ok = true;
        if (!out.damage.empty()) {
            ADD_FAILURE() << out.damage << "; plan: " << plan.describe();
            result.ok = false;
        }
        const int outDepth = filters::resolveOutputDepth(c.spec.depth, src.depth());
        const double tol = test::tolerance(c.method, c.spec, src, outDepth);
        test::Diff d;
        std::string blame;
        if (c.sampled) {
            const std::vector<int> rows = test::sampleRows(c.height, 9, rng);
            d = test::compareImages(out.image, test::referenceRows(src, c.spec, rows), tol, &rows);
            if (const std::string bad = test::firstNonFinite(out.image); !bad.empty()) {
                ADD_FAILURE() << bad << "; plan: " << plan.describe();
                result.ok = false;
            }
        } else {
            const cv::Mat cpu = filters::applyCpu(src, c.spec);
            d = test::compareImages(out.image, cpu, tol);
            if (d.max > tol) {
                // Say which side is off: both against the definition, on the worst row.
                const std::vector<int> row{d.y};
                const cv::Mat def = test::referenceRows(src, c.spec, row);
                blame = "; on that row against the definition (double precision): gpu max |diff| " +
                        std::to_string(test::compareImages(out.image, def, tol, &row).max) + ", cpu " +
                        std::to_string(test::compareImages(cpu, def, tol, &row).max);
            }
        }
        if (d.max > tol) {
            ADD_FAILURE() << d.where() << " (tolerance " << tol << ")" << blame << "; plan: " << plan.describe();
            result.ok = false;
        }
        result.gpu = out.image;
        return result;
    }

    /// Runs every grid point; gives up after a few failing cases so one broken path does not
    /// bury the log.
    void runGrid(Method method, const std::vector<GridPoint>& points, std::uint64_t salt,
                 TensorCores tensor = TensorCores::Off)
    {
        SCOPED_TRACE(test::seedNote(seed_));
        int failures = 0;
        for (std::size_t i = 0; i < points.size(); ++i) {
            auto rng = test::caseRng(seed_, salt, i);
            if (!check(realise(method, tensor, points[i], rng), rng, i).ok && ++failures >= 10) {
                ADD_FAILURE() << "stopped after " << failures << " failing cases of " << points.size();
                return;
            }
        }
    }
};

std::vector<GridPoint> formatGrid()
{
    std::vector<GridPoint> points;
    const cv::Size images[] = {{17, 13}, {333, 197}};
    for (const cv::Size image : images) {
        for (const int k : {3, 5, 7, 8, 15}) {
            for (const PixelDepth depth : test::kDepths) {
                for (const int channels : test::kChannels) {
                    for (const Border border : test::kBorders) {
                        points.push_back({{depth, channels}, image.width, image.height, k, k, border, points.size()});
                    }
                }
            }
        }
    }
    return points;
}

std::vector<GridPoint> kernelSizeGrid()
{
    constexpr int kSizes[] = {1, 2, 3, 4, 5, 7, 8, 15, 31, 63};
    constexpr std::size_t kCount = std::size(kSizes);
    struct Larger {
        int kw, kh;
    };
    struct Image {
        int width, height;
        std::vector<Larger> larger;  // kernels larger than the image, beyond the list above
    };
    const Image images[] = {
        {1, 1, {}},  // every size above 1 is already larger than the image
        {17, 13, {{19, 19}, {33, 21}, {65, 65}}},
        // 65x65 has more taps than the direct kernel keeps in its parameters (workspace path).
        {333, 197, {{9, 199}, {65, 65}, {201, 201}}},
    };
    // Every kernel size meets every depth x channels on every image; the shape (square, wide,
    // tall) and the border rotate.
    std::vector<GridPoint> points;
    auto add = [&](const Image& img, int kw, int kh, std::size_t format) {
        const std::size_t n = points.size();
        points.push_back({{test::kDepths[format % 3], test::kChannels[format / 3]}, img.width, img.height, kw, kh,
                          test::kBorders[n % 5], n});
    };
    for (const Image& img : images) {
        for (std::size_t j = 0; j < kCount; ++j) {
            const int k = kSizes[j];
            const int partner = kSizes[(j + 3) % kCount];
            for (std::size_t f = 0; f < 9; ++f) {
                switch ((j + f) % 3) {
                case 0: add(img, k, k, f); break;
                case 1: add(img, k, partner, f); break;
                default: add(img, partner, k, f); break;
                }
            }
        }
        for (const Larger& l : img.larger) {
            for (std::size_t f = 0; f < 9; ++f) {
                add(img, l.kw, l.kh, f);
            }
        }
    }
    return points;
}

// 1920x1080: every depth x channels once per method, kernel shape and border rotating. Kernels
// above 15 taps per side are checked on sampled rows (test::referenceRows).
std::vector<GridPoint> largeImageGrid(Method method)
{
    const cv::Size shapes[] = {{3, 3}, {5, 5}, {4, 7}, {8, 8}, {15, 15}, {31, 31}, {63, 63}, {1, 9},
                               method == Method::Fft ? cv::Size(201, 201) : cv::Size(13, 2)};
    const std::size_t offset = static_cast<std::size_t>(method);
    std::vector<GridPoint> points;
    for (std::size_t i = 0; i < 9; ++i) {
        const cv::Size k = shapes[(i * 4 + offset) % 9];
        points.push_back({{test::kDepths[i % 3], test::kChannels[i / 3]}, 1920, 1080, k.width, k.height,
                          test::kBorders[(i + offset) % 5], i, std::max(k.width, k.height) > 15});
    }
    return points;
}

TEST_F(GpuVsCpu, DirectFormatGrid) { runGrid(Method::Direct, formatGrid(), 11); }
TEST_F(GpuVsCpu, DirectKernelSizeGrid) { runGrid(Method::Direct, kernelSizeGrid(), 12); }
TEST_F(GpuVsCpu, DirectLargeImage) { runGrid(Method::Direct, largeImageGrid(Method::Direct), 13); }
TEST_F(GpuVsCpu, SeparableFormatGrid) { runGrid(Method::Separable, formatGrid(), 21); }
TEST_F(GpuVsCpu, SeparableKernelSizeGrid) { runGrid(Method::Separable, kernelSizeGrid(), 22); }
TEST_F(GpuVsCpu, SeparableLargeImage) { runGrid(Method::Separable, largeImageGrid(Method::Separable), 23); }
// Tensor-core forms (8-bit only): every channel count and border, kernel sides 1..64 (both
// sides of each width class boundary), images 1x1 .. 1920x1080.
std::vector<GridPoint> tensorGrid()
{
    constexpr int kSizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64};
    constexpr std::size_t kCount = std::size(kSizes);
    const cv::Size images[] = {{1, 1}, {17, 13}, {333, 197}, {1920, 1080}};
    std::vector<GridPoint> points;
    for (const cv::Size image : images) {
        const bool large = image.width > 1000;
        for (std::size_t j = 0; j < kCount; j += large ? 3 : 1) {
            const int k = kSizes[j];
            const int partner = kSizes[(j + 5) % kCount];
            for (const int channels : test::kChannels) {
                const std::size_t n = points.size();
                const int kw = n % 3 == 1 ? partner : k;
                const int kh = n % 3 == 2 ? partner : k;
                points.push_back({{PixelDepth::U8, channels}, image.width, image.height, kw, kh, test::kBorders[n % 5],
                                  n, large && std::max(kw, kh) > 15});
            }
        }
    }
    return points;
}

TEST_F(GpuVsCpu, TensorDirectGrid) { runGrid(Method::Direct, tensorGrid(), 41, TensorCores::On); }
TEST_F(GpuVsCpu, TensorSeparableGrid) { runGrid(Method::Separable, tensorGrid(), 42, TensorCores::On); }

// The walking kernels (RGBA8 3x3 / 5x5 direct, f32 one-channel separable up to 32 taps, RGBA8
// separable on tensor cores up to 33 taps) walk
// down column strips in steps and split the height into segments by the SM count: tall images
// whose height is no multiple of a step or a segment, widths no multiple of a strip, every border.
TEST_F(GpuVsCpu, WalkingKernelsOverManySteps)
{
    SCOPED_TRACE(test::seedNote(seed_));
    struct Shape {
        Method method;
        PixelFormat format;
        int kw, kh;
        int width, height;
        TensorCores tensor = TensorCores::Off;
    };
    const Shape shapes[] = {
        {Method::Direct, {PixelDepth::U8, 4}, 3, 3, 1001, 2467},
        {Method::Direct, {PixelDepth::U8, 4}, 5, 5, 257, 5003},
        {Method::Separable, {PixelDepth::F32, 1}, 31, 31, 1003, 2459},
        {Method::Separable, {PixelDepth::F32, 1}, 9, 17, 130, 4099},
        {Method::Separable, {PixelDepth::F32, 1}, 24, 5, 515, 1201},
        {Method::Separable, {PixelDepth::U8, 4}, 31, 31, 1001, 1301, TensorCores::On},
        {Method::Separable, {PixelDepth::U8, 4}, 16, 33, 203, 1500, TensorCores::On},
        {Method::Separable, {PixelDepth::U8, 4}, 7, 2, 77, 611, TensorCores::On},
    };
    std::size_t index = 0;
    for (const Shape& sh : shapes) {
        for (const Border border : test::kBorders) {
            auto rng = test::caseRng(seed_, 51, index);
            Case c;
            c.method = sh.method;
            c.format = sh.format;
            // Reduced runs keep the height: the walk down the strips is what these cases test.
            c.width = test::reducedExtent(sh.width, 131);
            c.height = sh.height;
            c.tensor = sh.tensor;
            if (sh.tensor == TensorCores::On) {
                // Non-negative taps summing to 1 per pass keep the fp16 error bound below 0.5.
                c.spec = test::randomRank1Spec(sh.kw, sh.kh, rng);
                for (auto* taps : {&c.spec.separable->row, &c.spec.separable->column}) {
                    double sum = 0.0;
                    for (double& t : *taps) {
                        t = std::abs(t) + 0.01;
                        sum += t;
                    }
                    for (double& t : *taps) {
                        t /= sum;
                    }
                }
                std::size_t w = 0;
                for (double col : c.spec.separable->column) {
                    for (double row : c.spec.separable->row) {
                        c.spec.kernel.weights[w++] = col * row;
                    }
                }
                if (index % 2 == 0) {
                    c.spec.anchor = filters::Point{std::uniform_int_distribution<int>(0, sh.kw - 1)(rng),
                                                   std::uniform_int_distribution<int>(0, sh.kh - 1)(rng)};
                }
            } else {
                c.spec = sh.method == Method::Separable ? separableKernel(sh.kw, sh.kh, index, rng)
                                                        : test::randomDenseSpec(sh.kw, sh.kh, rng);
            }
            c.spec.border = border;
            c.spec.borderValue = test::borderValueFor(sh.format.depth, index);
            c.spec.offset = index % 2 == 0 ? 0.0 : (sh.format.depth == PixelDepth::F32 ? 0.25 : 3.5);
            c.padded = index % 2 == 1;
            c.workspaceFill = index % 2 == 0 ? 0xFF : 0x7F;
            check(c, rng, index);
            ++index;
        }
    }
}

TEST_F(GpuVsCpu, FftFormatGrid) { runGrid(Method::Fft, formatGrid(), 31); }
TEST_F(GpuVsCpu, FftKernelSizeGrid) { runGrid(Method::Fft, kernelSizeGrid(), 32); }
TEST_F(GpuVsCpu, FftLargeImage) { runGrid(Method::Fft, largeImageGrid(Method::Fft), 33); }

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
            c.spec = k.width == k.height ? filters::makeGaussian(33.0, k.width) : test::randomRank1Spec(k.width, k.height, rng);
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
    // Sharpen's taps sum to 9 in absolute value: fp16 could move a result by more than 0.5.
    EXPECT_NE(refusal(filters::makeSharpen(1.0), {PixelDepth::U8, 4}, Method::Direct).find("fp16"), std::string::npos);
    EXPECT_NE(refusal(test::randomDenseSpec(65, 3, rng), {PixelDepth::U8, 1}, Method::Direct).find("64 taps"),
              std::string::npos);
    FilterSpec oddBorder = dense;
    oddBorder.border = Border::Constant;
    oddBorder.borderValue = 100.3;
    EXPECT_NE(refusal(oddBorder, {PixelDepth::U8, 1}, Method::Direct).find("border"), std::string::npos);
    if (device_.ccMajor >= 8) {
        EXPECT_EQ(refusal(dense, {PixelDepth::U8, 4}, Method::Direct), "");
        EXPECT_EQ(refusal(filters::makeGaussian(2.0, 9), {PixelDepth::U8, 3}, Method::Separable), "");
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

}  // namespace
}  // namespace tessera::gpu
