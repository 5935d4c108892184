// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/direct/direct_rgba8.h"
#include "gpu/kernels/direct/direct_rgba8_bound.h"
#include "gpu/kernels/direct/direct_rgba8_walk.cuh"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

// Direct correlation of 8-bit RGBA images with a small centred kernel (3 x 3, 5 x 5), where the
// work per pixel is so small that instruction count, not bandwidth, decides. The window stays in
// bytes: cp.async copies it to shared memory untouched (no registers, no conversion on the way)
// and a byte becomes a float at use in two full-rate instructions (a logic op writes it under the
// exponent of 2^23, a subtraction removes 2^23) where an integer-to-float conversion runs at an
// eighth of the FMA rate. Where the kernel's weights allow, it takes one instruction: a byte
// permute writes 1 + b / 2^15 and the taps and the sums' start make up for the 1 and the scale
// (direct_rgba8_bound.h has the arithmetic and its error bound). Each thread owns 4 x 4 pixels,
// so each window row it reads (three 16-byte loads) feeds up to 4 x 4 x K x 4 FMAs whose taps
// are uniform operands. The walk (a block down a 128-pixel column strip, 32 rows a step, two
// window buffers) is in direct_rgba8_walk.cuh. The offset starts the sums; stores round,
// saturate and pack four pixels into one 16-byte write. Mild 3 x 3 kernels take the fp16 form
// instead (direct_rgba8_half.cu).

