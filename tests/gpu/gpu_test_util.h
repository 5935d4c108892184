// SPDX-License-Identifier: Apache-2.0
#pragma once

// Shared helpers of the GPU test suite: a fixture that skips without a device, reproducible
// random data, poisoned device images, a small double-precision reference for sampled rows and
// an element-wise comparison that treats NaN as a failure.

#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "filters/filter_spec.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/executor.h"
#include "tessera/gpu/pixel_format.h"
#include "tessera/gpu/resources.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace tessera::gpu::test {

// ---- seeds ---------------------------------------------------------------------------------

/// One seed per process: TESSERA_TEST_SEED when set (to replay a failure), else random.
inline std::uint64_t baseSeed()
{
    static const std::uint64_t seed = [] {
        if (const char* env = std::getenv("TESSERA_TEST_SEED"); env != nullptr && *env != '\0') {
            return static_cast<std::uint64_t>(std::strtoull(env, nullptr, 0));
        }
        std::random_device rd;
        return (static_cast<std::uint64_t>(rd()) << 32) ^ static_cast<std::uint64_t>(rd());
    }();
    return seed;
}

/// TESSERA_TEST_REDUCED=1 shrinks the images of the kernel grids for runs under a slow checking
/// tool (compute-sanitizer's racecheck is about thirty times slower than a plain run). Every
/// kernel shape, format, border and variant still runs: shared-memory hazards live inside one
/// block's work, so a few blocks per launch find them as well as a thousand.
inline bool reducedSizes()
{
    static const bool reduced = [] {
        const char* env = std::getenv("TESSERA_TEST_REDUCED");
        return env != nullptr && *env != '\0' && *env != '0';
    }();
    return reduced;
}

/// `extent` capped at `cap` under TESSERA_TEST_REDUCED, unchanged otherwise. The caps used are
/// odd and not multiples of any block size, so partial blocks stay covered.
inline int reducedExtent(int extent, int cap)
{
    return reducedSizes() ? std::min(extent, cap) : extent;
}

inline std::string seedNote(std::uint64_t seed)
{
    return "seed " + std::to_string(seed) + " (replay with TESSERA_TEST_SEED=" + std::to_string(seed) + ")";
}

/// An independent generator per (seed, test salt, case index), so one case can be replayed
/// without running the ones before it.
inline std::mt19937_64 caseRng(std::uint64_t seed, std::uint64_t salt, std::uint64_t index)
{
    std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                      static_cast<std::uint32_t>(salt), static_cast<std::uint32_t>(index)};
    return std::mt19937_64(seq);
}

// ---- fixture -------------------------------------------------------------------------------

/// Every GPU test derives from this: it skips (with the reason) when no CUDA device is found
/// and otherwise provides the first device and a stream on it.
class GpuTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        const DeviceSnapshot snap = enumerateDevices();
        if (!snap.hasGpu()) {
            GTEST_SKIP() << "no CUDA device: " << snap.reason;
        }
        devices_ = snap.devices;
        device_ = devices_.front();
        stream_.emplace(device_.id);
    }

    const Stream& stream() const { return *stream_; }

    std::vector<DeviceInfo> devices_;
    DeviceInfo device_;
    std::optional<Stream> stream_;
    std::uint64_t seed_ = baseSeed();
};

// ---- formats and random data ---------------------------------------------------------------

inline constexpr PixelDepth kDepths[] = {PixelDepth::U8, PixelDepth::U16, PixelDepth::F32};
inline constexpr int kChannels[] = {1, 3, 4};
inline constexpr filters::Border kBorders[] = {filters::Border::Reflect101, filters::Border::Reflect,
                                               filters::Border::Replicate, filters::Border::Constant,
                                               filters::Border::Wrap};

inline int cvDepthOf(PixelDepth d)
{
    return d == PixelDepth::U8 ? CV_8U : d == PixelDepth::U16 ? CV_16U : CV_32F;
}

