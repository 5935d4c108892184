// SPDX-License-Identifier: Apache-2.0
// Sums of f x f blocks of a result held on the GPU, so a fit-zoom preview downloads only the
// blocks (tens of times fewer bytes) instead of every pixel.
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/plan/plan_data.h"
#include "gpu/runtime/cuda_check.cuh"
#include "tessera/gpu/values.h"
#include "values/errors.h"

namespace tessera::gpu::detail {

namespace {

/// One thread per block cell: the sum of the rows of image rows [firstRow, firstRow + rows) that
/// fall in its block row, over its f columns, for each channel. Block rows are counted from the
/// one holding firstRow (image rows are aligned to multiples of f).
template <typename T, int C>
__global__ void blockSumsKernel(const void* src, std::size_t pitch, int width, int rows, int firstRow, int f,
                                int blocksX, int blockRows, float* dst)
{
    const int bx = blockIdx.x * blockDim.x + threadIdx.x;
    const int by = blockIdx.y * blockDim.y + threadIdx.y;
    if (bx >= blocksX || by >= blockRows) {
        return;
    }
    const int firstBlockRow = firstRow / f;
    const int top = max((firstBlockRow + by) * f, firstRow) - firstRow;
    const int bottom = min((firstBlockRow + by + 1) * f, firstRow + rows) - firstRow;
    const int left = bx * f;
    const int right = min(left + f, width);
    float sum[C] = {};
    float v[C];
    for (int y = top; y < bottom; ++y) {
        const T* row = rowPtr<T>(src, pitch, y);
        for (int x = left; x < right; ++x) {
            loadPixel<T, C>(row, x, v);
            for (int c = 0; c < C; ++c) {
                sum[c] += v[c];
            }
        }
    }
    float* out = dst + (static_cast<std::size_t>(by) * blocksX + bx) * C;
    for (int c = 0; c < C; ++c) {
        out[c] = sum[c];
    }
}

template <typename T>
void launchFor(const DeviceImage& image, int firstRow, int f, float* dst, cudaStream_t stream)
{
    const int blocksX = (image.width + f - 1) / f;
    const int blockRows = (firstRow + image.height - 1) / f - firstRow / f + 1;
    const dim3 block(32, 8);
    const dim3 grid((blocksX + 31) / 32, (blockRows + 7) / 8);
    switch (image.format.channels) {
    case 1:
        blockSumsKernel<T, 1><<<grid, block, 0, stream>>>(image.data, image.pitch, image.width, image.height, firstRow,
                                                          f, blocksX, blockRows, dst);
        break;
    case 3:
        blockSumsKernel<T, 3><<<grid, block, 0, stream>>>(image.data, image.pitch, image.width, image.height, firstRow,
                                                          f, blocksX, blockRows, dst);
        break;
    case 4:
        blockSumsKernel<T, 4><<<grid, block, 0, stream>>>(image.data, image.pitch, image.width, image.height, firstRow,
                                                          f, blocksX, blockRows, dst);
        break;
    default: throw PreconditionError("block sums: unsupported channel count");
    }
    TESSERA_LAUNCH_CHECK("blockSumsKernel");
}

}  // namespace

int blockSumRows(int firstRow, int rows, int f)
{
    return rows <= 0 ? 0 : (firstRow + rows - 1) / f - firstRow / f + 1;
}

void launchBlockSums(const DeviceImage& image, int firstRow, int f, float* dst, StreamView stream)
{
    if (f < 1 || firstRow < 0) {
        throw InvalidInput("block sums: the factor must be positive and the first row not negative");
    }
    if (image.width == 0 || image.height == 0) {
        return;
    }
    const cudaStream_t s = cudaStreamOf(stream);
    switch (image.format.depth) {
    case PixelDepth::U8: return launchFor<std::uint8_t>(image, firstRow, f, dst, s);
    case PixelDepth::U16: return launchFor<std::uint16_t>(image, firstRow, f, dst, s);
    case PixelDepth::F32: return launchFor<float>(image, firstRow, f, dst, s);
    }
}

}  // namespace tessera::gpu::detail
