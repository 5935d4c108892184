// SPDX-License-Identifier: Apache-2.0
#pragma once

// A preview at fit zoom computes only what the screen shows: the means of factor x factor blocks
// of the filtered image, the way a box downscale of the full result gives them, without filtering
// every pixel. For one linear step the mean of a block is itself a correlation of the source
// with the kernel convolved with the block's box, read at the block positions only, so a 24
// Mpixel photo costs about as much as the 1.5 Mpixel it is shown as. Where a block's pixels
// could saturate in the output depth (a mean of clipped values is not the clipped mean), and
// for the partial blocks at the right and bottom edges, those pixels are filtered exactly.

#include "filters/filter_spec.h"

#include <opencv2/core/mat.hpp>

#include <optional>

namespace tessera::app {

/// The means of image's factor x factor blocks (factor >= 1) as CV_32F of the same channels,
/// ceil(rows / factor) x ceil(cols / factor); the blocks at the right and bottom edges average
/// the pixels they hold. The reference every reduced preview is checked against.
cv::Mat blockMeans(const cv::Mat& image, int factor);

/// blockMeans() in image's own depth, rounded and saturated (integer images of whole blocks by
/// OpenCV's area resize, whose rounding of a mean may differ from convertTo's by one level).
cv::Mat reduceByBlocks(const cv::Mat& image, int factor);

/// blockMeans(applyCpu(src, chain), factor) in the chain's output depth, computed from the
/// blocks' own reach for a chain of one step; nullopt when this way does not apply (several
/// steps, a factor below 2, an image smaller than a block, or a float image holding NaN,
/// infinity or values so large that sums over a block could overflow), and the caller filters
/// the whole image and reduces it.
std::optional<cv::Mat> reducedCorrelation(const cv::Mat& src, const filters::FilterChain& chain, int factor);

}  // namespace tessera::app
