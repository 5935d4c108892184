// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/direct/direct_rgba8.h"
#include "gpu/kernels/tensor/direct_rgba8_fixed.h"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/kernels/arch/mma_sync.cuh"
#include "gpu/kernels/common/window_loader.cuh"

#include <cstdint>
#include <string>
#include <vector>

// Direct correlation of 8-bit RGBA images with a small centred kernel (3 x 3, 5 x 5) on the
// integer tensor cores. The byte walk (direct_rgba8.cu) spends one FMA per tap and channel and a
// conversion per byte, and its instruction count decides its speed; here the bytes go to the
// tensor cores as they are and the products are exact.
//
// The product. For 16 image lines and a window of 8 pixels (32 bytes: the K of m16n8k32), an
// 8-column B holds two output pixels x four channels: B[4 px + c][4 j + c'] is the tap that joins
// input pixel px to output pixel j when c = c', else 0. Two such B per kernel row give the four
// outputs whose windows lie inside the 8 pixels; the A operand is the raw window, 16 lines of 32
// bytes, which ldmatrix reads from shared memory in one instruction. Each tap is held as two
// signed bytes (direct_rgba8_fixed.h): one product for the high byte, one for the low, summed in
// 32-bit integers, so a 3 x 3 kernel costs 12 products per 64 outputs.
//
// The walk. A block of 8 warps walks down a 128-pixel strip 32 lines at a time, the next step's
// window in flight by cp.async while the current one is computed (like the byte walk). Strips
// start 2 pixels left of a multiple of 128, so that every 8-pixel window starts on a 16-byte
// boundary in shared memory (ldmatrix's rule) and in the image (cp.async's). Each warp owns 16
// lines x 8 quads of outputs.
//
// The results. Lane (g, t) ends with two channels of one pixel on lines g and g + 8; it rounds
// (the bias and a shift), saturates and packs them into its warp's staging rows in shared memory,
// from which the warp writes whole lines (storeStaged).

