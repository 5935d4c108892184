// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the window loader of the walking kernels that stage their input in shared
// memory by cp.async (direct_rgba8_walk.cuh, direct_rgba8_imma.cu, separable_walk.cu,
// separable_tf32.cu).

#include "gpu/kernels/arch/async_copy.cuh"
#include "gpu/kernels/common/kernel_common.cuh"

#include <cstddef>

namespace tessera::gpu::detail {

/// Starts loading ROWS window rows of 4-byte pixels T from image row oy (columns ox .. ox +
/// COLS - 1) into raw, a row every STRIDE pixels, by the block's THREADS threads (this one is
/// number `tid`). Quads whose four pixels lie inside the image's columns go by cp.async from the
/// row the border rule picks; the rest (image edges, constant border rows) are copied pixel by
/// pixel (4-byte cp.async), `borderFill` outside. ox is a multiple of 4; `vectors`: the source
/// rows are 16-byte aligned.
template <typename T, int COLS, int STRIDE, int ROWS, int THREADS>
__device__ __forceinline__ void loadWindowRows(const ConvParams& p, T* raw, int ox, int oy, bool vectors, T borderFill,
                                               int tid)
{
    static_assert(sizeof(T) == 4 && COLS % 4 == 0 && STRIDE % 4 == 0, "quads of 4-byte pixels");
    constexpr int kQuads = COLS / 4;
    constexpr int kCount = ROWS * kQuads;
    if (vectors && ox >= 0 && oy >= 0 && ox + COLS <= p.width && oy + ROWS <= p.height) {
        // Whole window inside: nothing to map. Each thread copies one column of quads, a quad
        // every kRowsPerPass rows, stepping its two addresses: no division per quad. Each copy
        // also asks L2 for the 256-byte block around it, which holds the neighbouring threads'
        // quads and the next strip's halo (8192^2 on one H200: RGBA8 3x3 0.1628 -> 0.1606 ms;
        // the float walks within 1 %).
        constexpr int kRowsPerPass = THREADS / kQuads;
        static_assert(kRowsPerPass >= 1, "a row of quads per pass at least");
        const int r0 = tid / kQuads;
        if (r0 >= kRowsPerPass) {
            return;
        }
        const int q = tid - r0 * kQuads;
        const char* from = reinterpret_cast<const char*>(rowPtr<T>(p.src, p.srcPitch, oy + r0) + ox + 4 * q);
        T* to = raw + r0 * STRIDE + 4 * q;
        const std::size_t pass = static_cast<std::size_t>(p.srcPitch) * kRowsPerPass;
#pragma unroll
        for (int i = 0; i < (ROWS + kRowsPerPass - 1) / kRowsPerPass; ++i) {
            if (i * kRowsPerPass + r0 < ROWS) {
                copyAsync16<L2Fetch::Block256>(to, from);
            }
            to += kRowsPerPass * STRIDE;
            from += pass;
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
        // Pixel by pixel, still by cp.async: a plain load here holds the thread, and the block's
        // next barrier, for a round trip to memory per pixel, and the blocks at the image's left
        // and right edges pay that on every step (8192^2 on one H200: f32 Gaussian 31, TF32
        // walk, 0.2706 -> 0.2403 ms with this; the FMA walk at 15 taps 0.208 -> 0.187).
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int gx = mapBorder(x + k, p.width, p.border);
            if (gy >= 0 && gx >= 0) {
                copyAsync4(to + k, rowPtr<T>(p.src, p.srcPitch, gy) + gx);
            } else {
                to[k] = borderFill;
            }
        }
    }
}

}  // namespace tessera::gpu::detail