/// u8 and u16 over their full range, f32 in [-1, 1).
inline cv::Mat randomImage(int rows, int cols, PixelFormat format, std::mt19937_64& rng)
{
    cv::Mat m(rows, cols, toCvType(format));
    cv::RNG cvRng(rng());
    switch (format.depth) {
    case PixelDepth::U8: cvRng.fill(m, cv::RNG::UNIFORM, 0, 256); break;
    case PixelDepth::U16: cvRng.fill(m, cv::RNG::UNIFORM, 0, 65536); break;
    case PixelDepth::F32: cvRng.fill(m, cv::RNG::UNIFORM, -1.0, 1.0); break;
    }
    return m;
}

inline double sumAbs(const std::vector<double>& v)
{
    double s = 0.0;
    for (double w : v) {
        s += std::abs(w);
    }
    return s;
}

/// Random taps, mostly positive so that integer outputs do not clip to 0 everywhere.
inline std::vector<double> randomTaps(std::size_t n, std::mt19937_64& rng)
{
    std::uniform_real_distribution<double> dist(-0.3, 1.0);
    std::vector<double> taps(n);
    for (double& t : taps) {
        t = dist(rng);
    }
    if (n == 1) {
        taps[0] = std::uniform_real_distribution<double>(0.5, 1.5)(rng);
    }
    const double s = sumAbs(taps);
    for (double& t : taps) {
        t /= s > 0.0 ? s : 1.0;
    }
    return taps;
}

/// A dense random kernel with sum |w| = 1 (rank 2 unless one side is 1).
inline filters::FilterSpec randomDenseSpec(int kw, int kh, std::mt19937_64& rng)
{
    filters::Kernel2D k{kw, kh, randomTaps(static_cast<std::size_t>(kw) * static_cast<std::size_t>(kh), rng)};
    return filters::makeCustom(k);
}

/// A random rank-1 kernel (outer product of two random tap vectors), factors set exactly.
inline filters::FilterSpec randomRank1Spec(int kw, int kh, std::mt19937_64& rng)
{
    filters::SeparablePair pair{randomTaps(static_cast<std::size_t>(kw), rng),
                                randomTaps(static_cast<std::size_t>(kh), rng)};
    filters::Kernel2D k{kw, kh, {}};
    k.weights.reserve(static_cast<std::size_t>(kw) * static_cast<std::size_t>(kh));
    for (double c : pair.column) {
        for (double r : pair.row) {
            k.weights.push_back(c * r);
        }
    }
    filters::FilterSpec spec = filters::makeCustom(k);
    spec.separable = std::move(pair);
    return spec;
}

/// A border value that the input depth represents exactly and that differs from 0.
inline double borderValueFor(PixelDepth d, std::size_t variant)
{
    switch (d) {
    case PixelDepth::U8: return variant % 2 == 0 ? 200.0 : 37.0;
    case PixelDepth::U16: return variant % 2 == 0 ? 40000.0 : 1234.0;
    case PixelDepth::F32: return variant % 2 == 0 ? 0.75 : -0.5;
    }
    return 1.0;
}

inline std::string describeSpec(const filters::FilterSpec& s)
{
    std::ostringstream os;
    const auto a = s.effectiveAnchor();
    os << s.id << " " << s.kernel.width << "x" << s.kernel.height << " anchor (" << a.x << "," << a.y << ")"
       << (s.anchor ? " explicit" : "") << " border " << filters::toString(s.border);
    if (s.border == filters::Border::Constant) {
        os << "=" << s.borderValue;
    }
    os << " scale " << s.scale << " offset " << s.offset << " depth " << filters::toString(s.depth)
       << (s.separable ? " rank1" : "");
    return os.str();
}

// ---- device images with guards -------------------------------------------------------------

/// Bytes after the last row that must stay untouched.
inline constexpr std::size_t kGuardBytes = 4096;
/// Destination fill: 0xFFFFFFFF is a NaN in f32 and the maximum in u8/u16.
inline constexpr int kPoison = 0xFF;

/// A device image in a buffer with room for guards: row padding (when padded) and a tail.
struct DeviceMatrix {
    RawDeviceBuffer buffer;
    DeviceImage image;
    std::size_t rowBytes = 0;
};

