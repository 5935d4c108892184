// SPDX-License-Identifier: Apache-2.0
// KernelVariant::DirectTensorPersistent: direct correlation of 8-bit images on tensor cores for
// kernels of 32 or 64 taps per row (after anchor alignment), with persistent blocks that take
// 64 x 64 tiles from a counter in the workspace and read their taps from the plan's device copy.
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/tensor/direct_tensor_tile.cuh"
#include "gpu/kernels/tensor/tensor_conv.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace tessera::gpu::detail {

namespace {

/// The same for wide kernels (32 and 64 taps), whose windows fit at most twice in an SM:
/// persistent blocks that take tiles from a counter in the workspace (zero at launch) until
/// none are left, so that an SM that runs ahead takes more tiles and the SMs finish together,
/// with the tap rows converted once per block (from the plan's device copy of the padded
/// taps). The tiles cover output rows firstRow onwards (tilesX per tile row); rows above are
/// not computed.
template <int C, int K>
__global__ void __launch_bounds__(kThreads)
    tensorDirectPersistent(const ConvParams p, const float* __restrict__ taps, unsigned* counter, int firstRow,
                           int tilesX, int tiles)
{
    constexpr int COLS = 16 * steps(K);
    constexpr int SW = rowStride(COLS);
    constexpr int L = tapRowLength(K);
    extern __shared__ float4 tensorShared[];
    __shared__ int claimed;
    const int rows = kTile + p.kh - 1;
    const int plane = rows * SW;
    auto* win = reinterpret_cast<__half*>(tensorShared);
    __half* tapRows = win + C * plane;
    loadTapRows<L>(taps, p.kw, p.kh, tapRows, threadIdx.x, kThreads);
#pragma unroll 1
    for (;;) {
        if (threadIdx.x == 0) {
            claimed = static_cast<int>(atomicAdd(counter, 1u));
        }
        __syncthreads();  // the claim is visible, the tap rows are ready and the window is free
        const int t = claimed;
        if (t >= tiles) {
            break;
        }
        const int x0 = (t % tilesX) * kTile;
        const int y0 = firstRow + (t / tilesX) * kTile;
        loadWindow<C, COLS>(p, win, x0 - p.anchorX, y0 - p.anchorY, rows, SW, plane, threadIdx.x);
        __syncthreads();
        directTile<C, K>(p, win, tapRows, plane, x0, y0, threadIdx.x >> 5, threadIdx.x & 31);
    }
}

/// Blocks of `kernel` (kThreads threads, `bytes` of shared memory) resident at once on the
/// current device, looked up once per kernel, device and size. The first lookup per kernel and
/// device also lifts the kernel's dynamic shared memory limit to the device's maximum, so that
/// no later launch of any size needs to set it again. The CUDA calls run outside the lock, so
/// the first launches on several GPUs at once do not wait for each other.
template <typename Kernel>
int residentBlocks(Kernel kernel, std::size_t bytes, const char* what)
{
    static std::mutex mutex;
    static std::map<std::tuple<const void*, int, std::size_t>, int> known;  // (kernel, device, bytes) -> blocks
    int ordinal = 0;  // the CUDA API's own spelling of the current device
    check(cudaGetDevice(&ordinal), what, __FILE__, __LINE__);
    const auto key = std::make_tuple(reinterpret_cast<const void*>(kernel), ordinal, bytes);
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (const auto it = known.find(key); it != known.end()) {
            return it->second;
        }
    }
    // Setting the same attribute twice, should two threads get here together, is harmless.
    int optin = 0;
    cudaFuncAttributes attr{};
    check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, ordinal), what, __FILE__, __LINE__);
    check(cudaFuncGetAttributes(&attr, kernel), what, __FILE__, __LINE__);
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               optin - static_cast<int>(attr.sharedSizeBytes)),
          what, __FILE__, __LINE__);
    int sms = 0;
    int perSm = 0;
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ordinal), what, __FILE__, __LINE__);
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kThreads, bytes), what, __FILE__, __LINE__);
    const int blocks = std::max(1, perSm) * std::max(1, sms);
    const std::lock_guard<std::mutex> lock(mutex);
    known.emplace(key, blocks);
    return blocks;
}

}  // namespace

Support canDirectTensorPersistent(const ShapeQuery& q)
{
    if (Support s = tensorSupport(q, false); !s) {
        return s;
    }
    if (tensorClass(q, false) <= kWidestInlineClass) {
        return Support::no("kernels of at most " + std::to_string(kWidestInlineClass) +
                           " taps (after anchor alignment) run the non-persistent tensor-core kernel");
    }
    return Support::yes();
}

LaunchShape directTensorPersistentShape(const ShapeQuery& q)
{
    LaunchShape s = tensorTileShape(q.width, q.height);
    s.compiledSize = tensorClass(q, false);
    s.variant = KernelVariant::DirectTensorPersistent;
    s.sharedBytes = directSharedBytes(s.compiledSize, q.kh, q.input.channels);
    return s;
}

void runDirectTensorPersistent(const LaunchArgs& a)
{
    const Plan& plan = a.plan;
    ConvParams p = makeConvParams(plan.spec, a.src, a.dst);
    const int pad = leftPad(p.anchorX, plan.input.channels);
    const char* what = "tensorDirectPersistent launch";
    if (!plan.data->deviceTaps) {
        throw PreconditionError("tensor-core direct plan without its device taps");
    }
    DeviceTaps& onDevice = *plan.data->deviceTaps;
    std::call_once(onDevice.once, [&] {
        std::vector<float> padded(static_cast<std::size_t>(p.kw + pad) * static_cast<std::size_t>(p.kh), 0.0f);
        fillPaddedTaps(plan, p.kw, p.kh, pad, padded.data());
        onDevice.buffer = uploadNow(padded.data(), padded.size() * sizeof(float), plan.device);
    });
    const auto* taps = static_cast<const float*>(onDevice.buffer.data());
    p.kw += pad;
    p.anchorX += pad;
    // Persistent blocks over the tiles of the needed rows, as many as are resident at once (or
    // fewer when the tiles run out), taking tiles from a counter that starts at zero.
    const int first = std::clamp(a.rows.first, 0, plan.height);
    const int count = a.rows.count < 0 ? plan.height - first : std::min(a.rows.count, plan.height - first);
    const int tilesX = plan.shape.gridX;
    const int tiles = tilesX * ((count + kTile - 1) / kTile);
    if (tiles == 0) {
        return;
    }
    auto* counter = reinterpret_cast<unsigned*>(a.workspace + plan.data->tileCounterOffset);
    const cudaStream_t s = cudaStreamOf(a.stream);
    check(cudaMemsetAsync(counter, 0, sizeof(unsigned), s), what, __FILE__, __LINE__);
    dispatchChannelCount(plan.input.channels, what, [&]<int C>() {
        auto launch = [&]<int K>() {
            auto kernel = tensorDirectPersistent<C, K>;
            const int blocks = std::min(tiles, residentBlocks(kernel, plan.shape.sharedBytes, what));
            kernel<<<blocks, kThreads, plan.shape.sharedBytes, s>>>(p, taps, counter, first, tilesX, tiles);
            check(cudaGetLastError(), what, __FILE__, __LINE__);
        };
        switch (plan.shape.compiledSize) {
        case 32: launch.template operator()<32>(); break;
        case 64: launch.template operator()<64>(); break;
        default: throw PreconditionError("tensor-core kernel: no persistent width class");
        }
    });
}

}  // namespace tessera::gpu::detail
