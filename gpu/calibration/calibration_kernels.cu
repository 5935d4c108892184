// SPDX-License-Identifier: Apache-2.0
#include "gpu/calibration/calibration_kernels.cuh"
#include "gpu/runtime/cuda_check.cuh"

#include "values/errors.h"
#include "tessera/gpu/values.h"

#include <algorithm>
#include <cstddef>
#include <limits>

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

/// Copies `quads` 16-byte words, kCopyQuads per thread: block b takes words kCopyQuads * 256 * b
/// onwards, its threads side by side, so that every load of a warp is one run of 512 bytes and a
/// thread's loads are all in flight before its first store. Then the `tail` bytes one by one.
constexpr int kCopyThreads = 256;
constexpr int kCopyQuads = 4;

__global__ void __launch_bounds__(kCopyThreads)
    copyQuads(const uint4* __restrict__ from, uint4* __restrict__ to, std::size_t quads, std::size_t tail)
{
    const std::size_t first = static_cast<std::size_t>(blockIdx.x) * kCopyThreads * kCopyQuads + threadIdx.x;
    uint4 v[kCopyQuads];
#pragma unroll
    for (int k = 0; k < kCopyQuads; ++k) {
        const std::size_t i = first + static_cast<std::size_t>(k) * kCopyThreads;
        if (i < quads) {
            v[k] = from[i];
        }
    }
#pragma unroll
    for (int k = 0; k < kCopyQuads; ++k) {
        const std::size_t i = first + static_cast<std::size_t>(k) * kCopyThreads;
        if (i < quads) {
            to[i] = v[k];
        }
    }
    if (blockIdx.x == 0 && threadIdx.x < tail) {
        reinterpret_cast<unsigned char*>(to + quads)[threadIdx.x] =
            reinterpret_cast<const unsigned char*>(from + quads)[threadIdx.x];
    }
}

}  // namespace

void launchCopy(void* to, const void* from, std::size_t bytes, cudaStream_t stream)
{
    if (bytes == 0) {
        return;
    }
    const std::size_t quads = bytes / 16;
    const std::size_t perBlock = static_cast<std::size_t>(kCopyThreads) * kCopyQuads;
    const std::size_t blocks = std::max<std::size_t>(1, (quads + perBlock - 1) / perBlock);
    if (blocks > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
        throw PreconditionError("launchCopy: more than 2^31 blocks of 16 KB");
    }
    copyQuads<<<static_cast<unsigned>(blocks), kCopyThreads, 0, stream>>>(static_cast<const uint4*>(from),
                                                                          static_cast<uint4*>(to), quads, bytes % 16);
    TESSERA_LAUNCH_CHECK("copyQuads");
}

double launchFmaBurn(float* out, int blocks, int threads, int iterations, cudaStream_t stream)
{
    fmaBurn<<<blocks, threads, 0, stream>>>(out, iterations, 0.999999f, 1e-6f);
    TESSERA_LAUNCH_CHECK("fmaBurn");
    return static_cast<double>(blocks) * threads * iterations * kFmaChains;
}

}  // namespace tessera::gpu::detail
