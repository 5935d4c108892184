// SPDX-License-Identifier: Apache-2.0
// KernelVariant::SeparableTwoPass: the fp32 separable method for kernels whose fused window does
// not fit in shared memory: a row pass into a float intermediate in the workspace, then a
// column pass from it.
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/kernels/separable/separable_taps.cuh"

namespace tessera::gpu::detail {

namespace {

/// Fallback for kernels whose fused window does not fit in shared memory: the horizontal pass
/// writes a float intermediate (H x W x C) in the workspace, the vertical pass reads it. Rows
/// outside the image map to intermediate rows by the border rule (a row filter commutes with
/// choosing rows); constant-border rows are borderValue times the row taps' sum.
template <typename Tin, int C>
__global__ void rowPassKernel(const ConvParams p, const __grid_constant__ Fp32SeparableTaps taps, float* mid,
                              std::size_t midPitch)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) {
        return;
    }
    const Tin* row = rowPtr<Tin>(p.src, p.srcPitch, y);
    float acc[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
        acc[c] = 0.0f;
    }
    for (int kx = 0; kx < p.kw; ++kx) {
        const int gx = mapBorder(x - p.anchorX + kx, p.width, p.border);
        float v[C];
        if (gx < 0) {
#pragma unroll
            for (int c = 0; c < C; ++c) {
                v[c] = p.borderValue;
            }
        } else {
            loadPixel<Tin, C>(row, gx, v);
        }
        const float t = taps.row[kx];
#pragma unroll
        for (int c = 0; c < C; ++c) {
            acc[c] = fmaf(t, v[c], acc[c]);
        }
    }
    float* out = rowPtr<float>(mid, midPitch, y) + static_cast<std::size_t>(x) * C;
#pragma unroll
    for (int c = 0; c < C; ++c) {
        out[c] = acc[c];
    }
}

template <typename Tout, int C>
__global__ void columnPassKernel(const ConvParams p, const __grid_constant__ Fp32SeparableTaps taps, const float* mid,
                                 std::size_t midPitch, float constantRow)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.width || y >= p.height) {
        return;
    }
    float acc[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
        acc[c] = 0.0f;
    }
    for (int ky = 0; ky < p.kh; ++ky) {
        const int gy = mapBorder(y - p.anchorY + ky, p.height, p.border);
        const float t = taps.col[ky];
        if (gy < 0) {
#pragma unroll
            for (int c = 0; c < C; ++c) {
                acc[c] = fmaf(t, constantRow, acc[c]);
            }
        } else {
            const float* in = rowPtr<float>(mid, midPitch, gy) + static_cast<std::size_t>(x) * C;
#pragma unroll
            for (int c = 0; c < C; ++c) {
                acc[c] = fmaf(t, in[c], acc[c]);
            }
        }
    }
#pragma unroll
    for (int c = 0; c < C; ++c) {
        acc[c] += p.offset;
    }
    storePixel<Tout, C>(rowPtr<Tout>(p.dst, p.dstPitch, y), x, acc);
}

template <typename Tin, typename Tout, int C>
void launchPasses(const Plan& plan, const ConvParams& params, cudaStream_t stream)
{
    const Fp32SeparableTaps taps = separableTapsOf(plan);
    const dim3 block(32, 8);
    const dim3 grid(static_cast<unsigned>((params.width + 31) / 32), static_cast<unsigned>((params.height + 7) / 8));
    const std::size_t midPitch = static_cast<std::size_t>(params.width) * C * sizeof(float);
    float rowSum = 0.0f;
    for (float t : plan.data->rowTaps) {
        rowSum += t;
    }
    rowPassKernel<Tin, C><<<grid, block, 0, stream>>>(params, taps, params.scratch, midPitch);
    TESSERA_LAUNCH_CHECK("rowPassKernel");
    columnPassKernel<Tout, C>
        <<<grid, block, 0, stream>>>(params, taps, params.scratch, midPitch, params.borderValue * rowSum);
    TESSERA_LAUNCH_CHECK("columnPassKernel");
}

}  // namespace

Support canSeparableTwoPass(const ShapeQuery& q)
{
    // Any rank-1 kernel the launch parameters hold: the passes need no shared memory.
    return separableSpec(q);
}

LaunchShape separableTwoPassShape(const ShapeQuery& q)
{
    LaunchShape s;
    s.blockX = 32;
    s.blockY = 8;
    s.tileWidth = 32;
    s.tileHeight = 8;
    s.gridX = (q.width + 31) / 32;
    s.gridY = (q.height + 7) / 8;
    s.variant = KernelVariant::SeparableTwoPass;
    return s;
}

void runSeparableTwoPass(const LaunchArgs& a)
{
    const Plan& plan = a.plan;
    ConvParams p = makeConvParams(plan.spec, a.src, a.dst);
    p.scratch = reinterpret_cast<float*>(a.workspace + plan.data->separableWorkspaceOffset);
    const cudaStream_t s = cudaStreamOf(a.stream);
    dispatchDepths(plan.input.depth, plan.data->kernelOutput.depth, "separable kernel",
                   [&]<typename Tin, typename Tout>() {
                       dispatchChannelCount(plan.input.channels, "separable kernel",
                                            [&]<int C>() { launchPasses<Tin, Tout, C>(plan, p, s); });
                   });
}

}  // namespace tessera::gpu::detail
