// SPDX-License-Identifier: Apache-2.0
#pragma once

// The C interface's images: their depth codes, the checks every image passes before it is
// read or written, and an OpenCV view of one.

#include "tessera/gpu/pixel_format.h"
#include "tessera/tessera.h"

#include <opencv2/core/mat.hpp>

#include <cstdint>

namespace tessera::capi {

/// The OpenCV depth of a TESSERA_U8/U16/F32 code; Failure for any other.
int cvDepthOf(int32_t depth);
/// The code of an OpenCV depth (CV_8U, CV_16U, else F32).
int32_t depthCodeOf(int cvDepth);
/// The pixel format of an image's depth and channels; Failure for an unknown depth.
gpu::PixelFormat formatOf(const tessera_image& image);

/// Checks the fields every image shares (data, size, channels, row stride); `role` ("the
/// input") names it in the Failure.
void checkImage(const tessera_image* image, const char* role);
/// Checks `dst` as the output of `src` for a chain that writes `outDepth` (an OpenCV depth):
/// its own fields, the same size and channels, that depth, and no overlap with src.
void checkOutput(const tessera_image* src, const tessera_image* dst, int outDepth);

/// The image as a cv::Mat over its memory (no copy).
cv::Mat wrap(const tessera_image& image);

}  // namespace tessera::capi
