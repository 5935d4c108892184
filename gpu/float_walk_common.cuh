// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: what the two walking separable kernels for one-channel float images share
// (separable_walk.cu on FMAs, separable_tf32.cu on tensor cores): the padding of the row taps
// that aligns the window, the window loader and the launch geometry of a block walking down a
// column strip in row segments.

#include "gpu/kernel_common.cuh"
#include "gpu/plan_data.h"
#include "gpu/variant_support.h"
#include "gpu/window_loader.cuh"

#include <algorithm>
#include <cstdint>

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

constexpr int roundUp(int v, int m) { return (v + m - 1) / m * m; }

/// Zero taps put before the row taps so that the window starts on a 16-byte boundary.
inline int leftPad(int anchorX) { return (4 - anchorX % 4) % 4; }

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
