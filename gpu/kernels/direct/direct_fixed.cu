// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/direct/direct_fixed.h"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/plan/plan_data.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tessera::gpu::detail {

namespace {

template <int N>
struct FixedTaps {
    float w[N];
};

/// Fills the shared window (SW x SH pixels, all channels in planes). The size is known at
/// compile time, so the flat index splits into row and column with a multiply, and every load
/// of the thread is issued before the first store: many bytes in flight per SM, which is what
/// the memory-bound small kernels need. Whole-window-inside blocks skip the border mapping.
template <typename T, int C, int SW, int SH>
__device__ __forceinline__ void loadWindow(const ConvParams& p, float* s, int ox, int oy)
{
    constexpr int kCount = SW * SH;
    constexpr int kThreads = 256;
    constexpr int kIters = (kCount + kThreads - 1) / kThreads;
    const bool inside = ox >= 0 && oy >= 0 && ox + SW <= p.width && oy + SH <= p.height;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    float v[kIters][C];
#pragma unroll
    for (int it = 0; it < kIters; ++it) {
        const int i = tid + it * kThreads;
        if (it + 1 < kIters || i < kCount) {
            const int row = i / SW;
            const int col = i - row * SW;
            fetchPixel<T, C>(p, ox + col, oy + row, inside, v[it]);
        }
    }
#pragma unroll
    for (int it = 0; it < kIters; ++it) {
        const int i = tid + it * kThreads;
        if (it + 1 < kIters || i < kCount) {
#pragma unroll
            for (int c = 0; c < C; ++c) {
                s[c * kCount + i] = v[it][c];
            }
        }
    }
}

/// Reads N consecutive floats starting at an address aligned to V floats, with V-wide loads.
template <int V, int N>
__device__ __forceinline__ void loadSegment(const float* from, float (&seg)[N])
{
    static_assert(N % V == 0, "segment must be whole vectors");
    if constexpr (V == 4) {
#pragma unroll
        for (int i = 0; i < N / 4; ++i) {
            const float4 q = reinterpret_cast<const float4*>(from)[i];
            seg[4 * i] = q.x;
            seg[4 * i + 1] = q.y;
            seg[4 * i + 2] = q.z;
            seg[4 * i + 3] = q.w;
        }
    } else {
#pragma unroll
        for (int i = 0; i < N / 2; ++i) {
            const float2 q = reinterpret_cast<const float2*>(from)[i];
            seg[2 * i] = q.x;
            seg[2 * i + 1] = q.y;
        }
    }
}

/// Direct correlation with the kernel size fixed at compile time. Each thread computes a strip
/// of OX x OY outputs (all channels): every window row it needs is read once from shared memory
/// with vector loads into registers and then feeds up to OY x K x OX FMAs whose taps are
/// immediate constant-bank operands. This keeps shared-memory traffic far below the FMA rate.
template <typename Tin, typename Tout, int C, int K>
__global__ void __launch_bounds__(256, 1)
    directFixedKernel(const ConvParams p, const __grid_constant__ FixedTaps<K * K> taps)
{
    constexpr int OX = fixedOutX(C);
    constexpr int OY = fixedOutY(C);
    constexpr int SW = fixedWindowStride(K, C);
    constexpr int SH = fixedTileH(C) + K - 1;
    constexpr int PLANE = SW * SH;
    constexpr int SEG = (OX + K - 1 + OX - 1) / OX * OX;
    extern __shared__ float4 sharedWindow[];
    float* smem = reinterpret_cast<float*>(sharedWindow);

    const int x0 = blockIdx.x * fixedTileW(C);
    const int y0 = blockIdx.y * fixedTileH(C);
    loadWindow<Tin, C, SW, SH>(p, smem, x0 - p.anchorX, y0 - p.anchorY);
    __syncthreads();

    const int cx = threadIdx.x * OX;
    const int ry = threadIdx.y * OY;
    float acc[OY][OX][C];
#pragma unroll
    for (int o = 0; o < OY; ++o) {
#pragma unroll
        for (int j = 0; j < OX; ++j) {
#pragma unroll
            for (int c = 0; c < C; ++c) {
                acc[o][j][c] = 0.0f;
            }
        }
    }

#pragma unroll
    for (int r = 0; r < OY + K - 1; ++r) {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            float seg[SEG];
            loadSegment<OX>(smem + c * PLANE + (ry + r) * SW + cx, seg);
#pragma unroll
            for (int o = 0; o < OY; ++o) {
                const int ky = r - o;
                if (ky >= 0 && ky < K) {
#pragma unroll
                    for (int kx = 0; kx < K; ++kx) {
                        const float t = taps.w[ky * K + kx];
#pragma unroll
                        for (int j = 0; j < OX; ++j) {
                            acc[o][j][c] = fmaf(t, seg[j + kx], acc[o][j][c]);
                        }
                    }
                }
            }
            // Keeps the compiler from hoisting later rows' loads above this row's FMAs, which
            // would hold several segments live at once and spill.
            asm volatile("" ::: "memory");
        }
    }

