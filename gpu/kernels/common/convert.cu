// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "values/errors.h"
#include "tessera/gpu/values.h"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/plan/plan_data.h"

#include <stdexcept>

namespace tessera::gpu::detail {

namespace {

template <typename Tin, typename Tout, int C>
__global__ void convertKernel(const void* src, std::size_t srcPitch, void* dst, std::size_t dstPitch, int width,
                              int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) {
        return;
    }
    float v[C];
    loadPixel<Tin, C>(rowPtr<Tin>(src, srcPitch, y), x, v);
    storePixel<Tout, C>(rowPtr<Tout>(dst, dstPitch, y), x, v);
}

template <typename Tin, typename Tout>
void launchChannels(const DeviceImage& src, const DeviceImage& dst, cudaStream_t stream)
{
    const dim3 block(32, 8);
    const dim3 grid((src.width + 31) / 32, (src.height + 7) / 8);
    switch (src.format.channels) {
    case 1:
        convertKernel<Tin, Tout, 1>
            <<<grid, block, 0, stream>>>(src.data, src.pitch, dst.data, dst.pitch, src.width, src.height);
        break;
    case 3:
        convertKernel<Tin, Tout, 3>
            <<<grid, block, 0, stream>>>(src.data, src.pitch, dst.data, dst.pitch, src.width, src.height);
        break;
    case 4:
        convertKernel<Tin, Tout, 4>
            <<<grid, block, 0, stream>>>(src.data, src.pitch, dst.data, dst.pitch, src.width, src.height);
        break;
    default: throw PreconditionError("convert: unsupported channel count");
    }
    TESSERA_LAUNCH_CHECK("convertKernel");
}

template <typename Tin>
void launchTo(const DeviceImage& src, const DeviceImage& dst, cudaStream_t stream)
{
    switch (dst.format.depth) {
    case PixelDepth::U8: return launchChannels<Tin, std::uint8_t>(src, dst, stream);
    case PixelDepth::U16: return launchChannels<Tin, std::uint16_t>(src, dst, stream);
    case PixelDepth::F32: return launchChannels<Tin, float>(src, dst, stream);
    }
}

}  // namespace

void launchConvert(const DeviceImage& src, const DeviceImage& dst, StreamView stream)
{
    if (src.format.channels != dst.format.channels || src.width != dst.width || src.height != dst.height) {
        throw InvalidInput("convert: source and destination differ in size or channels");
    }
    if (src.width == 0 || src.height == 0) {
        return;
    }
    const cudaStream_t s = cudaStreamOf(stream);
    switch (src.format.depth) {
    case PixelDepth::U8: return launchTo<std::uint8_t>(src, dst, s);
    case PixelDepth::U16: return launchTo<std::uint16_t>(src, dst, s);
    case PixelDepth::F32: return launchTo<float>(src, dst, s);
    }
}

}  // namespace tessera::gpu::detail
