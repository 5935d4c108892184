// SPDX-License-Identifier: Apache-2.0
#include "gpu/transform_guard.h"

#include "gpu/cuda_check.cuh"
#include "gpu/kernel_common.cuh"
#include "gpu/launch_common.cuh"

#include <algorithm>

namespace tessera::gpu::detail {

namespace {

constexpr int kThreads = 256;
// Enough blocks to fill the largest GPUs when the flag is set, few enough that a clean run's
// early exits cost about one launch.
constexpr int kBlocks = 1024;

/// One output per thread in a grid-stride loop, every tap through the border rule, summed in
/// fp32 in the direct kernels' order (rows, then columns): what a direct method gives.
template <typename TIn, typename TOut, int C>
__global__ void __launch_bounds__(kThreads)
    transformGuardKernel(const ConvParams p, const float* __restrict__ taps, const unsigned* __restrict__ flag)
{
    if (*flag == 0u) {
        return;
    }
    const long long pixels = static_cast<long long>(p.width) * p.height;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < pixels;
         i += static_cast<long long>(gridDim.x) * blockDim.x) {
        const int y = static_cast<int>(i / p.width);
        const int x = static_cast<int>(i - static_cast<long long>(y) * p.width);
        float acc[C];
#pragma unroll
        for (int c = 0; c < C; ++c) {
            acc[c] = 0.0f;
        }
        for (int ky = 0; ky < p.kh; ++ky) {
            const int sy = mapBorder(y + ky - p.anchorY, p.height, p.border);
            const TIn* row = sy >= 0 ? rowPtr<TIn>(p.src, p.srcPitch, sy) : nullptr;
            for (int kx = 0; kx < p.kw; ++kx) {
                const float w = taps[ky * p.kw + kx];
                const int sx = mapBorder(x + kx - p.anchorX, p.width, p.border);
                float v[C];
                if (row != nullptr && sx >= 0) {
                    loadPixel<TIn, C>(row, sx, v);
                } else {
#pragma unroll
                    for (int c = 0; c < C; ++c) {
                        v[c] = p.borderValue;
                    }
                }
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    acc[c] = fmaf(w, v[c], acc[c]);
                }
            }
        }
#pragma unroll
        for (int c = 0; c < C; ++c) {
            acc[c] += p.offset;
        }
        storePixel<TOut, C>(rowPtr<TOut>(p.dst, p.dstPitch, y), x, acc);
    }
}

}  // namespace

void resetTransformGuard(unsigned* flag, StreamView stream)
{
    TESSERA_CUDA_CHECK(cudaMemsetAsync(flag, 0, sizeof(unsigned), cudaStreamOf(stream)));
}

void launchTransformGuard(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, const float* taps,
                          const unsigned* flag, StreamView stream)
{
    const ConvParams p = makeConvParams(plan.spec, src, dst);
    const cudaStream_t s = cudaStreamOf(stream);
    const long long pixels = static_cast<long long>(p.width) * p.height;
    const auto blocks = static_cast<unsigned>(std::min<long long>(kBlocks, (pixels + kThreads - 1) / kThreads));
    dispatchDepths(src.format.depth, dst.format.depth, "transform guard", [&]<typename TIn, typename TOut>() {
        dispatchChannelCount(src.format.channels, "transform guard", [&]<int C>() {
            transformGuardKernel<TIn, TOut, C><<<blocks, kThreads, 0, s>>>(p, taps, flag);
            TESSERA_LAUNCH_CHECK("transformGuardKernel");
        });
    });
}

}  // namespace tessera::gpu::detail
