// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/tensor/tensor_common.cuh"
#include "gpu/kernels/tensor/tensor_conv.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <vector>

// The tensor-core direct kernels and their launcher (geometry and helpers: tensor_common.cuh).

namespace tessera::gpu::detail {

namespace {

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

/// Direct correlation for 8-bit images on tensor cores, one 64 x 64 tile per block of four
/// warps: the form for narrow kernels, whose small windows let three blocks share an SM.
template <int C, int K>
__global__ void __launch_bounds__(kThreads)
    tensorDirectKernel(const ConvParams p, const __grid_constant__ DirectTaps taps)
{
    constexpr int COLS = 16 * steps(K);
    constexpr int SW = rowStride(COLS);
    constexpr int L = tapRowLength(K);
    extern __shared__ float4 tensorShared[];
    auto* win = reinterpret_cast<__half*>(tensorShared);
    const int rows = kTile + p.kh - 1;
    const int plane = rows * SW;
    __half* tapRows = win + C * plane;

    const int x0 = blockIdx.x * kTile;
    const int y0 = blockIdx.y * kTile;
    loadWindow<C, COLS>(p, win, x0 - p.anchorX, y0 - p.anchorY, rows, SW, plane, threadIdx.x);
    loadTapRows<L>(taps.w, p.kw, p.kh, tapRows, threadIdx.x, kThreads);
    __syncthreads();
    directTile<C, K>(p, win, tapRows, plane, x0, y0, threadIdx.x >> 5, threadIdx.x & 31);
}

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

void launchTensorDirect(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, unsigned* counter,
                        RowSpan rows, StreamView stream)
{
    ConvParams p = makeConvParams(plan.spec, src, dst);
    const int pad = leftPad(p.anchorX, plan.input.channels);
    const int kw = p.kw + pad;
    // Tap r, j goes to r * kw + pad + j: rows padded on the left to the window's alignment.
    auto fillTaps = [&](float* w) {
        for (int r = 0; r < p.kh; ++r) {
            for (int j = 0; j < p.kw; ++j) {
                w[r * kw + pad + j] = plan.data->taps[static_cast<std::size_t>(r * p.kw + j)];
            }
        }
    };
    const char* what = "tensorDirectKernel launch";
    if (plan.shape.variant == KernelVariant::DirectTensor) {
        DirectTaps taps{};
        fillTaps(taps.w);
        p.kw = kw;
        p.anchorX += pad;
        // Only the narrow classes get here; the wide ones are not instantiated in this form.
        launchTensorKernel(plan, p, taps, stream, what,
                           [&]<int C, int K>() { return tensorDirectKernel<C, (K <= 16 ? K : 16)>; });
        return;
    }
    if (!plan.data->deviceTaps) {
        throw PreconditionError("tensor-core direct plan without its device taps");
    }
    DeviceTaps& onDevice = *plan.data->deviceTaps;
    std::call_once(onDevice.once, [&] {
        std::vector<float> padded(static_cast<std::size_t>(kw) * static_cast<std::size_t>(p.kh), 0.0f);
        fillTaps(padded.data());
        onDevice.buffer = uploadNow(padded.data(), padded.size() * sizeof(float), plan.device);
    });
    const auto* taps = static_cast<const float*>(onDevice.buffer.data());
    p.kw = kw;
    p.anchorX += pad;
    // Persistent blocks over the tiles of the needed rows, as many as are resident at once (or
    // fewer when the tiles run out), taking tiles from a counter that starts at zero.
    const int first = std::clamp(rows.first, 0, plan.height);
    const int count = rows.count < 0 ? plan.height - first : std::min(rows.count, plan.height - first);
    const int tilesX = plan.shape.gridX;
    const int tiles = tilesX * ((count + kTile - 1) / kTile);
    if (tiles == 0) {
        return;
    }
    const cudaStream_t s = cudaStreamOf(stream);
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
