// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <istream>
#include <optional>
#include <string>

namespace tessera::app {

/// The sample depth readImage() gives the image in `in` (CV_8U, CV_16U or CV_32F), read from its
/// header alone: a PNG's bit depth, BitsPerSample and SampleFormat of a classic TIFF's first
/// image, 8 bits for JPEG, BMP and WebP, float for OpenEXR. Nothing when the header does not
/// say (BigTIFF, a damaged header, another format) or names a depth readImage() refuses. Reads
/// from the start of in; never throws.
std::optional<int> sniffSampleDepth(std::istream& in);
/// sniffSampleDepth() of the file at path; nothing when it cannot be opened.
std::optional<int> sniffSampleDepth(const std::string& path);

}  // namespace tessera::app
