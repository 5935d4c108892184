// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the window loader of the walking kernels that stage their input in shared
// memory by cp.async (direct_rgba8.cu, separable_walk.cu, separable_tf32.cu).

#include "gpu/async_copy.cuh"
#include "gpu/kernel_common.cuh"

#include <cstddef>

namespace tessera::gpu::detail {

/// Starts loading ROWS window rows of 4-byte pixels T from image row oy (columns ox .. ox +
/// COLS - 1) into raw, a row every STRIDE pixels, by the block's THREADS threads (this one is
/// number `tid`). Quads whose four pixels lie inside the image's columns go by cp.async from the
/// row the border rule picks; the rest (image edges, constant border rows) are filled pixel by
/// pixel, `borderFill` outside. ox is a multiple of 4; `vectors`: the source rows are 16-byte
/// aligned.
template <typename T, int COLS, int STRIDE, int ROWS, int THREADS>
__device__ __forceinline__ void loadWindowRows(const ConvParams& p, T* raw, int ox, int oy, bool vectors, T borderFill,
                                               int tid)
{
    static_assert(sizeof(T) == 4 && COLS % 4 == 0 && STRIDE % 4 == 0, "quads of 4-byte pixels");
    constexpr int kQuads = COLS / 4;
    constexpr int kCount = ROWS * kQuads;
    if (vectors && ox >= 0 && oy >= 0 && ox + COLS <= p.width && oy + ROWS <= p.height) {
        // Whole window inside: nothing to map, every quad one cp.async.
        const char* first = reinterpret_cast<const char*>(rowPtr<T>(p.src, p.srcPitch, oy) + ox);
        for (int i = tid; i < kCount; i += THREADS) {
            const int r = i / kQuads;
            const int q = i - r * kQuads;
            copyAsync16(raw + r * STRIDE + 4 * q,
                        reinterpret_cast<const T*>(first + static_cast<std::size_t>(r) * p.srcPitch) + 4 * q);
        }
        return;
    }
    for (int i = tid; i < kCount; i += THREADS) {
        const int r = i / kQuads;
        const int q = i - r * kQuads;
        const int x = ox + 4 * q;
        const int gy = mapBorder(oy + r, p.height, p.border);
        T* to = raw + r * STRIDE + 4 * q;
        if (gy >= 0 && vectors && x >= 0 && x + 4 <= p.width) {
            copyAsync16(to, rowPtr<T>(p.src, p.srcPitch, gy) + x);
            continue;
        }
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int gx = mapBorder(x + k, p.width, p.border);
            to[k] = gy >= 0 && gx >= 0 ? rowPtr<T>(p.src, p.srcPitch, gy)[gx] : borderFill;
        }
    }
}

}  // namespace tessera::gpu::detail
