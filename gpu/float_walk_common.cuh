// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: what the two walking separable kernels for one-channel float images share
// (separable_walk.cu on FMAs, separable_tf32.cu on tensor cores): the padding of the row taps
// that aligns the window, the window loader and the launch geometry of a block walking down a
// column strip in row segments.

#include "gpu/async_copy.cuh"
#include "gpu/kernel_common.cuh"
#include "gpu/variant_support.h"

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

/// Starts loading ROWS window rows from image row oy (columns ox .. ox + COLS - 1) into raw, a
/// row every STRIDE floats. Quads whose four pixels lie inside the image's columns go by
/// cp.async from the row the border rule picks; the rest (image edges, constant border rows) are
/// filled value by value. ox is a multiple of 4.
template <int COLS, int STRIDE, int ROWS>
__device__ __forceinline__ void loadRows(const ConvParams& p, float* raw, int ox, int oy, bool vectors)
{
    constexpr int kQuads = COLS / 4;
    constexpr int kCount = ROWS * kQuads;
    if (vectors && ox >= 0 && oy >= 0 && ox + COLS <= p.width && oy + ROWS <= p.height) {
        // Whole window inside: nothing to map, every quad one cp.async.
        const char* first = reinterpret_cast<const char*>(rowPtr<float>(p.src, p.srcPitch, oy) + ox);
        for (int i = threadIdx.x; i < kCount; i += kThreads) {
            const int r = i / kQuads;
            const int q = i - r * kQuads;
            copyAsync16(raw + r * STRIDE + 4 * q,
                        reinterpret_cast<const float*>(first + static_cast<std::size_t>(r) * p.srcPitch) + 4 * q);
        }
        return;
    }
    for (int i = threadIdx.x; i < kCount; i += kThreads) {
        const int r = i / kQuads;
        const int q = i - r * kQuads;
        const int x = ox + 4 * q;
        const int gy = mapBorder(oy + r, p.height, p.border);
        float* to = raw + r * STRIDE + 4 * q;
        if (gy >= 0 && vectors && x >= 0 && x + 4 <= p.width) {
            copyAsync16(to, rowPtr<float>(p.src, p.srcPitch, gy) + x);
            continue;
        }
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int gx = mapBorder(x + k, p.width, p.border);
            to[k] = gy >= 0 && gx >= 0 ? rowPtr<float>(p.src, p.srcPitch, gy)[gx] : p.borderValue;
        }
    }
}

/// Copies intermediate rows kStep .. kStep + KP - 1 to rows 0 .. KP - 1 (the next step's
/// first KP rows); STRIDE is a multiple of 4.
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
