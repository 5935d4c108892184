// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/direct/direct_rgba8.h"
#include "gpu/kernels/direct/direct_rgba8_bound.h"
#include "gpu/kernels/direct/direct_rgba8_walk.cuh"
#include "gpu/kernels/common/launch_common.cuh"

#include <cuda_fp16.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

// The byte-window RGBA8 kernel's fp16 form, for 3 x 3 kernels whose fp16 error bound allows it
// (direct_rgba8_bound.h: mild taps such as a box or a unit-sum blur): two channels per
// instruction. One byte permute writes two bytes as the fp16 subnormals b x 2^-24, exactly, and
// the taps come scaled by 2^k to match, so the sums are the results times 2^(k - 24); 18 half2
// FMAs per pixel where the float forms take 36. The stores scale back and add 1024 in one FMA
// (fp16 spacing is 1 from 1024 to 2048, so that rounds), clamp to 1024 .. 1279 and keep the low
// bytes, with no float-to-integer conversion.

namespace tessera::gpu::detail {

namespace {

using namespace rgba8_walk;

/// The fp16 pair a word holds.
__device__ __forceinline__ __half2 asHalf2(unsigned bits)
{
    __half2 h;
    memcpy(&h, &bits, sizeof h);
    return h;
}

__device__ __forceinline__ unsigned bitsOf(__half2 h)
{
    unsigned bits;
    memcpy(&bits, &h, sizeof bits);
    return bits;
}

/// Channels 0 and 2 of a pixel (kRgba8HalfEvenSelect) or 1 and 3 (kRgba8HalfOddSelect) as an
/// fp16 pair, exactly, in one instruction: the permute puts each byte under a zero byte, the
/// fp16 subnormal b x 2^-24.
template <unsigned SELECT>
__device__ __forceinline__ __half2 halfPair(unsigned px)
{
    unsigned bits;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(bits) : "r"(px), "r"(0u), "n"(SELECT));
    return asHalf2(bits);
}

/// An fp16 pair of scaled sums as two rounded, saturated bytes in bytes 0 and 2 of the word:
/// sums x 2^(24 - k) + 1024 in one FMA (exact factor, one rounding, to an integer: the fp16
/// spacing from 1024 to 2048 is 1), the clamp to 1024 .. 1279 saturates, and the low byte of each
/// half is the result.
__device__ __forceinline__ unsigned halfSumsToBytes(__half2 sums, __half2 unscale, __half2 bias, __half2 top)
{
    return bitsOf(__hmin2(__hmax2(__hfma2(sums, unscale, bias), bias), top));
}

/// The fp16 form's taps: each scaled by 2^k (rgba8HalfTapExponent) as a pair (w, w), for both
/// channel pairs alike.
template <int K>
struct Rgba8HalfTaps {
    __half2 w[K * K];
};

/// One step of the fp16 form (3 x 3 only): as computeStep, with channels 0 and 2 and channels 1
/// and 3 of each pixel summed in fp16 pairs; the sums start at the scaled offset (`start`, an
/// fp16 pair) and `unscale` is 2^(24 - k).
template <int K>
__device__ __forceinline__ void computeStepHalf(const ConvParams& p, const unsigned* raw, const Rgba8HalfTaps<K>& taps,
                                                int x0, int y, int yEnd, unsigned startBits, unsigned unscaleBits,
                                                unsigned biasBits, unsigned topBits)
{
    const __half2 start = asHalf2(startBits);
    const __half2 unscale = asHalf2(unscaleBits);
    const __half2 bias = asHalf2(biasBits);
    const __half2 top = asHalf2(topBits);
    constexpr int kHalf = K / 2;
    const int cx = threadIdx.x * kOX;
    const int ry = threadIdx.y * kOY;
    __half2 acc[kOY][kOX][2];
#pragma unroll
    for (int o = 0; o < kOY; ++o) {
#pragma unroll
        for (int j = 0; j < kOX; ++j) {
            acc[o][j][0] = start;
            acc[o][j][1] = start;
        }
    }
#pragma unroll
    for (int r = 0; r < kOY + K - 1; ++r) {
        unsigned px[12];
        windowRow(raw + (ry + r) * kRawCols + cx, px);
        __half2 lo[kOX + K - 1];
        __half2 hi[kOX + K - 1];
#pragma unroll
        for (int i = 0; i < kOX + K - 1; ++i) {
            lo[i] = halfPair<kRgba8HalfEvenSelect>(px[kLead - kHalf + i]);
            hi[i] = halfPair<kRgba8HalfOddSelect>(px[kLead - kHalf + i]);
        }
        forEachRowProduct<K>(r, [&](int o, int j, int t, int i) {
            acc[o][j][0] = __hfma2(taps.w[t], lo[i], acc[o][j][0]);
            acc[o][j][1] = __hfma2(taps.w[t], hi[i], acc[o][j][1]);
        });
    }
    storeTile(p, x0 + cx, y + ry, yEnd, [&](int o, int j) {
        const unsigned even = halfSumsToBytes(acc[o][j][0], unscale, bias, top);
        const unsigned odd = halfSumsToBytes(acc[o][j][1], unscale, bias, top);
        unsigned pixel;
        asm("prmt.b32 %0, %1, %2, %3;" : "=r"(pixel) : "r"(even), "r"(odd), "n"(kRgba8HalfPackSelect));
        return pixel;
    });
}

/// The fp16 form. `start` is the scaled offset as an fp16 pair, `unscale` (2^(24 - k), twice);
/// `bias` (1024, 1024) and `top` (1279, 1279) come in as arguments so that they sit in
/// registers, not in every instruction.
template <int K>
__global__ void __launch_bounds__(kThreads, blocksPerSm(K))
    directRgba8HalfKernel(const ConvParams p, const __grid_constant__ Rgba8HalfTaps<K> taps, int segmentRows,
                          unsigned borderPixel, unsigned start, unsigned unscale, unsigned bias, unsigned top)
{
    walkSegment<K>(p, segmentRows, borderPixel, [&](const unsigned* raw, int x0, int y, int yEnd) {
        computeStepHalf<K>(p, raw, taps, x0, y, yEnd, start, unscale, bias, top);
    });
}

/// fp16 bits of v in both halves of a word.
unsigned halfPairBits(double v)
{
    const unsigned h = halfBits(roundToHalf(v));
    return h | (h << 16);
}

}  // namespace

