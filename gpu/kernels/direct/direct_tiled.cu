// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/direct/direct_fixed.h"
#include "gpu/kernels/direct/direct_rgba8.h"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/plan/plan_data.h"

#include <stdexcept>
#include <string>

namespace tessera::gpu::detail {

namespace {

constexpr int kTileW = 32;  // one output column per thread of a warp
constexpr int kRowsPerThread = 4;
constexpr int kBlockY = 8;
constexpr int kTileH = kBlockY * kRowsPerThread;

/// Taps carried in the launch parameters (constant bank): no device global, so two streams can
/// run different filters at the same time.
template <int N>
struct InlineTaps {
    float w[N > 0 ? N : 1];
};

/// Adds the taps' contributions to kRowsPerThread outputs of one column. Each shared-memory row
/// is read once and used for every output row it reaches.
template <int G>
__device__ __forceinline__ void accumulateRows(const float* sbase, int sw, int plane, const float* w,
                                               float (&part)[kRowsPerThread][G], int kw, int kh)
{
    const int rows = kRowsPerThread + kh - 1;
    for (int r = 0; r < rows; ++r) {
        const float* srow = sbase + r * sw;
        for (int kx = 0; kx < kw; ++kx) {
            float v[G];
#pragma unroll
            for (int g = 0; g < G; ++g) {
                v[g] = srow[g * plane + kx];
            }
#pragma unroll
            for (int o = 0; o < kRowsPerThread; ++o) {
                const int ky = r - o;
                if (ky >= 0 && ky < kh) {
                    const float t = w[ky * kw + kx];
#pragma unroll
                    for (int g = 0; g < G; ++g) {
                        part[o][g] = fmaf(t, v[g], part[o][g]);
                    }
                }
            }
        }
    }
}

/// Direct correlation: the block loads its input window (tile plus halo) into shared memory
/// once, then each thread computes kRowsPerThread outputs of one column, all channels, reusing
/// every loaded row for each output row it touches. This is the path for sizes without a
/// compiled kernel (direct_fixed.cu). NT is the inline tap capacity (0: taps in global memory);
/// G channels are held in shared memory at once (C, or 1 for very large windows).
template <typename Tin, typename Tout, int C, int G, int NT>
__global__ void __launch_bounds__(kTileW* kBlockY)
    directKernel(const ConvParams p, const __grid_constant__ InlineTaps<NT> taps)
{
    extern __shared__ float smem[];
    const int kw = p.kw;
    const int kh = p.kh;
    const int sw = kTileW + kw - 1;
    const int sh = kTileH + kh - 1;
    const int x0 = blockIdx.x * kTileW;
    const int y0 = blockIdx.y * kTileH;
    const float* w = NT > 0 ? taps.w : p.globalTaps;
    const int tx = threadIdx.x;
    const int ty0 = threadIdx.y * kRowsPerThread;

    float acc[kRowsPerThread][C];
#pragma unroll
    for (int o = 0; o < kRowsPerThread; ++o) {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            acc[o][c] = 0.0f;
        }
    }

    for (int cb = 0; cb < C; cb += G) {
        if (cb > 0) {
            __syncthreads();
        }
        loadTile<Tin, C, G>(p, smem, x0 - p.anchorX, y0 - p.anchorY, sw, sh, cb);
        __syncthreads();

        float part[kRowsPerThread][G];
#pragma unroll
        for (int o = 0; o < kRowsPerThread; ++o) {
#pragma unroll
            for (int g = 0; g < G; ++g) {
                part[o][g] = 0.0f;
            }
        }
        const float* sbase = smem + ty0 * sw + tx;
        accumulateRows<G>(sbase, sw, sw * sh, w, part, kw, kh);
#pragma unroll
        for (int o = 0; o < kRowsPerThread; ++o) {
            if constexpr (G == C) {
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    acc[o][c] = part[o][c];
                }
            } else {
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    acc[o][c] = (c == cb) ? part[o][0] : acc[o][c];
                }
            }
        }
    }

    storeColumn<Tout, C, kRowsPerThread>(p, x0 + tx, y0 + ty0, acc);
}

