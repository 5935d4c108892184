// SPDX-License-Identifier: Apache-2.0
#include "gpu/kernels/tensor/tensor_common.cuh"
#include "gpu/kernels/tensor/tensor_conv.h"
#include "gpu/plan/variant_support.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

// KernelVariant::SeparableTensor: the fused tensor-core separable kernel (for kernels wider than
// the walking form takes), and what every tensor-core variant shares: the width classes, the
// refusals and the error bound (tensor_conv.h).

namespace tessera::gpu::detail {

namespace {

/// Separable correlation for 8-bit images on tensor cores, fused: per channel, the row pass
/// writes a transposed fp16 intermediate (64 columns x 16 S window rows) to shared memory and
/// the column pass runs the same 1D product over it; outputs of all channels stay in registers.
template <int C, int K>
__global__ void __launch_bounds__(kThreads, 2)
    tensorSeparableKernel(const ConvParams p, const __grid_constant__ SeparableTaps taps)
{
    constexpr int F = fragCount(K);
    constexpr int S = steps(K);
    constexpr int COLS = 16 * S;
    constexpr int ROWS = 16 * S;
    constexpr int SW = rowStride(COLS);
    constexpr int ST = rowStride(ROWS);
    constexpr int L = tapRowLength(K);
    constexpr int PLANE = ROWS * SW;
    extern __shared__ float4 tensorShared[];
    auto* win = reinterpret_cast<__half*>(tensorShared);
    __half* mid = win + C * PLANE;  // mid[x * ST + j]: row-pass output of window row j, column x
    __half* rowTaps = mid + kTile * ST;
    __half* colTaps = rowTaps + L;

    const int x0 = blockIdx.x * kTile;
    const int y0 = blockIdx.y * kTile;
    loadWindow<C, COLS>(p, win, x0 - p.anchorX, y0 - p.anchorY, ROWS, SW, PLANE, threadIdx.x);
    loadTapRows<L>(taps.row, p.kw, 1, rowTaps, threadIdx.x, kThreads);
    loadTapRows<L>(taps.col, p.kh, 1, colTaps, threadIdx.x, kThreads);
    __syncthreads();

    const int warp = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    const int g = lane >> 2;
    const int q = lane & 3;
    std::uint32_t bRow[F][2];
    std::uint32_t bCol[F][2];
    buildFragments<F>(rowTaps, bRow);
    buildFragments<F>(colTaps, bCol);
    const int lead = (lane & 15);
    const int half8 = (lane >> 4) * 8;

    float out[C][kGroups][4];
    fillZero(out);
#pragma unroll
    for (int c = 0; c < C; ++c) {
        for (int band = warp; band < S; band += kWarps) {
            float h[kGroups][4];
            fillZero(h);
            correlateBand<K>(win + c * PLANE + (band * 16 + lead) * SW + half8, bRow, h);
#pragma unroll
            for (int t = 0; t < kGroups; ++t) {
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int x = 8 * t + 2 * q + (e & 1);
                    const int j = band * 16 + g + 8 * (e >> 1);
                    mid[x * ST + j] = __float2half_rn(h[t][e]);
                }
            }
        }
        __syncthreads();
        // Column pass: the warp's 16 output columns are the A rows, output rows the groups.
        correlateBand<K>(mid + (warp * 16 + lead) * ST + half8, bCol, out[c]);
        __syncthreads();
    }

    // Lane (g, q) of group t holds output rows 8t + 2q, +1 of columns g and g + 8.
#pragma unroll
    for (int t = 0; t < kGroups; ++t) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int x = x0 + warp * 16 + g + 8 * (e >> 1);
            const int y = y0 + 8 * t + 2 * q + (e & 1);
            if (x < p.width && y < p.height) {
                float v[C];
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    v[c] = out[c][t][e] + p.offset;
                }
                storePixel<std::uint8_t, C>(rowPtr<std::uint8_t>(p.dst, p.dstPitch, y), x, v);
            }
        }
    }
}

}  // namespace

LaunchShape tensorTileShape(int width, int height)
{
    LaunchShape s;
    s.blockX = kThreads;
    s.blockY = 1;
    s.tileWidth = kTile;
    s.tileHeight = kTile;
    s.gridX = (width + kTile - 1) / kTile;
    s.gridY = (height + kTile - 1) / kTile;
    return s;
}

namespace {

bool exactInHalf(double v)
{
    return static_cast<double>(__half2float(__float2half_rn(static_cast<float>(v)))) == v;
}

double sumAbs(const std::vector<double>& w)
{
    double s = 0.0;
    for (double x : w) {
        s += std::abs(x);
    }
    return s;
}

}  // namespace