/// Pitch with at least 256 bytes of padding after each row, or the tight pitch.
inline DeviceMatrix allocateImage(int width, int height, PixelFormat format, DeviceId device, bool padded)
{
    DeviceMatrix m;
    m.rowBytes = static_cast<std::size_t>(width) * format.bytesPerPixel();
    const std::size_t pitch = padded ? (m.rowBytes + 255) / 256 * 256 + 256 : m.rowBytes;
    m.buffer = RawDeviceBuffer(pitch * static_cast<std::size_t>(height) + kGuardBytes, device);
    m.image = DeviceImage{m.buffer.data(), pitch, width, height, format};
    return m;
}

/// Copies a host image into the device image (the rest of the buffer keeps its fill).
inline void upload(const DeviceMatrix& m, const cv::Mat& host, const Stream& stream)
{
    copy2DAsync(m.image.data, m.image.pitch, host.data, host.step, m.rowBytes, static_cast<std::size_t>(host.rows),
                stream);
}

/// The whole buffer, padding and tail included; waits for the stream.
inline std::vector<std::uint8_t> downloadRaw(const DeviceMatrix& m, const Stream& stream)
{
    std::vector<std::uint8_t> raw(m.buffer.bytes());
    copy2DAsync(raw.data(), raw.size(), m.buffer.data(), raw.size(), raw.size(), 1, stream);
    stream.synchronize();
    return raw;
}

inline cv::Mat imageFromRaw(std::vector<std::uint8_t>& raw, const DeviceMatrix& m)
{
    return cv::Mat(m.image.height, m.image.width, toCvType(m.image.format), raw.data(), m.image.pitch).clone();
}

/// "" when every padding and tail byte still holds `fill`, else where the first damage is.
inline std::string guardDamage(const std::vector<std::uint8_t>& raw, const DeviceMatrix& m, int fill)
{
    const auto expected = static_cast<std::uint8_t>(fill);
    const std::size_t imageBytes = m.image.pitch * static_cast<std::size_t>(m.image.height);
    for (int y = 0; y < m.image.height; ++y) {
        const std::size_t row = static_cast<std::size_t>(y) * m.image.pitch;
        for (std::size_t b = m.rowBytes; b < m.image.pitch; ++b) {
            if (raw[row + b] != expected) {
                return "row padding written: row " + std::to_string(y) + " byte " + std::to_string(b);
            }
        }
    }
    for (std::size_t b = imageBytes; b < raw.size(); ++b) {
        if (raw[b] != expected) {
            return "written past the last row: byte " + std::to_string(b - imageBytes) + " after the image";
        }
    }
    return {};
}

struct GpuOutput {
    cv::Mat image;
    std::string damage;  ///< guard or input damage; empty when none
};

/// Runs `plan` on `src` through the low-level API: input padding filled with 0xFF, destination
/// and its guards poisoned, workspace filled with `workspaceFill`; checks afterwards that the
/// guards and the input are intact. Synchronises `stream`.
inline GpuOutput runPoisoned(const Plan& plan, const cv::Mat& src, const Stream& stream, bool padded, int workspaceFill)
{
    DeviceMatrix in = allocateImage(plan.width, plan.height, plan.input, plan.device, padded);
    in.buffer.fillAsync(0xFF, stream);
    upload(in, src, stream);
    DeviceMatrix out = allocateImage(plan.width, plan.height, plan.output, plan.device, padded);
    out.buffer.fillAsync(kPoison, stream);
    RawDeviceBuffer workspace(plan.workspaceBytes, plan.device);
    workspace.fillAsync(workspaceFill, stream);
    run(plan, in.image, out.image, workspace.data(), stream);

    GpuOutput result;
    auto raw = downloadRaw(out, stream);
    result.image = imageFromRaw(raw, out);
    result.damage = guardDamage(raw, out, kPoison);
    auto rawIn = downloadRaw(in, stream);
    if (const std::string d = guardDamage(rawIn, in, 0xFF); !d.empty()) {
        result.damage += " input buffer: " + d;
    }
    const cv::Mat inAfter = imageFromRaw(rawIn, in);
    const cv::Mat expected = src.isContinuous() ? src : src.clone();
    if (std::memcmp(inAfter.data, expected.data, expected.total() * expected.elemSize()) != 0) {
        result.damage += " input image modified by run";
    }
    return result;
}