namespace tessera::gpu::detail {

namespace {

constexpr int kStripW = 128;           // output pixels per block, horizontally
constexpr int kStripShift = 2;         // a strip's first output: 128 bx - 2
constexpr int kRawCols = kStripW + 4;  // window from 128 bx - 4: 33 quads, 132 words (4 mod 32 banks)
constexpr int kStep = 32;              // output lines per step: two groups of 16
constexpr int kThreads = 256;
constexpr int kQuadsPerWarp = 8;  // 4 warps x 8 quads = the strip's 32 quads
// Rows per block. Short segments keep the resident blocks on neighbouring rows; on an H200 at
// 8192^2 (3 x 3, 5 x 5 ms): 32 rows 0.202, 0.272; 64 rows 0.199, 0.265; 96 rows 0.204, 0.265;
// 128 rows 0.209, 0.270; 256 rows 0.232, 0.288.
constexpr int kSegmentRows = 64;
/// Resident blocks per SM the registers are budgeted for: four for 3 x 3 (64 registers: 0.199 ms
/// against 0.211 with three and 0.235 with two), three for 5 x 5 (0.265; four would spill).
constexpr int blocksPerSm(int k)
{
    return k == 3 ? 4 : 3;
}

template <int K>
constexpr int rawRows()
{
    return kStep + K - 1;
}

/// Each warp stages its results (16 lines x 32 pixels) in shared memory so that they leave in
/// whole lines: lines kStageStride words apart (36: the lanes' two-byte writes of one instruction
/// fall in distinct banks).
constexpr int kStageStride = 36;
constexpr int kStageWords = 16 * kStageStride;

/// Two window buffers, then each warp's staging rows.
template <int K>
constexpr std::size_t sharedBytes()
{
    return (2u * static_cast<std::size_t>(rawRows<K>()) * kRawCols + (kThreads / 32u) * kStageWords) * sizeof(unsigned);
}

template <int K>
struct ImmaTaps {
    std::int8_t hi[K * K];
    std::int8_t lo[K * K];
};

/// The taps' rows in shared memory with zeros around them, so that a B register is one load:
/// tap kx of row ky at [ky][kPadLeft + kx], for kx from -kPadLeft to kTapRow - kPadLeft - 1.
constexpr int kPadLeft = 8;
constexpr int kTapRow = 24;

/// Lane (g, t)'s register `half` of B for kernel row ky and output pair nb (outputs 2 nb, 2 nb + 1
/// of the quad, which sits 2 pixels into the window): rows k = 4 (t + 4 half) + c, column g, so
/// the tap joining window pixel t + 4 half to output 2 + 2 nb + g / 4, in byte g % 4.
template <int K>
__device__ __forceinline__ std::uint32_t bRegister(const std::int8_t* tapRows, int ky, int nb, int half, int g, int t)
{
    const int kx = t + 4 * half - (2 + 2 * nb + (g >> 2)) + K / 2;
    const auto byte = static_cast<std::uint32_t>(static_cast<std::uint8_t>(tapRows[ky * kTapRow + kPadLeft + kx]));
    return byte << (8 * (g & 3));
}

/// cvt.pack.sat: a and b saturated to bytes, b in byte 0, a in byte 1, c's low half above.
__device__ __forceinline__ std::uint32_t packSat(int a, int b, std::uint32_t c)
{
    std::uint32_t d;
    asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
    return d;
}

template <int K>
struct BFragments {
    std::uint32_t hi[K][2][2];  ///< [ky][output pair][register]
    std::uint32_t lo[K][2][2];
};

/// Writes the warp's staged 16 x 32 pixels to the image: lane l copies lines l / 8 + 4 i, pixels
/// 4 (l % 8) .. + 3, as two 8-byte stores (a strip's outputs start 2 pixels off a 16-byte
/// boundary); edges and unaligned rows go pixel by pixel. Measured on an H200 at 8192^2, 3 x 3:
/// 0.199 ms. Not kept: each half-warp writing one whole line in 8-byte pieces (0.203), and strips
/// on 16-byte boundaries with 16-byte stores, the window then coming in 8-byte copies (0.217);
/// single pixels stored straight from the fragments (lanes trading channels by shuffle) took 0.36
/// with two blocks per SM, where the staged form takes 0.235.
__device__ __forceinline__ void storeStaged(const ConvParams& p, const unsigned* stage, int x0, int line0, int yEnd,
                                            int lane)
{
    const int chunk = lane & 7;
    const int x = x0 + 4 * chunk;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const int r = (lane >> 3) + 4 * i;
        const int y = line0 + r;
        const uint4 v = *reinterpret_cast<const uint4*>(stage + r * kStageStride + 4 * chunk);
        if (y >= yEnd) {
            continue;
        }
        unsigned* out = rowPtr<unsigned>(p.dst, p.dstPitch, y) + x;
        if (x >= 0 && x + 4 <= p.width && reinterpret_cast<std::uintptr_t>(out) % 8 == 0) {
            *reinterpret_cast<uint2*>(out) = make_uint2(v.x, v.y);
            *reinterpret_cast<uint2*>(out + 2) = make_uint2(v.z, v.w);
        } else {
            const unsigned words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                if (x + j >= 0 && x + j < p.width) {
                    out[j] = words[j];
                }
            }
        }
    }
}

