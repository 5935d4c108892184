// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"

#include <opencv2/core/mat.hpp>

#include <string>

namespace tessera::filters {

/// Short name of an OpenCV depth for messages and format strings: "u8", "u16", "f32", "f64"...
std::string cvDepthName(int cvDepth);
/// The OpenCV border type for a border mode (Wrap is cv::BORDER_WRAP).
int toCvBorder(Border border);

/// Output depth (CV_8U, CV_16U or CV_32F) a spec produces for an input of cv depth inDepth.
int resolveOutputDepth(OutputDepth depth, int inDepth);

/// Runs one spec on the CPU with OpenCV (multi-threaded). src: CV_8U/CV_16U/CV_32F with 1, 3 or
/// 4 channels. Result has src's size and channels; a constant border value is saturated to
/// src's depth. Throws std::invalid_argument on an unsupported format or a malformed spec.
cv::Mat applyCpu(const cv::Mat& src, const FilterSpec& spec);
/// Runs a chain step by step (each intermediate in that step's output depth).
cv::Mat applyCpu(const cv::Mat& src, const FilterChain& chain);

/// The part of an image of `size` that computing `region` of the chain's output needs: region
/// grown by the chain's halo, clipped to the image. Filtering that crop as a whole image gives
/// exact results inside region, because the border rule then only changes pixels within the
/// halo of crop edges that are not image edges. Where the crop is cut at an image edge it also
/// holds every pixel a reflection there can reach (the chain's reach on both sides, in from
/// that edge). A chain with a wrap border whose grown region reaches past the image needs the
/// far side of it: then the whole image.
cv::Rect regionWithHalo(const FilterChain& chain, const cv::Rect& region, const cv::Size& size);

/// The chain's output inside region (clipped to the image) only, computed on the crop that
/// regionWithHalo gives: the same pixels as applyCpu(src, chain)(region), for less work.
cv::Mat applyCpuRegion(const cv::Mat& src, const FilterChain& chain, const cv::Rect& region);

}  // namespace tessera::filters
