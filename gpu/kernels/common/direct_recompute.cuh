// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the float rule for the transform methods (filters/float_range.h). A
// transform spreads a NaN or an infinity over everything it covers. The FFT kernels check each
// output as they store it, and where one is not finite they compute the outputs in their reach
// again as direct sums from the source, so NaN and infinity end where a direct method puts
// them. The check rides on the store; a clean image pays a few compares per output.

#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "tessera/gpu/pixel_format.h"

#include <cstdint>

namespace tessera::gpu::detail {

/// What a direct recompute needs: the source's geometry and border as the kernels take them,
/// with p.globalTaps the spec's taps (kernel x scale, row-major) on the device and p.offset the
/// spec's own offset (p.dst unused), and the source's sample type.
struct DirectTaps {
    ConvParams p;
    int depth = 2;  ///< 0 u8, 1 u16, 2 f32
};

template <typename T>
__device__ __forceinline__ float directSumOf(const ConvParams& d, int channels, int x, int y, int c)
{
    float acc = 0.0f;
    for (int ky = 0; ky < d.kh; ++ky) {
        const int sy = mapBorder(y + ky - d.anchorY, d.height, d.border);
        const T* row = sy >= 0 ? rowPtr<T>(d.src, d.srcPitch, sy) : nullptr;
        for (int kx = 0; kx < d.kw; ++kx) {
            const int sx = mapBorder(x + kx - d.anchorX, d.width, d.border);
            const float v = row != nullptr && sx >= 0
                                ? static_cast<float>(row[static_cast<std::size_t>(sx) * channels + c])
                                : d.borderValue;
            acc = fmaf(d.globalTaps[ky * d.kw + kx], v, acc);
        }
    }
    return acc;
}

/// Channel c (of `channels`) of the correlation at output (x, y) plus the spec's offset, summed
/// in fp32 over the window through the border rule, rows then columns, as the direct kernels
/// do.
__device__ __forceinline__ float directOutput(const DirectTaps& d, int channels, int x, int y, int c)
{
    switch (d.depth) {
    case 0: return directSumOf<std::uint8_t>(d.p, channels, x, y, c) + d.p.offset;
    case 1: return directSumOf<std::uint16_t>(d.p, channels, x, y, c) + d.p.offset;
    default: return directSumOf<float>(d.p, channels, x, y, c) + d.p.offset;
    }
}

/// The DirectTaps of a plan's spec over src; `taps` on src's device.
inline DirectTaps makeDirectTaps(const filters::FilterSpec& spec, const DeviceImage& src, const float* taps)
{
    DirectTaps d;
    d.p = makeConvParams(spec, src, src);
    d.p.dst = nullptr;
    d.p.dstPitch = 0;
    d.p.globalTaps = taps;
    d.depth = src.format.depth == PixelDepth::U8 ? 0 : src.format.depth == PixelDepth::U16 ? 1 : 2;
    return d;
}

/// Stores output (x, y) of a one-channel image as a direct sum; the caller checks the bounds.
/// Out of line: the cold path of a store whose outputs were not all finite.
template <typename Tout>
__device__ __noinline__ void storeDirectPixel(const DirectTaps& d, void* dst, std::size_t dstPitch, int x, int y)
{
    rowPtr<Tout>(dst, dstPitch, y)[x] = Saturate<Tout>::from(directOutput(d, 1, x, y, 0));
}

/// Stores channel c of the outputs in [x0, x0 + w) x [y0, y0 + h) (clipped to the image) as
/// direct sums, the block's threads taking them in turn. Out of line: the cold path of a
/// transform's store, so that the hot path keeps its registers.
template <typename Tout, int C>
__device__ __noinline__ void storeDirectTile(const DirectTaps& d, void* dst, std::size_t dstPitch, int x0, int y0,
                                             int w, int h, int c)
{
    for (int i = threadIdx.x; i < w * h; i += blockDim.x) {
        const int x = x0 + i % w;
        const int y = y0 + i / w;
        if (x < d.p.width && y < d.p.height) {
            rowPtr<Tout>(dst, dstPitch, y)[static_cast<std::size_t>(x) * C + c] =
                Saturate<Tout>::from(directOutput(d, C, x, y, c));
        }
    }
}

/// Computes again, as direct sums, the outputs of a one-channel f32 tile [x0, x0 + w) x
/// [y0, y0 + h) (clipped to the image) that are not finite, the block's threads taking them in
/// turn; the block's own stores to the tile must be behind a barrier. Out of line: the cold
/// end of a kernel whose outputs were not all finite.
static __device__ __noinline__ void fixNonFiniteTile(const DirectTaps& d, void* dst, std::size_t dstPitch, int x0,
                                                     int y0, int w, int h)
{
    for (int i = threadIdx.x; i < w * h; i += blockDim.x) {
        const int x = x0 + i % w;
        const int y = y0 + i / w;
        if (x < d.p.width && y < d.p.height) {
            float* out = rowPtr<float>(dst, dstPitch, y) + x;
            if (!isfinite(*out)) {
                *out = directOutput(d, 1, x, y, 0);
            }
        }
    }
}

}  // namespace tessera::gpu::detail
