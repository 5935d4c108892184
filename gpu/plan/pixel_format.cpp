// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/pixel_format.h"

#include "values/errors.h"
#include "tessera/gpu/values.h"
#include <opencv2/core/cvdef.h>

#include <stdexcept>

namespace tessera::gpu {

std::string PixelFormat::name() const
{
    const char* d = depth == PixelDepth::U8 ? "u8" : depth == PixelDepth::U16 ? "u16" : "f32";
    return std::string(d) + "x" + std::to_string(channels);
}

PixelFormat pixelFormatFromCvType(int cvType)
{
    const int depth = CV_MAT_DEPTH(cvType);
    const int channels = CV_MAT_CN(cvType);
    if (channels != 1 && channels != 3 && channels != 4) {
        throw InvalidInput("unsupported channel count " + std::to_string(channels) +
                           " (Tessera filters 1, 3 or 4 channels)");
    }
    switch (depth) {
    case CV_8U: return {PixelDepth::U8, channels};
    case CV_16U: return {PixelDepth::U16, channels};
    case CV_32F: return {PixelDepth::F32, channels};
    default: throw InvalidInput("unsupported pixel depth (Tessera filters 8-bit, 16-bit and float images)");
    }
}

int toCvType(PixelFormat format)
{
    const int depth = format.depth == PixelDepth::U8 ? CV_8U : format.depth == PixelDepth::U16 ? CV_16U : CV_32F;
    return CV_MAKETYPE(depth, format.channels);
}

}  // namespace tessera::gpu
