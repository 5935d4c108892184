// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: what the two walking separable kernels for one-channel float images share
// (separable_walk.cu on FMAs, separable_tf32.cu on tensor cores): the padding of the row taps
// that aligns the window, the window loader and the launch geometry of a block walking down a
// column strip in row segments.

#include "gpu/kernels/common/direct_recompute.cuh"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/plan/plan_data.h"
#include "gpu/plan/variant_support.h"
#include "gpu/kernels/common/window_loader.cuh"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace tessera::gpu::detail::float_walk {

constexpr int kStripW = 128;  // output columns per block
constexpr int kStep = 64;     // output rows per step
constexpr int kThreads = 256;
constexpr int kMaxTaps = 32;
constexpr int kBlocksPerSm = 2;
// At most this many rows per block. Longer segments save halo rows but run slower (8192^2,
// 31 taps, FMA walk: 0.52 ms at 2048 rows, 0.31 at 256; later 0.288 at 256, 0.299 at 384,
// 0.309 at 512, and the TF32 walk 0.270, 0.282, 0.294).
constexpr int kSegmentRows = 256;

constexpr int roundUp(int v, int m)
{
    return (v + m - 1) / m * m;
}

/// Zero taps put before the row taps so that the window starts on a 16-byte boundary.
inline int leftPad(int anchorX)
{
    return (4 - anchorX % 4) % 4;
}

/// Taps per side once the row taps are aligned, rounded up to a multiple of `multiple`.
inline int paddedTaps(int kw, int kh, int anchorX, int multiple)
{
    return roundUp(std::max(kw + leftPad(anchorX), kh), multiple);
}

/// A walking kernel's taps, passed by value: the row taps after the alignment padding, the
/// column taps from 0, zeros up to KP.
template <int KP>
struct WalkTaps {
    float row[KP];
    float col[KP];
};

template <int KP>
WalkTaps<KP> walkTaps(const PlanData& data, int pad)
{
    WalkTaps<KP> taps{};
    for (std::size_t i = 0; i < data.rowTaps.size(); ++i) {
        taps.row[static_cast<std::size_t>(pad) + i] = data.rowTaps[i];
    }
    for (std::size_t i = 0; i < data.colTaps.size(); ++i) {
        taps.col[i] = data.colTaps[i];
    }
    return taps;
}

/// What a walking block owns: columns x0 .. x0 + stripW - 1 of rows yBegin .. yEnd - 1 (empty
/// when yBegin >= yEnd); its window starts at column ox, a multiple of 4 (the padded anchor is),
/// so `vectors` (16-byte aligned source rows) gives aligned quads.
struct WalkSegment {
    int x0;
    int yBegin;
    int yEnd;
    int ox;
    bool vectors;
};

__device__ __forceinline__ WalkSegment walkSegment(const ConvParams& p, int stripW, int segmentRows)
{
    WalkSegment s;
    s.x0 = static_cast<int>(blockIdx.x) * stripW;
    s.yBegin = static_cast<int>(blockIdx.y) * segmentRows;
    s.yEnd = min(s.yBegin + segmentRows, p.height);
    s.ox = s.x0 - p.anchorX;
    s.vectors = ((reinterpret_cast<std::uintptr_t>(p.src) | p.srcPitch) % 16) == 0;
    return s;
}

/// Starts loading ROWS window rows of the float image from row oy (columns ox .. ox + COLS - 1)
/// into raw, a row every STRIDE floats (loadWindowRows; the constant border's value outside).
template <int COLS, int STRIDE, int ROWS>
__device__ __forceinline__ void loadRows(const ConvParams& p, float* raw, int ox, int oy, bool vectors)
{
    loadWindowRows<float, COLS, STRIDE, ROWS, kThreads>(p, raw, ox, oy, vectors, p.borderValue,
                                                        static_cast<int>(threadIdx.x));
}

/// Copies intermediate rows kStep .. kStep + KP - 1 (kStripW floats each) to rows 0 .. KP - 1
/// (the next step's first KP rows); STRIDE is a multiple of 4.
template <int KP, int STRIDE>
__device__ __forceinline__ void keepLastRows(float* mid)
{
    constexpr int kQuads = kStripW / 4;
    for (int i = threadIdx.x; i < KP * kQuads; i += kThreads) {
        const int r = i / kQuads;
        const int q = i - r * kQuads;
        reinterpret_cast<float4*>(mid + r * STRIDE)[q] = reinterpret_cast<const float4*>(mid + (kStep + r) * STRIDE)[q];
    }
}

