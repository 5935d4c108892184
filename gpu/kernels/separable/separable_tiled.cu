// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/common/direct_recompute.cuh"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/plan/plan_data.h"
#include "gpu/kernels/separable/separable_taps.cuh"

#include <stdexcept>
#include <string>

namespace tessera::gpu::detail {

// KernelVariant::SeparableTiled: the fused fp32 separable kernel, both passes in one
// shared-memory tile.

namespace {

constexpr int kTileW = 32;
constexpr int kBlockY = 8;
constexpr int kRowsPerThread = 4;
constexpr int kTileH = kBlockY * kRowsPerThread;
constexpr int kColsPerItem = 4;  // horizontal outputs per work item of the row pass
/// Fused separable correlation: the block loads its input window once, runs the horizontal
/// pass over every window row into a second shared buffer, then the vertical pass from there.
/// Intermediates never touch device memory, so each input byte comes from DRAM about once.
template <typename Tin, typename Tout, int C>
__global__ void __launch_bounds__(kTileW* kBlockY)
    separableKernel(const ConvParams p, const __grid_constant__ Fp32SeparableTaps taps)
{
    extern __shared__ float smem[];
    const int kw = p.kw;
    const int kh = p.kh;
    const int sw = kTileW + kw - 1;
    const int sh = kTileH + kh - 1;
    const int x0 = blockIdx.x * kTileW;
    const int y0 = blockIdx.y * kTileH;
    const int tx = threadIdx.x;
    const int plane = sw * sh;
    float* hbuf = smem + C * plane;  // sh rows x kTileW columns per channel
    const int hplane = sh * kTileW;

    loadTile<Tin, C, C>(p, smem, x0 - p.anchorX, y0 - p.anchorY, sw, sh, 0);
    __syncthreads();

    // Horizontal pass: each work item is kColsPerItem adjacent outputs of one window row, kept
    // in a sliding register window so every shared-memory value feeds kColsPerItem FMAs.
    constexpr int kGroups = kTileW / kColsPerItem;
    const int tid = threadIdx.y * kTileW + threadIdx.x;
    for (int item = tid; item < sh * kGroups; item += kTileW * kBlockY) {
        const int r = item / kGroups;
        const int col0 = (item - r * kGroups) * kColsPerItem;
        const float* srow = smem + r * sw + col0;
        // v[i] holds srow[kx + i]; taps go four at a time so that the values carried from one
        // group to the next are moved once per group rather than once per tap.
        constexpr int kSpan = 2 * kColsPerItem - 1;
        float v[kSpan][C];
        float h[kColsPerItem][C];
#pragma unroll
        for (int c = 0; c < C; ++c) {
#pragma unroll
            for (int j = 0; j < kColsPerItem; ++j) {
                h[j][c] = 0.0f;
            }
#pragma unroll
            for (int i = 0; i < kColsPerItem - 1; ++i) {
                v[i][c] = srow[c * plane + i];
            }
        }
        int kx = 0;
        for (; kx + kColsPerItem <= kw; kx += kColsPerItem) {
#pragma unroll
            for (int c = 0; c < C; ++c) {
#pragma unroll
                for (int i = kColsPerItem - 1; i < kSpan; ++i) {
                    v[i][c] = srow[c * plane + kx + i];
                }
            }
#pragma unroll
            for (int ti = 0; ti < kColsPerItem; ++ti) {
                const float t = taps.row[kx + ti];
#pragma unroll
                for (int j = 0; j < kColsPerItem; ++j) {
#pragma unroll
                    for (int c = 0; c < C; ++c) {
                        h[j][c] = fmaf(t, v[ti + j][c], h[j][c]);
                    }
                }
            }
#pragma unroll
            for (int i = 0; i < kColsPerItem - 1; ++i) {
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    v[i][c] = v[i + kColsPerItem][c];
                }
            }
        }
        for (; kx < kw; ++kx) {
#pragma unroll
            for (int c = 0; c < C; ++c) {
                v[kColsPerItem - 1][c] = srow[c * plane + kx + kColsPerItem - 1];
            }
            const float t = taps.row[kx];
#pragma unroll
            for (int j = 0; j < kColsPerItem; ++j) {
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    h[j][c] = fmaf(t, v[j][c], h[j][c]);
                }
            }
#pragma unroll
            for (int i = 0; i + 1 < kColsPerItem; ++i) {
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    v[i][c] = v[i + 1][c];
                }
            }
        }
#pragma unroll
        for (int j = 0; j < kColsPerItem; ++j) {
#pragma unroll
            for (int c = 0; c < C; ++c) {
                hbuf[c * hplane + r * kTileW + col0 + j] = h[j][c];
            }
        }
    }
    __syncthreads();

    const int ty0 = threadIdx.y * kRowsPerThread;
    float acc[kRowsPerThread][C];
