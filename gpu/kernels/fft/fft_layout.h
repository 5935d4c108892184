// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: sizes and memory layout of the FFT method. Pure host code, no CUDA types, so
// it can be checked without a device.

#include "tessera/gpu/pixel_format.h"

#include <cstddef>
#include <cstdint>

namespace tessera::gpu::detail {

/// What both FFT forms subtract from integer inputs before transforming them (the middle of the
/// range; 0 for float, whose range is unknown), adding centre x sum of the taps back after: for
/// smoothing kernels that cuts the transforms' error by one to two orders of magnitude.
inline float fftCentre(PixelDepth depth)
{
    switch (depth) {
    case PixelDepth::U8: return 128.0f;
    case PixelDepth::U16: return 32768.0f;
    case PixelDepth::F32: return 0.0f;
    }
    return 0.0f;
}

/// Transform length for a dimension that must hold `need` samples: a product of 2, 3, 5 and 7
/// (the radices cuFFT handles without Bluestein), even when `even` is set (R2C along that
/// dimension is cheapest for even lengths), at least 8. On an H200, 2D R2C + C2R pairs of
/// mixed-radix sizes between 8232 and 10240 all cost about the same per element, while powers of
/// two cost about half as much (0.86 ms for 8192^2 against 1.5 .. 2.1 ms for 8232^2 .. 9216^2):
/// so the shortest such length wins, unless a power of two is less than 1 / 0.7 times longer
/// (0.7 being about the square root of the 2D gain, since one dimension takes half the work).
inline int fftLength(int need, bool even)
{
    const std::int64_t target = need < 8 ? 8 : need;
    std::int64_t best = 0;
    double bestCost = 0.0;
    // A power of two lies in [target, 2 * target], so the search always finds a length.
    for (std::int64_t p2 = even ? 2 : 1; p2 <= 2 * target; p2 *= 2) {
        for (std::int64_t p3 = p2; p3 <= 2 * target; p3 *= 3) {
            for (std::int64_t p5 = p3; p5 <= 2 * target; p5 *= 5) {
                for (std::int64_t p7 = p5; p7 <= 2 * target; p7 *= 7) {
                    if (p7 < target) {
                        continue;
                    }
                    const double cost = static_cast<double>(p7) * (p7 == p2 ? 0.7 : 1.0);
                    if (best == 0 || cost < bestCost) {
                        best = p7;
                        bestCost = cost;
                    }
                }
            }
        }
    }
    return static_cast<int>(best);
}

/// Where everything lives for one plan. The image of W x H pixels is extended by the kernel's
/// reach (kw - 1 columns, kh - 1 rows, placed so that the anchor lands on the pixel) and laid
/// out in a padW x padH real frame; circular correlation on that frame equals linear
/// correlation on the W x H window at its origin because no output pixel reaches past column
/// W + kw - 2 or row H + kh - 2. Channels are planar, one dense frame each, transformed by one
/// batched out-of-place R2C into half spectra (padW / 2 + 1 complex values per row) and back by
/// one C2R into the frames (out of place measured 15-20 % faster than in place on an H200).
///
/// FFT workspace: [frames: C x padH x padW floats][spectra: C x padH x (padW/2+1) x 8 bytes]
/// [cuFFT work area], each part starting on a 256-byte boundary.
struct FftGeometry {
    int width = 0;
    int height = 0;
    int channels = 1;
    int kw = 1;
    int kh = 1;
    int anchorX = 0;
    int anchorY = 0;
    int padW = 0;  ///< transform width (fastest dimension)
    int padH = 0;  ///< transform height

    /// Columns and rows of the frame that hold border-extended image data; the rest is zero.
    int extentW() const { return width + kw - 1; }
    int extentH() const { return height + kh - 1; }
    /// Complex values per row of the half spectrum.
    std::int64_t spectrumCols() const { return padW / 2 + 1; }
    /// Floats per channel frame.
    std::int64_t planeFloats() const { return static_cast<std::int64_t>(padH) * padW; }
    /// Complex values per channel spectrum.
    std::int64_t planeComplex() const { return static_cast<std::int64_t>(padH) * spectrumCols(); }
    /// Bytes of all channels' frames.
    std::size_t framesBytes() const
    {
        return static_cast<std::size_t>(planeFloats()) * static_cast<std::size_t>(channels) * sizeof(float);
    }
    /// Bytes of one channel's half spectrum (8 bytes per complex value).
    std::size_t spectrumBytes() const { return static_cast<std::size_t>(planeComplex()) * 2 * sizeof(float); }
    /// Where the spectra start in the FFT workspace.
    std::size_t spectraOffset() const { return alignUp(framesBytes()); }
    /// Where the cuFFT work area starts in the FFT workspace.
    std::size_t workAreaOffset() const
    {
        return alignUp(spectraOffset() + spectrumBytes() * static_cast<std::size_t>(channels));
    }

    static std::size_t alignUp(std::size_t n) { return (n + 255) / 256 * 256; }
};

inline FftGeometry makeFftGeometry(int width, int height, int channels, int kw, int kh, int anchorX, int anchorY)
{
    FftGeometry g;
    g.width = width;
    g.height = height;
    g.channels = channels;
    g.kw = kw;
    g.kh = kh;
    g.anchorX = anchorX;
    g.anchorY = anchorY;
    g.padW = fftLength(g.extentW(), true);
    g.padH = fftLength(g.extentH(), false);
    return g;
}

}  // namespace tessera::gpu::detail
