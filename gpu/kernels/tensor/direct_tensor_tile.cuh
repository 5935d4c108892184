// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: what the two tensor-core direct variants (direct_tensor.cu,
// direct_tensor_persistent.cu) share: one 64 x 64 output tile from its window in shared
// memory, and the taps padded to the window's alignment.

#include "gpu/kernels/tensor/tensor_common.cuh"
#include "gpu/plan/plan_data.h"

namespace tessera::gpu::detail {

/// One 64 x 64 output tile of the direct correlation from its window in shared memory: warp
/// `warp` (0..3) owns 16 rows x 64 columns x all channels and sums the 1D products of every
/// kernel row, then stores its rows.
template <int C, int K>
__device__ __forceinline__ void directTile(const ConvParams& p, const __half* win, const __half* tapRows, int plane,
                                           int x0, int y0, int warp, int lane)
{
    constexpr int F = fragCount(K);
    constexpr int SW = rowStride(16 * steps(K));
    constexpr int L = tapRowLength(K);
    float acc[C][kGroups][4];
    fillZero(acc);
    const __half* band = win + (warp * 16 + (lane & 15)) * SW + (lane >> 4) * 8;
    for (int ky = 0; ky < p.kh; ++ky) {
        std::uint32_t b[F][2];
        buildFragments<F>(tapRows + ky * L, b);
#pragma unroll
        for (int c = 0; c < C; ++c) {
            correlateBand<K>(band + c * plane + ky * SW, b, acc[c]);
        }
    }

    // Lane (g, q) of group t holds columns 8t + 2q, +1 of rows g and g + 8.
    const int g = lane >> 2;
    const int q = lane & 3;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int y = y0 + warp * 16 + g + 8 * h;
        if (y < p.height) {
            auto* row = rowPtr<std::uint8_t>(p.dst, p.dstPitch, y);
#pragma unroll
            for (int t = 0; t < kGroups; ++t) {
                float v[2][C];
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    v[0][c] = acc[c][t][2 * h];
                    v[1][c] = acc[c][t][2 * h + 1];
                }
                storeStrip<std::uint8_t, C, 2>(row, x0 + 8 * t + 2 * q, p.width, p.offset, v);
            }
        }
    }
}

/// The plan's taps, row r tap j at r * (kw + pad) + pad + j: rows padded on the left to the
/// window's alignment (pad = leftPad(anchorX, channels)); `w` holds kh * (kw + pad) floats, zeroed.
inline void fillPaddedTaps(const Plan& plan, int kw, int kh, int pad, float* w)
{
    const int stride = kw + pad;
    for (int r = 0; r < kh; ++r) {
        for (int j = 0; j < kw; ++j) {
            w[r * stride + pad + j] = plan.data->taps[static_cast<std::size_t>(r * kw + j)];
        }
    }
}

}  // namespace tessera::gpu::detail
