// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <opencv2/core/mat.hpp>

namespace tessera::app {

/// img turned upright from EXIF orientation `orientation` (2..8 mirror and/or rotate; 1 or
/// anything else returns img itself, sharing its pixels). Any depth and channel count. Throws
/// only what cv::Mat's allocation throws.
cv::Mat orientUpright(const cv::Mat& img, int orientation);

/// The size an image of `size` has once turned upright from `orientation` (5..8 swap width and
/// height). Never throws.
cv::Size uprightSize(cv::Size size, int orientation);

/// Puts the rows [firstRow, firstRow + band.rows) of an image `fullHeight` rows high, given in
/// band, where orientation puts them in dst (already created with uprightSize() and the
/// band's type). A decoder that knows the orientation before its first row calls it for each
/// band it decodes and so never holds the unturned image: one full-size buffer less, which on a
/// 12 MP photo is most of the cost of turning it. Never throws.
void placeRows(const cv::Mat& band, int firstRow, int fullHeight, cv::Mat& dst, int orientation);

}  // namespace tessera::app
