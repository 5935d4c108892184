// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/naive_conv.h"

#include "gpu/runtime/cuda_check.cuh"
#include "values/errors.h"
#include "tessera/gpu/values.h"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"

#include <stdexcept>
#include <string>

namespace tessera::gpu {

namespace {

using detail::ConvParams;

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

/// One thread, one output pixel, all taps from global memory. The only concession to speed is
/// the coalesced thread layout (x fastest), which any first version would have anyway.
template <typename TIn, typename TOut, int C>
__global__ void naiveKernel(ConvParams p, const float* __restrict__ taps)
{
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= p.width || y >= p.height) {
        return;
    }
    float acc[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
        acc[c] = 0.0f;
    }
    for (int ky = 0; ky < p.kh; ++ky) {
        const int sy = detail::mapBorder(y + ky - p.anchorY, p.height, p.border);
        const TIn* row = sy >= 0 ? detail::rowPtr<TIn>(p.src, p.srcPitch, sy) : nullptr;
        for (int kx = 0; kx < p.kw; ++kx) {
            const float w = taps[ky * p.kw + kx];
            const int sx = detail::mapBorder(x + kx - p.anchorX, p.width, p.border);
            float v[C];
            if (row != nullptr && sx >= 0) {
                detail::loadPixel<TIn, C>(row, sx, v);
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
    detail::storePixel<TOut, C>(detail::rowPtr<TOut>(p.dst, p.dstPitch, y), x, acc);
}

template <typename TIn, typename TOut, int C>
void launch(const ConvParams& p, const float* taps, cudaStream_t stream)
{
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(static_cast<unsigned>((p.width + kBlockX - 1) / kBlockX),
                    static_cast<unsigned>((p.height + kBlockY - 1) / kBlockY));
    naiveKernel<TIn, TOut, C><<<grid, block, 0, stream>>>(p, taps);
    TESSERA_LAUNCH_CHECK("naiveKernel");
}

template <typename TIn, typename TOut>
void launchChannels(int channels, const ConvParams& p, const float* taps, cudaStream_t stream)
{
    switch (channels) {
    case 1: launch<TIn, TOut, 1>(p, taps, stream); return;
    case 3: launch<TIn, TOut, 3>(p, taps, stream); return;
    case 4: launch<TIn, TOut, 4>(p, taps, stream); return;
    default: throw InvalidInput("runNaive: unsupported channel count " + std::to_string(channels));
    }
}

template <typename TIn>
void launchOutput(const DeviceImage& src, const DeviceImage& dst, const ConvParams& p, const float* taps,
                  cudaStream_t stream)
{
    if (dst.format.depth == PixelDepth::F32) {
        launchChannels<TIn, float>(src.format.channels, p, taps, stream);
    } else if (dst.format.depth == src.format.depth) {
        launchChannels<TIn, TIn>(src.format.channels, p, taps, stream);
    } else {
        throw InvalidInput("runNaive: output depth must be the input's or f32, got " + dst.format.name());
    }
}

}  // namespace

std::vector<float> naiveTaps(const filters::FilterSpec& spec)
{
    std::vector<float> taps;
    taps.reserve(spec.kernel.weights.size());
    for (double w : spec.kernel.weights) {
        taps.push_back(static_cast<float>(w * spec.scale));
    }
    return taps;
}

void runNaive(const filters::FilterSpec& spec, const DeviceImage& src, const DeviceImage& dst, const float* deviceTaps,
              StreamView stream)
{
    if (src.width != dst.width || src.height != dst.height || src.width < 1 || src.height < 1) {
        throw InvalidInput("runNaive: source and destination differ in size or are empty");
    }
    if (src.format.channels != dst.format.channels) {
        throw InvalidInput("runNaive: source and destination differ in channel count");
    }
    if (deviceTaps == nullptr) {
        throw InvalidInput("runNaive: no taps");
    }
    ConvParams p = detail::makeConvParams(spec, src, dst);
    p.globalTaps = deviceTaps;

    ScopedDevice on(stream.device());
    const cudaStream_t s = detail::cudaStreamOf(stream);
    switch (src.format.depth) {
    case PixelDepth::U8: launchOutput<std::uint8_t>(src, dst, p, deviceTaps, s); return;
    case PixelDepth::U16: launchOutput<std::uint16_t>(src, dst, p, deviceTaps, s); return;
    case PixelDepth::F32: launchOutput<float>(src, dst, p, deviceTaps, s); return;
    }
}

}  // namespace tessera::gpu
