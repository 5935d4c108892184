// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/separable/float_walk_common.cuh"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/plan/plan_data.h"
#include "gpu/kernels/separable/separable_walk.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

// Separable correlation of one-channel float images in which every block walks down a column
// strip instead of owning a fixed tile. A tile-per-block kernel runs its row pass over the
// kh - 1 halo rows of every tile (half as much again for 31 taps on 64-row tiles); walking, a
// block keeps the row-pass results of the last KP rows and computes each input row's pass
// once per segment of its strip (plus KP rows at the segment's start). Per step of 64 output
// rows:
//   - the next 64 input rows of the strip's window arrive in shared memory by cp.async, issued
//     a whole column pass ahead, so loads overlap arithmetic without holding registers;
//   - the row pass turns them into 64 rows of the intermediate, each thread 8 adjacent outputs;
//   - the column pass reads the intermediate (KP older rows + the 64 new ones), each thread a
//     4 x 8 block of outputs, and stores them;
//   - the last KP intermediate rows move to the top for the next step.
// The tap count is a template parameter (padded with zero taps to KP = 8, 16, 24 or 32), so
// every tap is a uniform operand of its FMA and no shared-memory load feeds taps.

namespace tessera::gpu::detail {

namespace {

using namespace float_walk;

constexpr int kGroup = 8;  // row-pass outputs per item, column-pass rows per item

/// A multiple of 4 floats that is 4 more than a multiple of 32: 16-byte accesses of lanes on
/// consecutive rows land in distinct banks.
constexpr int strideFor(int cols)
{
    return roundUp(cols - 4, 32) + 4;
}

template <int KP>
struct Layout {
    static constexpr int rawCols = kStripW + KP;  // window columns (a multiple of 8)
    static constexpr int rawStride = strideFor(rawCols);
    static constexpr int midStride = strideFor(kStripW);
    static constexpr int midRows = kStep + KP;
    static constexpr std::size_t sharedBytes =
        (static_cast<std::size_t>(kStep) * rawStride + static_cast<std::size_t>(midRows) * midStride) * sizeof(float);
};

/// Row pass over ROWS window rows: item i is row i % ROWS (so lanes take consecutive rows),
/// outputs 8 (i / ROWS) .. + 7 of the strip, written to mid.
template <int KP, int ROWS>
__device__ __forceinline__ void rowPass(const float* raw, float* mid, const WalkTaps<KP>& taps)
{
    using L = Layout<KP>;
    constexpr int kItems = ROWS * (kStripW / kGroup);
    for (int i = threadIdx.x; i < kItems; i += kThreads) {
        const int r = i % ROWS;
        const int g = i / ROWS;
        const float* from = raw + r * L::rawStride + g * kGroup;
        float v[KP + kGroup];
#pragma unroll
        for (int q = 0; q < (KP + kGroup) / 4; ++q) {
            const float4 f = reinterpret_cast<const float4*>(from)[q];
            v[4 * q] = f.x;
            v[4 * q + 1] = f.y;
            v[4 * q + 2] = f.z;
            v[4 * q + 3] = f.w;
        }
        float acc[kGroup];
#pragma unroll
        for (int j = 0; j < kGroup; ++j) {
            acc[j] = 0.0f;
        }
#pragma unroll
        for (int t = 0; t < KP; ++t) {
#pragma unroll
            for (int j = 0; j < kGroup; ++j) {
                acc[j] = fmaf(taps.row[t], v[j + t], acc[j]);
            }
        }
        float* to = mid + r * L::midStride + g * kGroup;
        reinterpret_cast<float4*>(to)[0] = make_float4(acc[0], acc[1], acc[2], acc[3]);
        reinterpret_cast<float4*>(to)[1] = make_float4(acc[4], acc[5], acc[6], acc[7]);
    }
}

/// Column pass of one step: thread t owns columns 4 (t % 32) .. + 3 and rows 8 (t / 32) .. + 7;
/// each 16-byte row it reads feeds up to 8 x 4 FMAs. `Probe`: sum the outputs into `probe`.
template <int KP, bool Probe>
__device__ __forceinline__ void columnPass(const ConvParams& p, const float* mid, const WalkTaps<KP>& taps, int x0,
                                           int y, int yEnd, float& probe)
{
    using L = Layout<KP>;
    static_assert(kStripW / 4 * (kStep / kGroup) == kThreads, "one column item per thread");
    const int quad = threadIdx.x % (kStripW / 4);
    const int g = threadIdx.x / (kStripW / 4);
    const float* from = mid + g * kGroup * L::midStride + 4 * quad;
    // The offset starts the sums, so the stores only write.
    float4 acc[kGroup];
#pragma unroll
    for (int j = 0; j < kGroup; ++j) {
        acc[j] = make_float4(p.offset, p.offset, p.offset, p.offset);
    }
#pragma unroll
    for (int r = 0; r < KP + kGroup - 1; ++r) {
        const float4 v = *reinterpret_cast<const float4*>(from + r * L::midStride);
#pragma unroll
        for (int j = 0; j < kGroup; ++j) {
            const int t = r - j;
            if (t >= 0 && t < KP) {
                acc[j].x = fmaf(taps.col[t], v.x, acc[j].x);
                acc[j].y = fmaf(taps.col[t], v.y, acc[j].y);
                acc[j].z = fmaf(taps.col[t], v.z, acc[j].z);
                acc[j].w = fmaf(taps.col[t], v.w, acc[j].w);
            }
        }
    }
    const int x = x0 + 4 * quad;
#pragma unroll
    for (int j = 0; j < kGroup; ++j) {
        const int yy = y + g * kGroup + j;
        if (yy >= yEnd) {
            break;
        }
        float* out = rowPtr<float>(p.dst, p.dstPitch, yy) + x;
        // The float rule: the zero taps that pad KP multiply pixels outside the window, so a NaN
        // or an infinity reaches outputs it should not; the probe carries any to the block's end.
        if constexpr (Probe) {
            probe += (acc[j].x + acc[j].y) + (acc[j].z + acc[j].w);
        }
        if (x + 4 <= p.width && reinterpret_cast<std::uintptr_t>(out) % 16 == 0) {
            *reinterpret_cast<float4*>(out) = acc[j];
        } else {
            const float v[4] = {acc[j].x, acc[j].y, acc[j].z, acc[j].w};
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                if (x + k < p.width) {
                    out[k] = v[k];
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
    separableWalkKernel(const ConvParams p, const __grid_constant__ WalkTaps<KP> taps, int segmentRows,
                        const __grid_constant__ DirectTaps direct)
{
    using L = Layout<KP>;
    extern __shared__ float4 walkShared[];
    float* raw = reinterpret_cast<float*>(walkShared);
    float* mid = raw + kStep * L::rawStride;

    const WalkSegment seg = walkSegment(p, kStripW, segmentRows);
    if (seg.yBegin >= seg.yEnd) {
        return;
    }
    float probe = 0.0f;  // the sum of every output the thread stores: finite unless one is not
    walkStrip<KP, L::rawCols, L::rawStride, L::midStride>(
        p, seg, raw, mid, [&](auto rows, float* to) { rowPass<KP, decltype(rows)::value>(raw, to, taps); },
        [&](int y) { columnPass<KP, Probe>(p, mid, taps, seg.x0, y, seg.yEnd, probe); });
    if constexpr (Probe) {
        if (__syncthreads_or(!isfinite(probe))) {
            fixNonFiniteTile(direct, p.dst, p.dstPitch, seg.x0, seg.yBegin, kStripW, seg.yEnd - seg.yBegin);
        }
    }
}

int paddedTaps(int kw, int kh, int anchorX)
{
    return float_walk::paddedTaps(kw, kh, anchorX, kGroup);
}

template <int KP>
void launchWalk(const Plan& plan, const ConvParams& p, int pad, const DirectTaps& direct, cudaStream_t stream)
{
    if (walkNeedsProbe(plan)) {
        launchWalkKernel<KP>(separableWalkKernel<KP, true>, Layout<KP>::sharedBytes, plan, p, pad, direct, stream);
    } else {
        launchWalkKernel<KP>(separableWalkKernel<KP, false>, Layout<KP>::sharedBytes, plan, p, pad, direct, stream);
    }
    TESSERA_LAUNCH_CHECK("separableWalkKernel");
}

std::size_t sharedFor(int kp)
{
    switch (kp) {
    case 8: return Layout<8>::sharedBytes;
    case 16: return Layout<16>::sharedBytes;
    case 24: return Layout<24>::sharedBytes;
    default: return Layout<32>::sharedBytes;
    }
}

}  // namespace

Support canSeparableWalk(const ShapeQuery& q)
{
    const int kp = paddedTaps(q.kw, q.kh, q.anchorX);
    return walkSupport(q, "the walking separable kernel", kp, sharedFor(kp));
}

LaunchShape separableWalkShape(const ShapeQuery& q)
{
    return walkShape(q, KernelVariant::SeparableWalk, sharedFor(paddedTaps(q.kw, q.kh, q.anchorX)));
}

void launchSeparableWalk(const Plan& plan, const ConvParams& params, const DirectTaps& direct, StreamView stream)
{
    const int pad = leftPad(params.anchorX);
    const cudaStream_t s = cudaStreamOf(stream);
    switch (paddedTaps(params.kw, params.kh, params.anchorX)) {
    case 8: return launchWalk<8>(plan, params, pad, direct, s);
    case 16: return launchWalk<16>(plan, params, pad, direct, s);
    case 24: return launchWalk<24>(plan, params, pad, direct, s);
    case 32: return launchWalk<32>(plan, params, pad, direct, s);
    default: throw PreconditionError("walking separable kernel: more than 32 taps");
    }
}

void runSeparableWalk(const LaunchArgs& a)
{
    launchSeparableWalk(a.plan, makeConvParams(a.plan.spec, a.src, a.dst),
                        makeDirectTaps(a.plan.spec, a.src, uploadedDirectTaps(a.plan)), a.stream);
}

}  // namespace tessera::gpu::detail