namespace tessera::gpu::detail {

namespace {

using namespace rgba8_walk;

template <int K>
struct Rgba8Taps {
    float w[K * K];
    float w256[K * K];  ///< w / 256, for channels 1 and 3 (held as 256 b)
};

/// Channel C of a packed RGBA8 pixel as a float, exactly, in two full-rate instructions: one
/// logic op puts the byte under the exponent of 2^23 (0x4B0000bb), a subtraction removes 2^23.
/// Channels 1 and 3 stay where they are, as 256 b, and use taps divided by 256 (exact); `high`
/// is the pixel shifted down 16 bits, shared by channels 2 and 3. The exponent word (0x4B000000)
/// comes from a register, as the logic op has room for only one immediate (the mask).
template <int C>
__device__ __forceinline__ float channel(unsigned px, unsigned high, unsigned exponentWord)
{
    constexpr unsigned kMask = C % 2 == 0 ? 0xFFu : 0xFF00u;
    const unsigned bits = ((C < 2 ? px : high) & kMask) | exponentWord;
    return __uint_as_float(bits) - 8388608.0f;
}

/// Channel C of a packed RGBA8 pixel as 1 + b / 2^15, exactly, in one byte permute: the byte goes
/// to bits 8..15 of the mantissa under the exponent of 1 (`unitWord` = 0x3F800000, whose bytes
/// fill the rest).
template <int C>
__device__ __forceinline__ float biasedChannel(unsigned px, unsigned unitWord)
{
    constexpr unsigned kSelect = 0x7604u | (static_cast<unsigned>(C) << 4);
    unsigned bits;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(bits) : "r"(px), "r"(unitWord), "n"(kSelect));
    return __uint_as_float(bits);
}

/// Bytes a, b, c, d (each in the low byte of its word) packed into one word, a lowest.
__device__ __forceinline__ unsigned packBytes(unsigned a, unsigned b, unsigned c, unsigned d)
{
    unsigned lo;
    unsigned hi;
    unsigned word;
    asm("prmt.b32 %0, %1, %2, 0x0040;" : "=r"(lo) : "r"(a), "r"(b));
    asm("prmt.b32 %0, %1, %2, 0x0040;" : "=r"(hi) : "r"(c), "r"(d));
    asm("prmt.b32 %0, %1, %2, 0x5410;" : "=r"(word) : "r"(lo), "r"(hi));
    return word;
}

__device__ __forceinline__ unsigned toByte(float v)
{
    return Saturate<std::uint8_t>::from(v);
}

/// Adds one window row's contribution to the accumulators of channel C. BIASED: the values are
/// 1 + b / 2^15 and the taps scaled to match (one instruction per byte); otherwise b exactly.
template <int K, int C, bool BIASED>
__device__ __forceinline__ void addRow(const unsigned (&px)[12], const unsigned (&high)[12], unsigned exponentWord,
                                       const Rgba8Taps<K>& taps, int r, float (&acc)[kOY][kOX][4])
{
    constexpr int kHalf = K / 2;
    const float* w = C % 2 == 0 || BIASED ? taps.w : taps.w256;
    float f[kOX + K - 1];
#pragma unroll
    for (int i = 0; i < kOX + K - 1; ++i) {
        if constexpr (BIASED) {
            f[i] = biasedChannel<C>(px[kLead - kHalf + i], exponentWord);
        } else {
            f[i] = channel<C>(px[kLead - kHalf + i], high[kLead - kHalf + i], exponentWord);
        }
    }
    forEachRowProduct<K>(r, [&](int o, int j, int t, int i) { acc[o][j][C] = fmaf(w[t], f[i], acc[o][j][C]); });
}

template <int K, bool BIASED>
__device__ __forceinline__ void computeStep(const ConvParams& p, const unsigned* raw, const Rgba8Taps<K>& taps, int x0,
                                            int y, int yEnd, unsigned exponentWord)
{
    const int cx = threadIdx.x * kOX;
    const int ry = threadIdx.y * kOY;
    // The offset starts the sums, so the stores only round and saturate.
    float acc[kOY][kOX][4];
#pragma unroll
    for (int o = 0; o < kOY; ++o) {
#pragma unroll
        for (int j = 0; j < kOX; ++j) {
#pragma unroll
            for (int c = 0; c < 4; ++c) {
                acc[o][j][c] = p.offset;
            }
        }
    }
#pragma unroll
    for (int r = 0; r < kOY + K - 1; ++r) {
        unsigned px[12];
        windowRow(raw + (ry + r) * kRawCols + cx, px);
        unsigned high[12] = {};
        if constexpr (!BIASED) {
#pragma unroll
            for (int i = 0; i < 12; ++i) {
                high[i] = px[i] >> 16;
            }
        }
        addRow<K, 0, BIASED>(px, high, exponentWord, taps, r, acc);
        addRow<K, 1, BIASED>(px, high, exponentWord, taps, r, acc);
        addRow<K, 2, BIASED>(px, high, exponentWord, taps, r, acc);
        addRow<K, 3, BIASED>(px, high, exponentWord, taps, r, acc);
    }
    storeTile(p, x0 + cx, y + ry, yEnd, [&](int o, int j) {
        return packBytes(toByte(acc[o][j][0]), toByte(acc[o][j][1]), toByte(acc[o][j][2]), toByte(acc[o][j][3]));
    });
}

template <int K, bool BIASED>
__global__ void __launch_bounds__(kThreads, blocksPerSm(K))
    directRgba8Kernel(const ConvParams p, const __grid_constant__ Rgba8Taps<K> taps, int segmentRows,
                      unsigned borderPixel, unsigned exponentWord)
{
    walkSegment<K>(p, segmentRows, borderPixel, [&](const unsigned* raw, int x0, int y, int yEnd) {
        computeStep<K, BIASED>(p, raw, taps, x0, y, yEnd, exponentWord);
    });
}

template <int K>
void launchK(const Plan& plan, ConvParams p, cudaStream_t stream)
{
    const std::vector<float>& w = plan.data->taps;
    const bool biased = rgba8TakesBiasedBytes(w, p.offset);
    Rgba8Taps<K> taps{};
    double tapSum = 0.0;
    for (int i = 0; i < K * K; ++i) {
        const float t = w[static_cast<std::size_t>(i)];
        tapSum += t;
        taps.w[i] = biased ? t * kRgba8BiasedScale : t;  // a power of two: exact
        taps.w256[i] = t / 256.0f;
    }
    if (biased) {
        // Each value is 1 + b / 2^15 against taps scaled by 2^15: the sums start that much lower.
        p.offset = static_cast<float>(static_cast<double>(p.offset) - kRgba8BiasedScale * tapSum);
    }
    const unsigned borderPixel = borderPixelRgba8(p.borderValue);
    auto kernel = biased ? directRgba8Kernel<K, true> : directRgba8Kernel<K, false>;
    constexpr std::size_t shared = sharedBytes<K>();
    allowShared(kernel, shared);
    const dim3 grid(static_cast<unsigned>(plan.shape.gridX), static_cast<unsigned>(plan.shape.gridY));
    // The exponent word goes in as an argument: as a compile-time constant it would be folded
    // into a second logic op per channel value (one immediate per instruction).
    const unsigned exponentWord = biased ? 0x3F800000u : 0x4B000000u;
    kernel<<<grid, dim3(32, 8), shared, stream>>>(p, taps, plan.shape.tileHeight, borderPixel, exponentWord);
    TESSERA_LAUNCH_CHECK("directRgba8Kernel");
}

}  // namespace

