// SPDX-License-Identifier: Apache-2.0
#pragma once

// The fixture and grids of the GPU-against-CPU tests (test_gpu_vs_cpu*.cpp): each grid point is
// realised with fresh random inputs and weights, run on the GPU and compared with the CPU path.

#include "gpu_test_util.h"

#include "tessera/gpu/engine.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace tessera::gpu::vs_cpu {

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
    std::optional<KernelVariant> variant;  ///< planned with makePlanForVariant when set
    PixelFormat format;
    int width = 1;
    int height = 1;
    FilterSpec spec;
    bool padded = false;
    bool sampled = false;
    int workspaceFill = 0xFF;
};

inline std::string describe(const Case& c)
{
    return toString(c.method) + (c.variant ? " [" + toString(*c.variant) + "]" : "") +
           (c.tensor == TensorCores::On ? " (tensor cores)" : "") + " " + c.format.name() + " " +
           std::to_string(c.width) + "x" + std::to_string(c.height) + " " + test::describeSpec(c.spec) +
           (c.padded ? " padded pitch" : " tight pitch") + (c.sampled ? " sampled rows" : "");
}

inline FilterSpec separableKernel(int kw, int kh, std::size_t variant, std::mt19937_64& rng)
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

inline Case realise(Method method, TensorCores tensor, const GridPoint& p, std::mt19937_64& rng)
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
            plan = c.variant ? makePlanForVariant(c.spec, c.format, c.width, c.height, device_, *c.variant)
                             : makePlan(c.spec, c.format, c.width, c.height, device_, c.method, c.tensor);
        } catch (const std::exception& e) {
            ADD_FAILURE() << "makePlan threw: " << e.what();
            return result;
        }
        if (plan.method != c.method || plan.tensorCores != (c.tensor == TensorCores::On) ||
            (c.variant && plan.shape.variant != *c.variant)) {
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
                 TensorCores tensor = TensorCores::Off, std::optional<KernelVariant> variant = std::nullopt)
    {
        SCOPED_TRACE(test::seedNote(seed_));
        int failures = 0;
        for (std::size_t i = 0; i < points.size(); ++i) {
            auto rng = test::caseRng(seed_, salt, i);
            Case c = realise(method, tensor, points[i], rng);
            c.variant = variant;
            if (!check(c, rng, i).ok && ++failures >= 10) {
                ADD_FAILURE() << "stopped after " << failures << " failing cases of " << points.size();
                return;
            }
        }
    }
};

inline std::vector<GridPoint> formatGrid()
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

inline std::vector<GridPoint> kernelSizeGrid()
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
        points.push_back({{test::kDepths[format % 3], test::kChannels[format / 3]},
                          img.width,
                          img.height,
                          kw,
                          kh,
                          test::kBorders[n % 5],
                          n});
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
inline std::vector<GridPoint> largeImageGrid(Method method)
{
    const cv::Size shapes[] = {{3, 3},   {5, 5},   {4, 7},
                               {8, 8},   {15, 15}, {31, 31},
                               {63, 63}, {1, 9},   method == Method::Fft ? cv::Size(201, 201) : cv::Size(13, 2)};
    const std::size_t offset = static_cast<std::size_t>(method);
    std::vector<GridPoint> points;
    for (std::size_t i = 0; i < 9; ++i) {
        const cv::Size k = shapes[(i * 4 + offset) % 9];
        points.push_back({{test::kDepths[i % 3], test::kChannels[i / 3]},
                          1920,
                          1080,
                          k.width,
                          k.height,
                          test::kBorders[(i + offset) % 5],
                          i,
                          std::max(k.width, k.height) > 15});
    }
    return points;
}

/// The points of `points` whose kernel has at most `side` taps per side.
inline std::vector<GridPoint> withSidesUpTo(std::vector<GridPoint> points, int side)
{
    std::erase_if(points, [side](const GridPoint& p) { return p.kw > side || p.kh > side; });
    return points;
}

// Tensor-core forms (8-bit only): every channel count and border, kernel sides 1..64 (both
// sides of each width class boundary), images 1x1 .. 1920x1080.
inline std::vector<GridPoint> tensorGrid()
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
                points.push_back({{PixelDepth::U8, channels},
                                  image.width,
                                  image.height,
                                  kw,
                                  kh,
                                  test::kBorders[n % 5],
                                  n,
                                  large && std::max(kw, kh) > 15});
            }
        }
    }
    return points;
}

// The TF32 walking separable kernel (f32 one channel, 2 to 32 taps per side after the row
// taps' alignment): every border, row sides up to 29 (so any anchor fits) and column sides up
// to 32, square, wide and tall, even and odd, on images from 1x1 (every kernel larger than the
// image) to 1920x1080 (sampled rows above 15 taps).
inline std::vector<GridPoint> tf32WalkGrid()
{
    constexpr int kRowSides[] = {2, 3, 4, 5, 7, 8, 9, 13, 15, 16, 17, 24, 29};
    constexpr int kColumnSides[] = {2, 5, 9, 16, 17, 31, 32};
    const cv::Size images[] = {{1, 1}, {17, 13}, {333, 197}, {1920, 1080}};
    std::vector<GridPoint> points;
    for (const cv::Size image : images) {
        const bool large = image.width > 1000;
        for (std::size_t i = 0; i < std::size(kRowSides); i += large ? 3 : 1) {
            const std::size_t n = points.size();
            const int kw = kRowSides[i];
            const int kh = n % 3 == 0 ? std::min(kw, 32) : kColumnSides[(i + n) % std::size(kColumnSides)];
            points.push_back({{PixelDepth::F32, 1},
                              image.width,
                              image.height,
                              kw,
                              kh,
                              test::kBorders[n % 5],
                              n,
                              large && std::max(kw, kh) > 15});
        }
    }
    return points;
}

}  // namespace tessera::gpu::vs_cpu