// ---- reference and comparison --------------------------------------------------------------

inline double readElement(const cv::Mat& m, int y, int i)
{
    switch (m.depth()) {
    case CV_8U: return m.ptr<std::uint8_t>(y)[i];
    case CV_16U: return m.ptr<std::uint16_t>(y)[i];
    case CV_32F: return m.ptr<float>(y)[i];
    default: return std::numeric_limits<double>::quiet_NaN();
    }
}

inline void writeSaturated(cv::Mat& m, int y, int i, double v)
{
    switch (m.depth()) {
    case CV_8U: m.ptr<std::uint8_t>(y)[i] = cv::saturate_cast<std::uint8_t>(v); break;
    case CV_16U: m.ptr<std::uint16_t>(y)[i] = cv::saturate_cast<std::uint16_t>(v); break;
    case CV_32F: m.ptr<float>(y)[i] = static_cast<float>(v); break;
    default: break;
    }
}

/// The filter evaluated in double for the listed rows only, straight from the definition
/// (correlation around the anchor, borders by cv::borderInterpolate). Row r of the result is
/// image row rows[r]. Independent of OpenCV's filter engine, cheap enough for a few rows of a
/// large image with a large kernel.
inline cv::Mat referenceRows(const cv::Mat& src, const filters::FilterSpec& spec, const std::vector<int>& rows)
{
    const int outDepth = filters::resolveOutputDepth(spec.depth, src.depth());
    const int cn = src.channels();
    cv::Mat out(static_cast<int>(rows.size()), src.cols, CV_MAKETYPE(outDepth, cn));
    const auto& k = spec.kernel;
    const auto anchor = spec.effectiveAnchor();
    const int border = filters::toCvBorder(spec.border);
    // Source column for each (output column, tap column); -1 = the constant border.
    std::vector<int> xs(static_cast<std::size_t>(src.cols) * static_cast<std::size_t>(k.width));
    for (int x = 0; x < src.cols; ++x) {
        for (int kx = 0; kx < k.width; ++kx) {
            xs[static_cast<std::size_t>(x) * k.width + kx] = cv::borderInterpolate(x + kx - anchor.x, src.cols, border);
        }
    }
    cv::parallel_for_(cv::Range(0, static_cast<int>(rows.size())), [&](const cv::Range& range) {
        std::vector<double> acc(static_cast<std::size_t>(cn));
        for (int r = range.start; r < range.end; ++r) {
            const int y = rows[static_cast<std::size_t>(r)];
            for (int x = 0; x < src.cols; ++x) {
                std::fill(acc.begin(), acc.end(), 0.0);
                for (int ky = 0; ky < k.height; ++ky) {
                    const int sy = cv::borderInterpolate(y + ky - anchor.y, src.rows, border);
                    for (int kx = 0; kx < k.width; ++kx) {
                        const double w = k.at(kx, ky);
                        const int sx = xs[static_cast<std::size_t>(x) * k.width + kx];
                        for (int c = 0; c < cn; ++c) {
                            const double v = (sy < 0 || sx < 0) ? spec.borderValue : readElement(src, sy, sx * cn + c);
                            acc[static_cast<std::size_t>(c)] += w * v;
                        }
                    }
                }
                for (int c = 0; c < cn; ++c) {
                    writeSaturated(out, r, x * cn + c, spec.scale * acc[static_cast<std::size_t>(c)] + spec.offset);
                }
            }
        }
    });
    return out;
}

/// Largest |value| in the image (all channels).
inline double maxAbs(const cv::Mat& m)
{
    double lo = 0.0;
    double hi = 0.0;
    cv::minMaxLoc(m.reshape(1), &lo, &hi);
    return std::max(std::abs(lo), std::abs(hi));
}

