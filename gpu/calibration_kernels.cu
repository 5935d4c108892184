// SPDX-License-Identifier: Apache-2.0
#include "gpu/calibration_kernels.cuh"
#include "gpu/cuda_check.cuh"

#include <algorithm>
#include <cstddef>

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

/// Copies `quads` 16-byte words, four per thread per round so that four loads are in flight
/// before the first store, then the `tail` bytes after them one by one.
__global__ void copyQuads(const uint4* __restrict__ from, uint4* __restrict__ to, std::size_t quads,
                          std::size_t tail)
{
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < quads; i += 4 * stride) {
        const uint4 a = from[i];
        const uint4 b = from[i + stride];
        const uint4 c = from[i + 2 * stride];
        const uint4 d = from[i + 3 * stride];
        to[i] = a;
        to[i + stride] = b;
        to[i + 2 * stride] = c;
        to[i + 3 * stride] = d;
    }
    for (; i < quads; i += stride) {
        to[i] = from[i];
    }
    const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t < tail) {
        reinterpret_cast<unsigned char*>(to + quads)[t] = reinterpret_cast<const unsigned char*>(from + quads)[t];
    }
}

}  // namespace

void launchCopy(void* to, const void* from, std::size_t bytes, int sms, cudaStream_t stream)
{
    if (bytes == 0) {
        return;
    }
    constexpr int threads = 256;
    const std::size_t quads = bytes / 16;
    const std::size_t tail = bytes % 16;
    const std::size_t wanted = (quads + 4 * threads - 1) / (4 * threads);
    const int blocks = static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(wanted, 8u * std::max(sms, 1))));
    copyQuads<<<blocks, threads, 0, stream>>>(static_cast<const uint4*>(from), static_cast<uint4*>(to), quads, tail);
    TESSERA_LAUNCH_CHECK("copyQuads");
}

double launchFmaBurn(float* out, int blocks, int threads, int iterations, cudaStream_t stream)
{
    fmaBurn<<<blocks, threads, 0, stream>>>(out, iterations, 0.999999f, 1e-6f);
    TESSERA_LAUNCH_CHECK("fmaBurn");
    return static_cast<double>(blocks) * threads * iterations * kFmaChains;
}

}  // namespace tessera::gpu::detail