double tensorErrorBound(const filters::FilterSpec& spec, bool separable)
{
    double maxIn = 255.0;
    if (spec.border == filters::Border::Constant) {
        maxIn = std::max(maxIn, std::abs(spec.borderValue));
    }
    const double unit = std::ldexp(1.0, -11);  // fp16 relative rounding
    const double scale = std::abs(spec.scale);
    if (separable && spec.separable) {
        // Row taps, the fp16 intermediate and column taps each add one rounding of the sum; the
        // RGBA walking kernel's row pass sums 1024 + pixel and removes 1024 * sum(taps) in fp32
        // (48 terms), which adds at most 48 * (1024 + maxIn) * 2^-24 of the row taps' weight.
        const double rows = sumAbs(spec.separable->row) * sumAbs(spec.separable->column) * scale;
        return 3.0 * maxIn * rows * unit + 48.0 * (1024.0 + maxIn) * rows * std::ldexp(1.0, -24);
    }
    const double taps = static_cast<double>(spec.kernel.weights.size());
    return maxIn * (scale * sumAbs(spec.kernel.weights) * unit + taps * std::ldexp(1.0, -25));
}

std::string tensorRefusal(const filters::FilterSpec& spec, PixelFormat in, PixelFormat out, const DeviceInfo& device,
                          bool separable, std::size_t sharedLimit)
{
    const int kw = paddedWidth(spec, in.channels);
    const int kh = spec.kernel.height;
    if (device.ccMajor < 8) {
        return "tensor-core kernels need compute capability 8.0 or later";
    }
    if (in.depth != PixelDepth::U8 || out.depth != PixelDepth::U8) {
        return "tensor-core kernels take 8-bit input and output only";
    }
    if (separable && !spec.separable) {
        return "the separable form needs a rank-1 kernel";
    }
    if (kw > kMaxSide || kh > kMaxSide || (!separable && kw * kh > kMaxTaps)) {
        return "tensor-core kernels take at most 64 taps per side (4096 in all, counting the anchor alignment)";
    }
    if (spec.border == filters::Border::Constant && !exactInHalf(spec.borderValue)) {
        return "the constant border value is not exact in fp16";
    }
    const double bound = tensorErrorBound(spec, separable);
    if (!(bound <= 0.5)) {
        return "fp16 taps could move the result by up to " + std::to_string(bound) + " (limit 0.5)";
    }
    const int k = widthClass(separable ? std::max(kw, kh) : kw);
    const std::size_t bytes = separable ? separableSharedBytes(k, in.channels) : directSharedBytes(k, kh, in.channels);
    if (bytes > sharedLimit) {
        return "the tensor-core window needs " + std::to_string(bytes) + " bytes of shared memory";
    }
    return {};
}

/// Width class a tensor-core form runs: the padded kernel width, or for the separable form the
/// wider of that and the height.
int tensorClass(const ShapeQuery& q, bool separable)
{
    const int kw = paddedWidth(*q.spec, q.input.channels);
    return widthClass(separable ? std::max(kw, q.kh) : kw);
}

/// What both tensor-core forms of one method need (tensorRefusal), as a Support.
Support tensorSupport(const ShapeQuery& q, bool separable)
{
    if (separable) {
        if (Support spec = separableSpec(q); !spec) {
            return spec;
        }
    }
    std::string why = tensorRefusal(*q.spec, q.input, q.kernelOutput, *q.device, separable, q.sharedLimit);
    return why.empty() ? Support::yes() : Support::no(std::move(why));
}

Support canSeparableTensor(const ShapeQuery& q)
{
    return tensorSupport(q, true);
}

LaunchShape separableTensorShape(const ShapeQuery& q)
{
    LaunchShape s = tensorTileShape(q.width, q.height);
    s.compiledSize = tensorClass(q, true);
    s.variant = KernelVariant::SeparableTensor;
    s.sharedBytes = separableSharedBytes(s.compiledSize, q.input.channels);
    return s;
}

double tensorMmaCount(const filters::FilterSpec& spec, int channels, int width, int height, bool separable)
{
    const int kw = paddedWidth(spec, channels);
    const int kh = spec.kernel.height;
    const double tiles = std::ceil(width / 64.0) * std::ceil(height / 64.0);
    const int k = widthClass(separable ? std::max(kw, kh) : kw);
    int pairs = 0;
    switch (k) {
    case 8: pairs = pairsPerStep(8); break;
    case 16: pairs = pairsPerStep(16); break;
    case 32: pairs = pairsPerStep(32); break;
    default: pairs = pairsPerStep(64); break;
    }
    // Per 64 x 64 tile and channel: four warps of 16 rows; the separable form runs steps(k)
    // bands in the row pass and four in the column pass.
    const double perTile = separable ? pairs * (steps(k) + kWarps) : static_cast<double>(pairs) * kWarps * kh;
    return tiles * channels * perTile;
}

void runSeparableTensor(const LaunchArgs& a)
{
    const Plan& plan = a.plan;
    const StreamView stream = a.stream;
    ConvParams p = makeConvParams(plan.spec, a.src, a.dst);
    const int pad = leftPad(p.anchorX, plan.input.channels);
    SeparableTaps taps{};
    std::copy(plan.data->rowTaps.begin(), plan.data->rowTaps.end(), taps.row + pad);
    std::copy(plan.data->colTaps.begin(), plan.data->colTaps.end(), taps.col);
    p.kw += pad;
    p.anchorX += pad;
    launchTensorKernel(plan, p, taps, stream, "tensorSeparableKernel launch",
                       [&]<int C, int K>() { return tensorSeparableKernel<C, K>; });
}

}  // namespace tessera::gpu::detail