Support smallRgba8Support(const ShapeQuery& q, const std::string& kernel, std::size_t shared3, std::size_t shared5)
{
    const int k = q.kw;
    if (q.kh != k || (k != 3 && k != 5)) {
        return Support::no(kernel + " is compiled for 3 x 3 and 5 x 5 only, not " + std::to_string(q.kw) + " x " +
                           std::to_string(q.kh));
    }
    if (q.anchorX != k / 2 || q.anchorY != k / 2) {
        return Support::no(kernel + " needs the centred anchor");
    }
    if (q.input.depth != PixelDepth::U8 || q.input.channels != 4 || q.kernelOutput.depth != PixelDepth::U8) {
        return Support::no(kernel + " takes 8-bit RGBA in and 8-bit out only");
    }
    if (!borderFitsByte(q.border, q.borderValue)) {
        return Support::no(kernel + " fills a constant border with a whole byte value only");
    }
    const std::size_t bytes = k == 3 ? shared3 : shared5;
    if (bytes > q.sharedLimit) {
        return Support::no(kernel + " needs " + std::to_string(bytes) + " bytes of shared memory, the device has " +
                           std::to_string(q.sharedLimit));
    }
    return Support::yes();
}

Support canDirectRgba8Walk(const ShapeQuery& q)
{
    return smallRgba8Support(q, "the walking RGBA8 kernel", sharedBytes<3>(), sharedBytes<5>());
}

LaunchShape directRgba8WalkShape(const ShapeQuery& q)
{
    LaunchShape s;
    s.blockX = 32;
    s.blockY = 8;
    s.tileWidth = kStripW;
    s.gridX = (q.width + kStripW - 1) / kStripW;
    // Short segments: blocks finish close together and the block scheduler keeps SMs busy.
    s.tileHeight = kSegmentRows;
    s.gridY = (q.height + s.tileHeight - 1) / s.tileHeight;
    s.sharedBytes = q.kw == 3 ? sharedBytes<3>() : sharedBytes<5>();
    s.variant = KernelVariant::DirectRgba8Walk;
    s.compiledSize = q.kw;
    return s;
}

void runDirectRgba8Walk(const LaunchArgs& a)
{
    const Plan& plan = a.plan;
    const ConvParams params = directParams(a);
    const cudaStream_t s = cudaStreamOf(a.stream);
    switch (plan.shape.compiledSize) {
    case 3: return launchK<3>(plan, params, s);
    case 5: return launchK<5>(plan, params, s);
    default: throw PreconditionError("no walking RGBA8 kernel of side " + std::to_string(plan.shape.compiledSize));
    }
}

}  // namespace tessera::gpu::detail