#pragma unroll
    for (int o = 0; o < kRowsPerThread; ++o) {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            acc[o][c] = 0.0f;
        }
    }
    const int rows = kRowsPerThread + kh - 1;
    for (int r = 0; r < rows; ++r) {
        float v[C];
#pragma unroll
        for (int c = 0; c < C; ++c) {
            v[c] = hbuf[c * hplane + (ty0 + r) * kTileW + tx];
        }
#pragma unroll
        for (int o = 0; o < kRowsPerThread; ++o) {
            const int ky = r - o;
            if (ky >= 0 && ky < kh) {
                const float t = taps.col[ky];
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    acc[o][c] = fmaf(t, v[c], acc[o][c]);
                }
            }
        }
    }

    storeColumn<Tout, C, kRowsPerThread>(p, x0 + tx, y0 + ty0, acc);
}

template <typename Tin, typename Tout, int C>
void launchOne(const Plan& plan, const ConvParams& params, cudaStream_t stream)
{
    const Fp32SeparableTaps taps = separableTapsOf(plan);
    const auto& shape = plan.shape;
    auto kernel = separableKernel<Tin, Tout, C>;
    allowShared(kernel, shape.sharedBytes);
    const dim3 grid(static_cast<unsigned>(shape.gridX), static_cast<unsigned>(shape.gridY));
    kernel<<<grid, dim3(kTileW, kBlockY), shape.sharedBytes, stream>>>(params, taps);
    TESSERA_LAUNCH_CHECK("separableKernel");
}

/// Shared memory of the fused tile kernel: the input window and the row pass's output.
std::size_t tiledSharedBytes(const ShapeQuery& q)
{
    const std::size_t sh = static_cast<std::size_t>(kTileH + q.kh - 1);
    const std::size_t window = static_cast<std::size_t>(kTileW + q.kw - 1) * sh;
    return (window + sh * kTileW) * sizeof(float) * static_cast<std::size_t>(q.input.channels);
}

}  // namespace

Support canSeparableTiled(const ShapeQuery& q)
{
    if (Support spec = separableSpec(q); !spec) {
        return spec;
    }
    const std::size_t bytes = tiledSharedBytes(q);
    if (bytes > q.sharedLimit) {
        return Support::no("separable method: a " + std::to_string(q.kw) + " x " + std::to_string(q.kh) +
                           " kernel needs " + std::to_string(bytes) +
                           " bytes of shared memory to fuse, the device has " + std::to_string(q.sharedLimit));
    }
    return Support::yes();
}

LaunchShape separableTiledShape(const ShapeQuery& q)
{
    LaunchShape s;
    s.blockX = kTileW;
    s.blockY = kBlockY;
    s.tileWidth = kTileW;
    s.tileHeight = kTileH;
    s.gridX = (q.width + kTileW - 1) / kTileW;
    s.gridY = (q.height + kTileH - 1) / kTileH;
    s.sharedBytes = tiledSharedBytes(q);
    s.variant = KernelVariant::SeparableTiled;
    return s;
}

void runSeparableTiled(const LaunchArgs& a)
{
    const Plan& plan = a.plan;
    const ConvParams p = makeConvParams(plan.spec, a.src, a.dst);
    const cudaStream_t s = cudaStreamOf(a.stream);
    dispatchDepths(plan.input.depth, plan.data->kernelOutput.depth, "separable kernel",
                   [&]<typename Tin, typename Tout>() {
                       dispatchChannelCount(plan.input.channels, "separable kernel",
                                            [&]<int C>() { launchOne<Tin, Tout, C>(plan, p, s); });
                   });
}

}  // namespace tessera::gpu::detail
