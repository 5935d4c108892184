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

}  // namespace tessera::filters
