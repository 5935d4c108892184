// SPDX-License-Identifier: Apache-2.0
// KernelVariant::DirectTensor: direct correlation of 8-bit images on tensor cores for kernels of
// at most 16 taps per row (after anchor alignment), one 64 x 64 tile per block with the taps in
// the launch parameters. Wider kernels run direct_tensor_persistent.cu.
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/tensor/direct_tensor_tile.cuh"
#include "gpu/kernels/tensor/tensor_conv.h"

#include <string>

namespace tessera::gpu::detail {

namespace {

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

}  // namespace

Support canDirectTensor(const ShapeQuery& q)
{
    if (Support s = tensorSupport(q, false); !s) {
        return s;
    }
    if (tensorClass(q, false) > kWidestInlineClass) {
        return Support::no("kernels wider than " + std::to_string(kWidestInlineClass) +
                           " taps (after anchor alignment) run the persistent tensor-core kernel");
    }
    return Support::yes();
}

LaunchShape directTensorShape(const ShapeQuery& q)
{
    LaunchShape s = tensorTileShape(q.width, q.height);
    s.compiledSize = tensorClass(q, false);
    s.variant = KernelVariant::DirectTensor;
    s.sharedBytes = directSharedBytes(s.compiledSize, q.kh, q.input.channels);
    return s;
}

void runDirectTensor(const LaunchArgs& a)
{
    const Plan& plan = a.plan;
    ConvParams p = makeConvParams(plan.spec, a.src, a.dst);
    const int pad = leftPad(p.anchorX, plan.input.channels);
    DirectTaps taps{};
    fillPaddedTaps(plan, p.kw, p.kh, pad, taps.w);
    p.kw += pad;
    p.anchorX += pad;
    // Only the narrow classes get here; the wide ones are not instantiated in this form.
    launchTensorKernel(plan, p, taps, a.stream, "tensorDirectKernel launch",
                       [&]<int C, int K>() { return tensorDirectKernel<C, (K <= 16 ? K : 16)>; });
}

}  // namespace tessera::gpu::detail
