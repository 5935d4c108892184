// SPDX-License-Identifier: Apache-2.0
#pragma once

// OpenCV stays out of filters/' public headers (ui/ sees them): the image is declared only.
namespace cv {
class Mat;
}  // namespace cv

#include <cstdint>

namespace tessera::filters {

// The float semantics rule. A direct sum confines a NaN, an infinity or a huge value to the
// outputs whose window holds it; a transform (OpenCV's DFT, cuFFT, the row-spectrum FFT)
// spreads every input over the whole transform, with an error that scales with the largest
// magnitude in it. So the transform methods are only chosen on their own when the image is
// finite and its range keeps their global bound meaningful for typical outputs.

/// What one pass over an image tells about its values: whether any is NaN or infinite, and
/// binary exponents of magnitudes (frexp's, so 2^(e-1) <= |x| < 2^e; zero and values below
/// 2^-126 count as kTinyExponent) of the largest finite value and of the median of all values.
struct FloatRange {
    static constexpr int kTinyExponent = -126;
    bool nonFinite = false;
    int maxExponent = kTinyExponent;
    int medianExponent = kTinyExponent;
    std::uint64_t values = 0;  ///< samples counted (pixels x channels)
};

/// Scans every sample of a u8, u16 or f32 image (any channel count; empty gives values = 0).
/// Integer images are always finite. Multi-threaded with OpenCV's pool; never throws but for
/// std::invalid_argument on another depth.
FloatRange scanFloatRange(const cv::Mat& image);

/// The widest ratio, as a power of two, between the largest and the median magnitude for which
/// a transform method is still chosen automatically: its error bound, about 2e-4 of
/// sum|k| x max|x| over the image, then stays within about 10 % of a typical output.
inline constexpr int kTransformRangeLog2 = 9;

/// True when a transform's global error bound means something for this image's typical
/// outputs: no NaN or infinity, and max |x| within 2^kTransformRangeLog2 of the median |x|
/// (counted in binary exponents). An all-zero image is safe.
bool transformSafe(const FloatRange& range);

}  // namespace tessera::filters