template <typename Tin, typename Tout, int C, int G, int NT>
void launchOne(const ConvParams& params, const std::vector<float>& taps, const LaunchShape& shape, cudaStream_t stream)
{
    InlineTaps<NT> inlineTaps{};
    if constexpr (NT > 0) {
        for (size_t i = 0; i < taps.size(); ++i) {
            inlineTaps.w[i] = taps[i];
        }
    }
    auto kernel = directKernel<Tin, Tout, C, G, NT>;
    allowShared(kernel, shape.sharedBytes);
    const dim3 grid(static_cast<unsigned>(shape.gridX), static_cast<unsigned>(shape.gridY));
    const dim3 block(kTileW, kBlockY);
    kernel<<<grid, block, shape.sharedBytes, stream>>>(params, inlineTaps);
    TESSERA_LAUNCH_CHECK("directKernel");
}

template <typename Tin, typename Tout, int C>
void dispatchSize(const Plan& plan, const ConvParams& params, cudaStream_t stream)
{
    const auto& taps = plan.data->taps;
    const auto& shape = plan.shape;
    if (params.globalTaps != nullptr) {
        return launchOne<Tin, Tout, C, 1, 0>(params, taps, shape, stream);
    }
    if (taps.size() <= 1024) {
        return launchOne<Tin, Tout, C, C, 1024>(params, taps, shape, stream);
    }
    return launchOne<Tin, Tout, C, C, 4096>(params, taps, shape, stream);
}

}  // namespace

/// Largest tap count carried inline; larger kernels read taps from the workspace.
constexpr std::size_t kMaxInlineTaps = 4096;

namespace {

/// Shared memory of the tiled kernel: every channel's window at once when the taps travel
/// inline, one channel per pass otherwise.
std::size_t tiledSharedBytes(const ShapeQuery& q)
{
    const std::size_t window =
        static_cast<std::size_t>(kTileW + q.kw - 1) * static_cast<std::size_t>(kTileH + q.kh - 1);
    const bool inlineTaps = static_cast<std::size_t>(q.kw) * static_cast<std::size_t>(q.kh) <= kMaxInlineTaps;
    return window * sizeof(float) * static_cast<std::size_t>(inlineTaps ? q.input.channels : 1);
}

}  // namespace

Support canDirectTiled(const ShapeQuery& q)
{
    const std::size_t bytes = tiledSharedBytes(q);
    if (bytes > q.sharedLimit) {
        return Support::no("direct method: a " + std::to_string(q.kw) + " x " + std::to_string(q.kh) +
                           " kernel needs " + std::to_string(bytes) + " bytes of shared memory, the device has " +
                           std::to_string(q.sharedLimit));
    }
    return Support::yes();
}

LaunchShape directTiledShape(const ShapeQuery& q)
{
    LaunchShape s;
    s.blockX = kTileW;
    s.blockY = kBlockY;
    s.tileWidth = kTileW;
    s.tileHeight = kTileH;
    s.gridX = (q.width + kTileW - 1) / kTileW;
    s.gridY = (q.height + kTileH - 1) / kTileH;
    s.sharedBytes = tiledSharedBytes(q);
    s.variant = KernelVariant::DirectTiled;
    s.compiledSize = 0;
    return s;
}

void runDirectTiled(const LaunchArgs& a)
{
    const ConvParams p = directParams(a);
    const Plan& plan = a.plan;
    const cudaStream_t s = cudaStreamOf(a.stream);
    dispatchDepths(plan.input.depth, plan.data->kernelOutput.depth, "direct kernel",
                   [&]<typename Tin, typename Tout>() {
                       dispatchChannelCount(plan.input.channels, "direct kernel",
                                            [&]<int C>() { dispatchSize<Tin, Tout, C>(plan, p, s); });
                   });
}

}  // namespace tessera::gpu::detail
