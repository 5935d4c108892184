// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/separable/float_walk_common.cuh"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/kernels/arch/mma_sync.cuh"
#include "gpu/plan/plan_data.h"
#include "gpu/kernels/tensor/separable_tf32.h"
#include "gpu/kernels/separable/separable_walk.h"

#include <cmath>
#include <cstdint>
#include <string>

// Separable correlation of one-channel float images on tensor cores, at fp32 accuracy. Each
// value and each tap is split in two TF32 parts (hi: rounded to TF32's 11 significant bits; lo:
// the rest) and each product is the sum of three tensor-core products, lo x hi + hi x lo +
// hi x hi; the dropped lo x lo and the splits' roundings are bounded in tf32WalkRelativeBound.
//
// Both passes are one matrix product shape, mma.sync m16n8k8: A is 16 image lines x 8 inputs
// along them, read from shared memory, and B is an 8 x 8 block of the taps' Toeplitz matrix
// (input i, output o: tap i - o). B depends only on the distance between the input block and the
// output block, so KP / 8 + 1 blocks, split once per block into registers, serve every output.
// The row pass reads lines along image rows, the column pass lines along image columns (the
// intermediate transposed on the fly by the fragment layout), so neither moves data to turn it.
//
// The walk is separable_walk.cu's: a block owns a 128-column strip and a segment of its rows, and
// per step of 64 output rows loads the next window by cp.async while the column pass of the
// current one runs; the intermediate's last KP rows move up for the next step.

namespace tessera::gpu::detail {

namespace {

using namespace float_walk;

/// The window's row stride is 4 more than a multiple of 32 floats and the intermediate's 8 more:
/// with these, the row pass's A loads (lanes over 8 rows x 4 columns), its 8-byte stores and the
/// column pass's A loads (lanes over 4 rows x 8 columns) each touch every bank once.
template <int KP>
struct Tf32Layout {
    static constexpr int warps = kThreads / 32;
    static constexpr int rawCols = kStripW + KP;
    static constexpr int rawStride = roundUp(rawCols - 4, 32) + 4;
    static constexpr int midStride = kStripW + 8;
    static constexpr int midRows = kStep + KP;
    static constexpr int tapTable = KP + 16;  ///< taps at 8 .. 8 + KP - 1, zeros around
    static constexpr std::size_t sharedBytes =
        (static_cast<std::size_t>(kStep) * rawStride + static_cast<std::size_t>(midRows) * midStride + 2 * tapTable) *
        sizeof(float);
};

/// x as TF32, rounded to nearest (ties away from zero): the low 13 bits of the word are zero.
__device__ __forceinline__ std::uint32_t toTf32(float x)
{
    std::uint32_t r;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
#else
    r = __float_as_uint(x);
#endif
    return r;
}

/// A tap's two parts (once per block): x = hi + lo + e with |e| <= 2^-22 |x|, hi is x in TF32
/// and lo the remainder in TF32.
__device__ __forceinline__ void split(float x, std::uint32_t& hi, std::uint32_t& lo)
{
    hi = toTf32(x);
    lo = toTf32(x - __uint_as_float(hi));
}

/// One pass's B fragments: block d holds taps 8d + q - g and 8d + q + 4 - g of this lane (zero
/// outside 0 .. KP - 1), split in two parts. `table` has the taps at 8 .. 8 + KP - 1.
template <int KP>
struct TapFragments {
    static constexpr int kBlocks = KP / 8 + 1;
    std::uint32_t hi[kBlocks][2];
    std::uint32_t lo[kBlocks][2];