    const int xs = x0 + cx;
#pragma unroll
    for (int o = 0; o < OY; ++o) {
        const int y = y0 + ry + o;
        if (y >= p.height) {
            break;
        }
        Tout* row = rowPtr<Tout>(p.dst, p.dstPitch, y);
        storeStrip<Tout, C, OX>(row, xs, p.width, p.offset, acc[o]);
    }
}

template <typename Tin, typename Tout, int C, int K>
void launchFixed(const ConvParams& params, const Plan& plan, cudaStream_t stream)
{
    FixedTaps<K * K> taps{};
    for (int i = 0; i < K * K; ++i) {
        taps.w[i] = plan.data->taps[static_cast<std::size_t>(i)];
    }
    auto kernel = directFixedKernel<Tin, Tout, C, K>;
    const std::size_t shared = fixedSharedBytes(K, C);
    allowShared(kernel, shared);
    const dim3 grid(static_cast<unsigned>(plan.shape.gridX), static_cast<unsigned>(plan.shape.gridY));
    kernel<<<grid, dim3(32, 8), shared, stream>>>(params, taps);
    TESSERA_LAUNCH_CHECK("directFixedKernel");
}

template <typename Tin, typename Tout, int C>
void dispatchK(const ConvParams& params, const Plan& plan, cudaStream_t stream)
{
    switch (plan.shape.compiledSize) {
    case 3: return launchFixed<Tin, Tout, C, 3>(params, plan, stream);
    case 5: return launchFixed<Tin, Tout, C, 5>(params, plan, stream);
    case 7: return launchFixed<Tin, Tout, C, 7>(params, plan, stream);
    case 9: return launchFixed<Tin, Tout, C, 9>(params, plan, stream);
    case 11: return launchFixed<Tin, Tout, C, 11>(params, plan, stream);
    case 13: return launchFixed<Tin, Tout, C, 13>(params, plan, stream);
    case 15: return launchFixed<Tin, Tout, C, 15>(params, plan, stream);
    default: throw PreconditionError("no fixed-size direct kernel of side " + std::to_string(plan.shape.compiledSize));
    }
}

}  // namespace

Support canDirectFixed(const ShapeQuery& q)
{
    if (!hasFixedDirect(q.kw, q.kh)) {
        return Support::no("fixed-size direct kernels are compiled for square odd sizes 3 to 15 only, not " +
                           std::to_string(q.kw) + " x " + std::to_string(q.kh));
    }
    const std::size_t bytes = fixedSharedBytes(q.kw, q.input.channels);
    if (bytes > q.sharedLimit) {
        return Support::no("the fixed-size direct kernel needs " + std::to_string(bytes) +
                           " bytes of shared memory, the device has " + std::to_string(q.sharedLimit));
    }
    return Support::yes();
}

LaunchShape directFixedShape(const ShapeQuery& q)
{
    const int channels = q.input.channels;
    LaunchShape s;
    s.blockX = 32;
    s.blockY = 8;
    s.tileWidth = fixedTileW(channels);
    s.tileHeight = fixedTileH(channels);
    s.gridX = (q.width + s.tileWidth - 1) / s.tileWidth;
    s.gridY = (q.height + s.tileHeight - 1) / s.tileHeight;
    s.sharedBytes = fixedSharedBytes(q.kw, channels);
    s.variant = KernelVariant::DirectFixed;
    s.compiledSize = q.kw;
    return s;
}

void runDirectFixed(const LaunchArgs& a)
{
    const Plan& plan = a.plan;
    const ConvParams params = directParams(a);
    const cudaStream_t s = cudaStreamOf(a.stream);
    dispatchDepths(plan.input.depth, plan.data->kernelOutput.depth, "direct kernel",
                   [&]<typename Tin, typename Tout>() {
                       dispatchChannelCount(plan.input.channels, "direct kernel",
                                            [&]<int C>() { dispatchK<Tin, Tout, C>(params, plan, s); });
                   });
}

}  // namespace tessera::gpu::detail
