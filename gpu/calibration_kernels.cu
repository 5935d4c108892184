// SPDX-License-Identifier: Apache-2.0
#include "gpu/calibration_kernels.cuh"
#include "gpu/cuda_check.cuh"

namespace tessera::gpu::detail {

namespace {

/// Every thread keeps kFmaChains values in registers and multiplies-adds each of them
/// `iterations` times; the chains do not depend on each other, so a warp can issue one FMA per
/// chain back to back. m and k come from the host so that nothing folds at compile time.
__global__ void fmaBurn(float* out, int iterations, float m, float k)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float v[kFmaChains];
#pragma unroll
    for (int c = 0; c < kFmaChains; ++c) {
        v[c] = static_cast<float>(tid + c) * 1e-7f;
    }
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int c = 0; c < kFmaChains; ++c) {
            v[c] = fmaf(v[c], m, k);
        }
    }
    float sum = 0.0f;
#pragma unroll
    for (int c = 0; c < kFmaChains; ++c) {
        sum += v[c];
    }
    out[tid] = sum;  // stored so the compiler keeps the loop
}

}  // namespace

double launchFmaBurn(float* out, int blocks, int threads, int iterations, cudaStream_t stream)
{
    fmaBurn<<<blocks, threads, 0, stream>>>(out, iterations, 0.999999f, 1e-6f);
    TESSERA_LAUNCH_CHECK("fmaBurn");
    return static_cast<double>(blocks) * threads * iterations * kFmaChains;
}

}  // namespace tessera::gpu::detail