    __device__ __forceinline__ void load(const float* table, int g, int q)
    {
#pragma unroll
        for (int d = 0; d < kBlocks; ++d) {
            split(table[8 + 8 * d + q - g], hi[d][0], lo[d][0]);
            split(table[8 + 8 * d + q + 4 - g], hi[d][1], lo[d][1]);
        }
    }
};

/// An image value's two parts, cheaper than split(): hi is x rounded to TF32 by integer
/// arithmetic on its bits (half away from zero in magnitude), lo = x - hi exactly (|lo| <=
/// 2^-11 |x|), handed over whole: the tensor core reads TF32's bits of it, which keeps lo to
/// 2^-10 of itself, so x = hi + lo' + e with |e| <= 2^-21 |x|. A non-finite x (or one within
/// 2^-12 of the float range's end) gives NaN.
__device__ __forceinline__ void splitValue(float x, std::uint32_t& hi, std::uint32_t& lo)
{
    hi = (__float_as_uint(x) + 0x1000u) & 0xFFFFE000u;
    lo = __float_as_uint(x - __uint_as_float(hi));
}

/// The A fragment of 16 lines x 8 inputs: `at` points at line g, input q; lines are LINE_STEP
/// floats apart and inputs INPUT_STEP.
template <int LINE_STEP, int INPUT_STEP>
__device__ __forceinline__ void loadA(const float* at, std::uint32_t (&hi)[4], std::uint32_t (&lo)[4])
{
    const float v0 = at[0];
    const float v1 = at[8 * LINE_STEP];
    const float v2 = at[4 * INPUT_STEP];
    const float v3 = at[8 * LINE_STEP + 4 * INPUT_STEP];
    splitValue(v0, hi[0], lo[0]);
    splitValue(v1, hi[1], lo[1]);
    splitValue(v2, hi[2], lo[2]);
    splitValue(v3, hi[3], lo[3]);
}

/// Input block j's products into every output block it feeds: each of the three kinds of
/// product in turn over the blocks, so that MMAs issued back to back do not wait on each other.
template <int KOUT, int NB>
__device__ __forceinline__ void productsOf(int j, float (&acc)[KOUT][4], const std::uint32_t (&ahi)[4],
                                           const std::uint32_t (&alo)[4], const std::uint32_t (&bhi)[NB][2],
                                           const std::uint32_t (&blo)[NB][2])
{
#pragma unroll
    for (int o = 0; o < KOUT; ++o) {
        if (j - o >= 0 && j - o < NB) {
            mmaSync<MmaInput::Tf32>(acc[o], alo, bhi[j - o]);
        }
    }
#pragma unroll
    for (int o = 0; o < KOUT; ++o) {
        if (j - o >= 0 && j - o < NB) {
            mmaSync<MmaInput::Tf32>(acc[o], ahi, blo[j - o]);
        }
    }
#pragma unroll
    for (int o = 0; o < KOUT; ++o) {
        if (j - o >= 0 && j - o < NB) {
            mmaSync<MmaInput::Tf32>(acc[o], ahi, bhi[j - o]);
        }
    }
}

/// Row pass over ROWS window rows (a multiple of 16) into ROWS rows of mid. Warp w takes rows
/// 16 (w % groups) .. + 15 and one of 8 / groups column parts of the strip; each output block
/// of 8 columns sums KP / 8 + 1 input blocks.
template <int KP, int ROWS>
__device__ __forceinline__ void rowPass(const float* raw, float* mid, const TapFragments<KP>& taps)
{
    using L = Tf32Layout<KP>;
    constexpr int kBlocks = TapFragments<KP>::kBlocks;
    constexpr int kGroups = ROWS / 16;
    static_assert(ROWS % 16 == 0 && L::warps % kGroups == 0, "rows in groups of 16, at most one per warp");
    constexpr int kParts = L::warps / kGroups;
    constexpr int kOut = kStripW / 8 / kParts;  // output blocks per warp
    const int warp = threadIdx.x / 32;
    const int g = (threadIdx.x % 32) / 4;
    const int q = threadIdx.x % 4;
    const int line = 16 * (warp % kGroups) + g;
    const int col = kOut * 8 * (warp / kGroups);
    const float* a = raw + line * L::rawStride + col + q;
    float* m = mid + line * L::midStride + col + 2 * q;
    float acc[kOut][4];
#pragma unroll
    for (int o = 0; o < kOut; ++o) {
        acc[o][0] = acc[o][1] = acc[o][2] = acc[o][3] = 0.0f;
    }
#pragma unroll
    for (int j = 0; j < kOut + kBlocks - 1; ++j) {
        std::uint32_t ahi[4];
        std::uint32_t alo[4];
        loadA<L::rawStride, 1>(a + 8 * j, ahi, alo);
        productsOf<kOut, kBlocks>(j, acc, ahi, alo, taps.hi, taps.lo);
#pragma unroll
        for (int o = 0; o < kOut; ++o) {
            if (j - o == kBlocks - 1) {  // output block o is complete
                *reinterpret_cast<float2*>(m + 8 * o) = make_float2(acc[o][0], acc[o][1]);
                *reinterpret_cast<float2*>(m + 8 * L::midStride + 8 * o) = make_float2(acc[o][2], acc[o][3]);
            }
        }
    }
}

/// Column pass of one step: warp w takes columns 16 w .. + 15 and all 64 output rows (8 blocks
/// of 8), reading the intermediate's KP + 64 rows; outputs start at the offset. `Probe`: sum
/// the outputs into `probe` (the float rule's check; see the kernel).
template <int KP, bool Probe>
__device__ __forceinline__ void columnPass(const ConvParams& p, const float* mid, const TapFragments<KP>& taps, int x0,
                                           int y, int yEnd, float& probe)
{
    using L = Tf32Layout<KP>;
    constexpr int kBlocks = TapFragments<KP>::kBlocks;
    constexpr int kOut = kStep / 8;
    static_assert(kStripW / 16 == L::warps, "one 16-column group per warp");
    const int warp = threadIdx.x / 32;
    const int g = (threadIdx.x % 32) / 4;
    const int q = threadIdx.x % 4;
    const float* a = mid + q * L::midStride + 16 * warp + g;
    float acc[kOut][4];
#pragma unroll
    for (int o = 0; o < kOut; ++o) {
        acc[o][0] = acc[o][1] = acc[o][2] = acc[o][3] = p.offset;
    }
    const int x = x0 + 16 * warp + g;
    const bool inside = y + kStep <= yEnd && x0 + kStripW <= p.width;
#pragma unroll
    for (int j = 0; j < kOut + kBlocks - 1; ++j) {
        std::uint32_t ahi[4];
        std::uint32_t alo[4];
        loadA<1, L::midStride>(a + 8 * j * L::midStride, ahi, alo);
        productsOf<kOut, kBlocks>(j, acc, ahi, alo, taps.hi, taps.lo);
#pragma unroll
        for (int o = 0; o < kOut; ++o) {
            if (j - o == kBlocks - 1) {  // output block o is complete
                // D[g][2q + i] is column x, row 8 o + 2 q + i; D[g + 8][...] column x + 8.
                const int yy = y + 8 * o + 2 * q;
                float* out = rowPtr<float>(p.dst, p.dstPitch, yy) + x;
                float* next = reinterpret_cast<float*>(reinterpret_cast<char*>(out) + p.dstPitch);
                if (inside) {
                    // The float rule: the products' zero taps multiply pixels outside the window,
                    // so a NaN or an infinity reaches outputs it should not; the probe carries any
                    // to the block's end. A value that is not finite in row m of an A fragment
                    // makes every D[m][n] so (0 x NaN and 0 x inf are NaN, the taps are finite),
                    // so one n of each m the thread holds is enough: D[g][2q] and D[g + 8][2q].
                    if constexpr (Probe) {
                        probe += acc[o][0] + acc[o][2];
                    }
                    out[0] = acc[o][0];
                    next[0] = acc[o][1];
                    out[8] = acc[o][2];
                    next[8] = acc[o][3];
                } else {
                    if (yy < yEnd && x < p.width) {
                        out[0] = acc[o][0];
                        if constexpr (Probe) {
                            probe += acc[o][0];
                        }
                    }
                    if (yy + 1 < yEnd && x < p.width) {
                        next[0] = acc[o][1];
                        if constexpr (Probe) {
                            probe += acc[o][1];
                        }
                    }
                    if (yy < yEnd && x + 8 < p.width) {
                        out[8] = acc[o][2];
                        if constexpr (Probe) {
                            probe += acc[o][2];
                        }
                    }
                    if (yy + 1 < yEnd && x + 8 < p.width) {
                        next[8] = acc[o][3];
                        if constexpr (Probe) {
                            probe += acc[o][3];
                        }
                    }
                }
            }
        }
    }
}

/// p.anchorX is already shifted by the alignment padding (a multiple of 4 away from x0).
/// `Probe`: the float rule's check, left out when the plan knows that no output can leave the
/// finite range (Plan::outputMaxExponent).
template <int KP, bool Probe>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    separableTf32Kernel(const ConvParams p, const __grid_constant__ WalkTaps<KP> taps, int segmentRows,
                        const __grid_constant__ DirectTaps direct)
{
    using L = Tf32Layout<KP>;
    extern __shared__ float4 tf32Shared[];
    float* raw = reinterpret_cast<float*>(tf32Shared);
    float* mid = raw + kStep * L::rawStride;
    float* rowTable = mid + L::midRows * L::midStride;
    float* colTable = rowTable + L::tapTable;

    const WalkSegment seg = walkSegment(p, kStripW, segmentRows);
    if (seg.yBegin >= seg.yEnd) {
        return;
    }
    for (int i = threadIdx.x; i < L::tapTable; i += kThreads) {
        const int t = i - 8;
        rowTable[i] = t >= 0 && t < KP ? taps.row[t] : 0.0f;
        colTable[i] = t >= 0 && t < KP ? taps.col[t] : 0.0f;
    }
    __syncthreads();
    float probe = 0.0f;  // the sum of every output the thread stores: finite unless one is not
    const int g = (threadIdx.x % 32) / 4;
    const int q = threadIdx.x % 4;
    TapFragments<KP> rowTaps;
    TapFragments<KP> colTaps;
    rowTaps.load(rowTable, g, q);
    colTaps.load(colTable, g, q);
    walkStrip<KP, L::rawCols, L::rawStride, L::midStride>(
        p, seg, raw, mid, [&](auto rows, float* to) { rowPass<KP, decltype(rows)::value>(raw, to, rowTaps); },
        [&](int y) { columnPass<KP, Probe>(p, mid, colTaps, seg.x0, y, seg.yEnd, probe); });
    if constexpr (Probe) {
        if (__syncthreads_or(!isfinite(probe))) {
            fixNonFiniteTile(direct, p.dst, p.dstPitch, seg.x0, seg.yBegin, kStripW, seg.yEnd - seg.yBegin);
        }
    }
}

/// Padded taps per side: 16 or 32 (the row pass takes the KP halo rows in groups of 16).
int tf32Taps(int kw, int kh, int anchorX)
{
    return paddedTaps(kw, kh, anchorX, 16);
}

std::size_t tf32SharedFor(int kp)
{
    return kp == 16 ? Tf32Layout<16>::sharedBytes : Tf32Layout<32>::sharedBytes;
}

template <int KP>
void launchTf32(const Plan& plan, const ConvParams& p, int pad, const DirectTaps& direct, cudaStream_t stream)
{
    if (walkNeedsProbe(plan)) {
        launchWalkKernel<KP>(separableTf32Kernel<KP, true>, Tf32Layout<KP>::sharedBytes, plan, p, pad, direct, stream);
    } else {
        launchWalkKernel<KP>(separableTf32Kernel<KP, false>, Tf32Layout<KP>::sharedBytes, plan, p, pad, direct, stream);
    }
    TESSERA_LAUNCH_CHECK("separableTf32Kernel");
}

}  // namespace

double tf32WalkRelativeBound(int kw, int kh, int anchorX)
{
    // Per pass and output, in units of 2^-22 of sum |tap x value|: each product is off by at most
    // 2 (the value's split, splitValue), 1 (the tap's, split) and 1 (the dropped lo x lo, 2^-11 x
    // 2^-11); each of the 3 (KP / 8 + 1) MMAs into an fp32 sum by at most 1 (a model of the tensor
    // core's fp32 accumulation, which truncates, with the grids in the GPU tests as its check).
    // The column pass carries the row pass's error, weighted by sum |column taps|, and adds its
    // own: twice one pass's share of S. The offset starts the column sums: one more rounding.
    const int kp = tf32Taps(kw, kh, anchorX);
    return 2.0 * (4.0 + 3.0 * (kp / 8 + 1)) * std::ldexp(1.0, -22) + std::ldexp(1.0, -24);
}

Support canSeparableTf32Walk(const ShapeQuery& q)
{
    if (q.device != nullptr && q.device->ccMajor < 8) {
        return Support::no("TF32 tensor-core kernels need compute capability 8.0 or later");
    }
    const int kp = tf32Taps(q.kw, q.kh, q.anchorX);
    return walkSupport(q, "the TF32 walking separable kernel", kp, tf32SharedFor(kp));
}

LaunchShape separableTf32WalkShape(const ShapeQuery& q)
{
    const int kp = tf32Taps(q.kw, q.kh, q.anchorX);
    LaunchShape s = walkShape(q, KernelVariant::SeparableTf32Walk, tf32SharedFor(kp));
    s.compiledSize = kp;
    return s;
}

double tf32WalkMmaCount(int kw, int kh, int anchorX, double pixels)
{
    // Per 8 x 16 outputs and pass: KP / 8 + 1 blocks of three products; the row pass also runs
    // over KP halo rows per segment of kSegmentRows.
    const int kp = tf32Taps(kw, kh, anchorX);
    const double perPass = 3.0 * (kp / 8 + 1) * pixels / 128.0;
    return perPass * (2.0 + static_cast<double>(kp) / kSegmentRows);
}

void launchSeparableTf32Walk(const Plan& plan, const ConvParams& params, const DirectTaps& direct, StreamView stream)
{
    const int pad = leftPad(params.anchorX);
    const cudaStream_t s = cudaStreamOf(stream);
    switch (tf32Taps(params.kw, params.kh, params.anchorX)) {
    case 16: return launchTf32<16>(plan, params, pad, direct, s);
    case 32: return launchTf32<32>(plan, params, pad, direct, s);
    default: throw PreconditionError("TF32 walking separable kernel: more than 32 taps");
    }
}

void runSeparableTf32Walk(const LaunchArgs& a)
{
    launchSeparableTf32Walk(a.plan, makeConvParams(a.plan.spec, a.src, a.dst),
                            makeDirectTaps(a.plan.spec, a.src, uploadedDirectTaps(a.plan)), a.stream);
}

}  // namespace tessera::gpu::detail