template <int K>
__device__ __forceinline__ void computeStep(const ConvParams& p, std::uint32_t windowAddress, unsigned* stage,
                                            const BFragments<K>& b, int xs, int y, int yEnd, int bias, int shift)
{
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int lineGroup = warp >> 2;
    const int firstQuad = (warp & 3) * kQuadsPerWarp;
    const int t = lane & 3;
    const int g = lane >> 2;
    // ldmatrix: lane l gives row l % 8 (+ 8 for matrices 1 and 3) at bytes 0 or 16 (matrices 2, 3).
    const int row = 16 * lineGroup + (lane & 7) + 8 * ((lane >> 3) & 1);
    const std::uint32_t base =
        windowAddress + 4u * static_cast<std::uint32_t>(row * kRawCols + 4 * firstQuad + 4 * (lane >> 4));
    // Lane (g, t) holds channels 2 (t % 2), + 1 of output pixel 2 nb + t / 2 of each quad, lines g
    // and g + 8: two bytes each, written to the staging rows as they come.
    auto* stageHalves = reinterpret_cast<std::uint16_t*>(stage);
    const int halfIndex = g * 2 * kStageStride + 2 * (t >> 1) + (t & 1);
#pragma unroll
    for (int q = 0; q < kQuadsPerWarp; ++q) {
        int high[2][4] = {};
        int low[2][4];
#pragma unroll
        for (int nb = 0; nb < 2; ++nb) {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                low[nb][i] = bias;
            }
        }
#pragma unroll
        for (int ky = 0; ky < K; ++ky) {
            std::uint32_t a[4];
            loadMatrixX4(a, base + 4u * static_cast<std::uint32_t>(ky * kRawCols + 4 * q));
#pragma unroll
            for (int nb = 0; nb < 2; ++nb) {
                mmaU8S8(high[nb], a, b.hi[ky][nb]);
                mmaU8S8(low[nb], a, b.lo[ky][nb]);
            }
        }
#pragma unroll
        for (int nb = 0; nb < 2; ++nb) {
            int v[4];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                v[i] = ((high[nb][i] << 8) + low[nb][i]) >> shift;  // arithmetic: floor, then saturate
            }
            const int at = halfIndex + 2 * (4 * q + 2 * nb);
            stageHalves[at] = static_cast<std::uint16_t>(packSat(v[1], v[0], 0u));
            stageHalves[at + 16 * kStageStride] = static_cast<std::uint16_t>(packSat(v[3], v[2], 0u));
        }
    }
    __syncwarp();
    storeStaged(p, stage, xs + 4 * firstQuad, y + 16 * lineGroup, yEnd, lane);
    __syncwarp();
}

template <int K>
__global__ void __launch_bounds__(kThreads, blocksPerSm(K))
    directRgba8ImmaKernel(const ConvParams p, const __grid_constant__ ImmaTaps<K> taps, int segmentRows,
                          unsigned borderPixel, int bias, int shift)
{
    constexpr int kRows = rawRows<K>();
    extern __shared__ uint4 immaShared[];
    unsigned* buffers = reinterpret_cast<unsigned*>(immaShared);

    const int xs = blockIdx.x * kStripW - kStripShift;
    const int ox = xs - 2;
    const int yBegin = blockIdx.y * segmentRows;
    const int yEnd = min(yBegin + segmentRows, p.height);
    if (yBegin >= yEnd) {
        return;
    }
    const bool vectors = ((reinterpret_cast<std::uintptr_t>(p.src) | p.srcPitch) % 16) == 0;
    const int tid = threadIdx.x;
    auto load = [&](unsigned* to, int oy) {
        loadWindowRows<unsigned, kRawCols, kRawCols, kRows, kThreads>(p, to, ox, oy, vectors, borderPixel, tid);
    };
    load(buffers, yBegin - K / 2);
    commitAsync();

    // The high and the low tap bytes, zero-padded rows, then each lane's B registers from them.
    __shared__ std::int8_t tapRows[2][K * kTapRow];
    for (int i = tid; i < 2 * K * kTapRow; i += kThreads) {
        const int split = i / (K * kTapRow);
        const int ky = i % (K * kTapRow) / kTapRow;
        const int kx = i % kTapRow - kPadLeft;
        const std::int8_t* from = split == 0 ? taps.hi : taps.lo;
        tapRows[split][i % (K * kTapRow)] = kx >= 0 && kx < K ? from[ky * K + kx] : std::int8_t{0};
    }
    __syncthreads();
    BFragments<K> b;
    const int g = (tid & 31) >> 2;
    const int t = tid & 3;
#pragma unroll
    for (int ky = 0; ky < K; ++ky) {
#pragma unroll
        for (int nb = 0; nb < 2; ++nb) {
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                b.hi[ky][nb][half] = bRegister<K>(tapRows[0], ky, nb, half, g, t);
                b.lo[ky][nb][half] = bRegister<K>(tapRows[1], ky, nb, half, g, t);
            }
        }
    }
    const auto sharedBase = static_cast<std::uint32_t>(__cvta_generic_to_shared(buffers));
    unsigned* stage = buffers + 2 * kRows * kRawCols + (tid >> 5) * kStageWords;
    int current = 0;
    for (int y = yBegin; y < yEnd; y += kStep) {
        waitAsync();
        __syncthreads();
        if (y + kStep < yEnd) {
            load(buffers + (1 - current) * kRows * kRawCols, y + kStep - K / 2);
            commitAsync();
        }
        const std::uint32_t window = sharedBase + 4u * static_cast<std::uint32_t>(current * kRows * kRawCols);
        computeStep<K>(p, window, stage, b, xs, y, yEnd, bias, shift);
        // The next turn's barrier comes before its load into the buffer just read.
        current = 1 - current;
    }
}