Support canDirectRgba8WalkHalf(const ShapeQuery& q)
{
    if (Support s = canDirectRgba8Walk(q); !s) {
        return s;
    }
    if (q.kw != 3) {
        return Support::no("the walk's fp16 form is compiled for 3 x 3 only");
    }
    // The taps as the plan will hold them (weights times scale, in float).
    std::vector<float> taps;
    taps.reserve(q.spec->kernel.weights.size());
    for (double w : q.spec->kernel.weights) {
        taps.push_back(static_cast<float>(w * q.spec->scale));
    }
    const float offset = static_cast<float>(q.spec->offset);
    if (!rgba8WalkTakesHalfSums(q.kw, taps, offset)) {
        char why[160];
        std::snprintf(why, sizeof why,
                      "the walk's fp16 form needs fp16 sums that round within %.2g of an output step, these "
                      "round within %.2g",
                      kRgba8HalfErrorLimit, rgba8HalfErrorBound(taps, offset));
        return Support::no(why);
    }
    return Support::yes();
}

void runDirectRgba8WalkHalf(const LaunchArgs& a)
{
    launchDirectRgba8Half(a.plan, directParams(a), a.stream);
}

void launchDirectRgba8Half(const Plan& plan, const ConvParams& p, StreamView stream)
{
    const int k = rgba8HalfTapExponent(plan.data->taps);
    const double tapScale = std::ldexp(1.0, k);
    Rgba8HalfTaps<3> taps{};
    for (int i = 0; i < 9; ++i) {
        __half2_raw raw;
        raw.x = halfBits(roundToHalf(plan.data->taps[static_cast<std::size_t>(i)] * tapScale));
        raw.y = raw.x;
        taps.w[i] = __half2(raw);
    }
    auto kernel = directRgba8HalfKernel<3>;
    constexpr std::size_t shared = sharedBytes<3>();
    allowShared(kernel, shared);
    const dim3 grid(static_cast<unsigned>(plan.shape.gridX), static_cast<unsigned>(plan.shape.gridY));
    kernel<<<grid, dim3(32, 8), shared, cudaStreamOf(stream)>>>(
        p, taps, plan.shape.tileHeight, borderPixelRgba8(p.borderValue), halfPairBits(std::ldexp(p.offset, k - 24)),
        halfPairBits(std::ldexp(1.0, 24 - k)), halfPairBits(1024.0), halfPairBits(1279.0));
    TESSERA_LAUNCH_CHECK("directRgba8HalfKernel");
}

}  // namespace tessera::gpu::detail