/// Allowed max |gpu - reference| per element.
///  - u8 / u16 outputs: 1 (one rounding step; both sides compute in single precision).
///    u16 through the FFT method: 2. The GPU's f32 spectra and, for large kernels, OpenCV's own
///    f32 DFT each carry an error of some 1e-6 of the full 65535 range, so the two unrounded
///    values can differ by more than 1 LSB before each side rounds.
///  - f32 outputs, relative to S = |scale| * sum|k| * max|input or border value| + |offset|:
///    Direct and Separable 1e-5 * max(1, sqrt(taps / 4096)): float accumulation over all taps
///    (the error grows like the square root of the number of taps). FFT 2e-4: the transform's
///    rounding error spreads over every output regardless of the kernel.
inline double tolerance(Method method, const filters::FilterSpec& spec, const cv::Mat& src, int outCvDepth)
{
    if (outCvDepth == CV_8U) {
        return 1.0;
    }
    if (outCvDepth == CV_16U) {
        return method == Method::Fft ? 2.0 : 1.0;
    }
    double inputMax = maxAbs(src);
    if (spec.border == filters::Border::Constant) {
        inputMax = std::max(inputMax, std::abs(spec.borderValue));
    }
    const double s = std::abs(spec.scale) * sumAbs(spec.kernel.weights) * inputMax + std::abs(spec.offset);
    const double taps = static_cast<double>(spec.kernel.width) * spec.kernel.height;
    const double rel = method == Method::Fft ? 2e-4 : 1e-5 * std::max(1.0, std::sqrt(taps / 4096.0));
    return std::max(rel * s, 1e-12);
}

struct Diff {
    double max = 0.0;      ///< largest |gpu - ref|; infinity for a NaN or infinity on the GPU side
    std::size_t over = 0;  ///< elements above the tolerance
    int x = -1, y = -1, c = -1;
    double gpu = 0.0, ref = 0.0;

    std::string where() const
    {
        std::ostringstream os;
        os << "max |diff| " << max << " at (x " << x << ", y " << y << ", ch " << c << "): gpu " << gpu << ", ref "
           << ref << "; " << over << " elements over tolerance";
        return os.str();
    }
};

/// Compares gpu (full image) with ref: either the full image, or the rows listed in `rows`.
inline Diff compareImages(const cv::Mat& gpu, const cv::Mat& ref, double tol, const std::vector<int>* rows = nullptr)
{
    Diff d;
    const int cn = gpu.channels();
    const int n = ref.rows;
    for (int r = 0; r < n; ++r) {
        const int y = rows != nullptr ? (*rows)[static_cast<std::size_t>(r)] : r;
        for (int i = 0; i < gpu.cols * cn; ++i) {
            const double g = readElement(gpu, y, i);
            const double e = readElement(ref, r, i);
            const double diff = std::isfinite(g) ? std::abs(g - e) : std::numeric_limits<double>::infinity();
            if (diff > tol) {
                ++d.over;
            }
            if (diff > d.max || d.x < 0) {
                d.max = diff;
                d.x = i / cn;
                d.y = y;
                d.c = i % cn;
                d.gpu = g;
                d.ref = e;
            }
        }
    }
    return d;
}

/// Index of the first non-finite element ("" when none); for f32 outputs where only some rows
/// are compared, so that an unwritten (NaN-poisoned) pixel anywhere still fails.
inline std::string firstNonFinite(const cv::Mat& m)
{
    if (m.depth() != CV_32F) {
        return {};
    }
    const int cn = m.channels();
    for (int y = 0; y < m.rows; ++y) {
        const float* p = m.ptr<float>(y);
        for (int i = 0; i < m.cols * cn; ++i) {
            if (!std::isfinite(p[i])) {
                return "non-finite output at (x " + std::to_string(i / cn) + ", y " + std::to_string(y) + ")";
            }
        }
    }
    return {};
}

/// Rows for a sampled comparison: both edges (where every border rule acts), the middle and a
/// few random ones.
inline std::vector<int> sampleRows(int height, int randomCount, std::mt19937_64& rng)
{
    std::vector<int> rows = {0, 1, 2, height / 2, height - 3, height - 2, height - 1};
    std::uniform_int_distribution<int> dist(0, height - 1);
    for (int i = 0; i < randomCount; ++i) {
        rows.push_back(dist(rng));
    }
    for (int& r : rows) {
        r = std::clamp(r, 0, height - 1);
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

}  // namespace tessera::gpu::test
