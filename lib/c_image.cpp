// SPDX-License-Identifier: Apache-2.0
#include "lib/c_image.h"

#include "filters/cpu_executor.h"
#include "lib/c_chain.h"

#include <opencv2/core.hpp>

#include <string>

namespace tessera::capi {

int cvDepthOf(int32_t depth)
{
    switch (depth) {
    case TESSERA_U8: return CV_8U;
    case TESSERA_U16: return CV_16U;
    case TESSERA_F32: return CV_32F;
    default: fail("unknown depth code " + std::to_string(depth));
    }
}

int32_t depthCodeOf(int cvDepth)
{
    return cvDepth == CV_8U ? TESSERA_U8 : cvDepth == CV_16U ? TESSERA_U16 : TESSERA_F32;
}

gpu::PixelFormat formatOf(const tessera_image& image)
{
    return gpu::pixelFormatFromCvType(CV_MAKETYPE(cvDepthOf(image.depth), image.channels));
}

void checkImage(const tessera_image* image, const char* role)
{
    const std::string name(role);
    if (image == nullptr || image->data == nullptr) {
        fail(name + " image is missing");
    }
    if (image->width <= 0 || image->height <= 0 || image->width > (1 << 30) || image->height > (1 << 30)) {
        fail(name + " image is " + std::to_string(image->width) + " x " + std::to_string(image->height) +
             "; both sides must be at least 1");
    }
    if (image->channels != 1 && image->channels != 3 && image->channels != 4) {
        fail(name + " image has " + std::to_string(image->channels) + " channels; 1, 3 or 4 are supported");
    }
    const int64_t row = image->width * image->channels * static_cast<int64_t>(CV_ELEM_SIZE1(cvDepthOf(image->depth)));
    if (image->row_stride < row) {
        fail(name + " image's row stride " + std::to_string(image->row_stride) + " is shorter than a row (" +
             std::to_string(row) + " bytes)");
    }
    if (image->row_stride % CV_ELEM_SIZE1(cvDepthOf(image->depth)) != 0) {
        fail(name + " image's row stride is not a multiple of the channel size");
    }
}

void checkOutput(const tessera_image* src, const tessera_image* dst, int outDepth)
{
    checkImage(dst, "the output");
    if (dst->width != src->width || dst->height != src->height || dst->channels != src->channels) {
        fail("the output image's size or channel count differs from the input's");
    }
    if (dst->depth != depthCodeOf(outDepth)) {
        fail("the output image's depth differs from the depth the chain writes (" + filters::cvDepthName(outDepth) +
             ")");
    }
    const auto begin = [](const tessera_image* i) { return static_cast<const char*>(i->data); };
    const auto end = [](const tessera_image* i) {
        return static_cast<const char*>(i->data) + i->row_stride * (i->height - 1) +
               i->width * i->channels * static_cast<int64_t>(CV_ELEM_SIZE1(cvDepthOf(i->depth)));
    };
    if (begin(src) < end(dst) && begin(dst) < end(src)) {
        fail("the output overlaps the input: give an output array of its own");
    }
}

cv::Mat wrap(const tessera_image& image)
{
    return cv::Mat(static_cast<int>(image.height), static_cast<int>(image.width),
                   CV_MAKETYPE(cvDepthOf(image.depth), image.channels), image.data,
                   static_cast<std::size_t>(image.row_stride));
}

}  // namespace tessera::capi