template <int K>
void launchK(const Plan& plan, const ConvParams& p, cudaStream_t stream)
{
    const Rgba8FixedTaps fixed = rgba8FixedTaps(plan.data->taps, p.offset);
    if (!fixed.ok || fixed.hi.size() != static_cast<std::size_t>(K * K)) {
        throw PreconditionError("integer RGBA8 kernel: the taps have no fixed-point form within the error limit");
    }
    ImmaTaps<K> taps{};
    for (int i = 0; i < K * K; ++i) {
        taps.hi[i] = fixed.hi[static_cast<std::size_t>(i)];
        taps.lo[i] = fixed.lo[static_cast<std::size_t>(i)];
    }
    auto kernel = directRgba8ImmaKernel<K>;
    constexpr std::size_t shared = sharedBytes<K>();
    allowShared(kernel, shared);
    const dim3 grid(static_cast<unsigned>(plan.shape.gridX), static_cast<unsigned>(plan.shape.gridY));
    kernel<<<grid, kThreads, shared, stream>>>(p, taps, plan.shape.tileHeight, borderPixelRgba8(p.borderValue),
                                               fixed.bias, fixed.shift);
    TESSERA_LAUNCH_CHECK("directRgba8ImmaKernel");
}

}  // namespace

Support canDirectRgba8Imma(const ShapeQuery& q)
{
    if (q.device != nullptr && q.device->ccMajor < 8) {
        return Support::no("integer tensor-core kernels need compute capability 8.0 or later");
    }
    if (Support s = smallRgba8Support(q, "the integer RGBA8 kernel", sharedBytes<3>(), sharedBytes<5>()); !s) {
        return s;
    }
    if (q.spec != nullptr && !rgba8FixedTaps(*q.spec).ok) {
        return Support::no("the integer RGBA8 kernel's 16-bit taps would round the result by more than " +
                           std::to_string(kRgba8FixedErrorLimit) + " of an output step");
    }
    return Support::yes();
}

LaunchShape directRgba8ImmaShape(const ShapeQuery& q)
{
    LaunchShape s;
    s.blockX = kThreads;
    s.blockY = 1;
    s.tileWidth = kStripW;
    s.gridX = (q.width + kStripShift + kStripW - 1) / kStripW;
    s.tileHeight = kSegmentRows;
    s.gridY = (q.height + s.tileHeight - 1) / s.tileHeight;
    s.sharedBytes = q.kw == 3 ? sharedBytes<3>() : sharedBytes<5>();
    s.variant = KernelVariant::DirectRgba8Imma;
    s.compiledSize = q.kw;
    return s;
}

void runDirectRgba8Imma(const LaunchArgs& a)
{
    const Plan& plan = a.plan;
    const ConvParams params = directParams(a);
    const cudaStream_t s = cudaStreamOf(a.stream);
    switch (plan.shape.compiledSize) {
    case 3: return launchK<3>(plan, params, s);
    case 5: return launchK<5>(plan, params, s);
    default: throw PreconditionError("no integer RGBA8 kernel of side " + std::to_string(plan.shape.compiledSize));
    }
}

}  // namespace tessera::gpu::detail