/// The walk of one block over its segment, for a kernel whose window (raw: kStep rows of COLS
/// floats, STRIDE apart) feeds an intermediate (mid: KP + kStep rows, MID_STRIDE apart):
///   - the first KP intermediate rows (input rows yBegin - anchorY ...);
///   - per step of kStep output rows: the row pass over the window loaded a column pass
///     earlier, the next window's load started, the column pass, and the intermediate's last KP
///     rows moved to the top for the next step.
/// rowPass(std::integral_constant<int, ROWS>, to) runs the row pass over ROWS window rows into
/// mid rows starting at `to`; columnPass(y) the column pass of output rows y .. y + kStep - 1.
template <int KP, int COLS, int STRIDE, int MID_STRIDE, class RowPass, class ColumnPass>
__device__ __forceinline__ void walkStrip(const ConvParams& p, const WalkSegment& s, float* raw, float* mid,
                                          RowPass rowPass, ColumnPass columnPass)
{
    loadRows<COLS, STRIDE, KP>(p, raw, s.ox, s.yBegin - p.anchorY, s.vectors);
    commitAsync();
    waitAsync();
    __syncthreads();
    rowPass(std::integral_constant<int, KP>{}, mid);
    __syncthreads();
    loadRows<COLS, STRIDE, kStep>(p, raw, s.ox, s.yBegin - p.anchorY + KP, s.vectors);
    commitAsync();

    for (int y = s.yBegin; y < s.yEnd; y += kStep) {
        waitAsync();
        __syncthreads();
        rowPass(std::integral_constant<int, kStep>{}, mid + KP * MID_STRIDE);
        __syncthreads();
        if (y + kStep < s.yEnd) {
            loadRows<COLS, STRIDE, kStep>(p, raw, s.ox, y + kStep - p.anchorY + KP, s.vectors);
            commitAsync();
        }
        columnPass(y);
        __syncthreads();
        keepLastRows<KP, MID_STRIDE>(mid);
    }
}

/// Whether a walk must check its outputs for the float rule: unless the plan knows its source
/// bounded so that no sum can leave the finite range, zero taps that multiply a NaN or an
/// infinity outside an output's window would make it NaN.
inline bool walkNeedsProbe(const Plan& plan)
{
    return plan.outputMaxExponent == SourceValues::kUnknown;
}

/// Enqueues a walking kernel(params, taps, segment rows) on the plan's grid, with kThreads
/// threads and `sharedBytes` of shared memory: the row taps after `pad` zeros, the anchor moved
/// by as much. The caller checks the launch.
template <int KP, class Kernel>
void launchWalkKernel(Kernel kernel, std::size_t sharedBytes, const Plan& plan, ConvParams p, int pad,
                      const DirectTaps& direct, cudaStream_t stream)
{
    const WalkTaps<KP> taps = walkTaps<KP>(*plan.data, pad);
    p.anchorX += pad;
    allowShared(kernel, sharedBytes);
    const dim3 grid(static_cast<unsigned>(plan.shape.gridX), static_cast<unsigned>(plan.shape.gridY));
    kernel<<<grid, kThreads, sharedBytes, stream>>>(p, taps, plan.shape.tileHeight, direct);
}

/// Whether a walking float kernel (`name` in its refusals) can take the query: rank 1, one
/// channel f32 in and out, 2 to kMaxTaps taps per side once padded to `paddedTaps`, its
/// `sharedBytes` within the device's limit.
inline Support walkSupport(const ShapeQuery& q, const std::string& name, int paddedTaps, std::size_t sharedBytes)
{
    if (Support spec = separableSpec(q); !spec) {
        return spec;
    }
    if (q.input.channels != 1 || q.input.depth != PixelDepth::F32 || q.kernelOutput.depth != PixelDepth::F32) {
        return Support::no(name + " takes one-channel f32 in and out only");
    }
    if (q.kw < 2 || q.kh < 2 || paddedTaps > kMaxTaps) {
        return Support::no(name + " takes 2 to " + std::to_string(kMaxTaps) +
                           " taps per side (row taps counted after aligning the anchor)");
    }
    if (sharedBytes > q.sharedLimit) {
        return Support::no(name + " needs " + std::to_string(sharedBytes) + " bytes of shared memory, the device has " +
                           std::to_string(q.sharedLimit));
    }
    return Support::yes();
}

/// The grid of a walking kernel: one block per strip and row segment, as many segments as fill
/// every SM's block slots (each at least one step), at most kSegmentRows rows each.
inline LaunchShape walkShape(const ShapeQuery& q, KernelVariant variant, std::size_t sharedBytes)
{
    LaunchShape s;
    s.blockX = kThreads;
    s.blockY = 1;
    s.tileWidth = kStripW;
    s.gridX = (q.width + kStripW - 1) / kStripW;
    const int slots = std::max(1, q.smCount) * kBlocksPerSm;
    const int maxSegments = (q.height + kStep - 1) / kStep;
    const int segments = std::clamp(slots / s.gridX, 1, maxSegments);
    s.tileHeight = std::min((q.height + segments - 1) / segments, kSegmentRows);
    s.gridY = (q.height + s.tileHeight - 1) / s.tileHeight;
    s.sharedBytes = sharedBytes;
    s.variant = variant;
    return s;
}

}  // namespace tessera::gpu::detail::float_walk
