// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"

#include <string>

namespace tessera::filters {

// Every factory returns a FilterSpec with reflect101 border, scale 1, offset 0, depth Same,
// the rank-1 factors filled in when the kernel is separable, and throws std::invalid_argument
// naming the parameter when a value is out of range.

/// The 1x1 kernel {1}.
FilterSpec makeIdentity();
/// size x size box; normalize divides by size^2 (matches cv::blur when true).
FilterSpec makeBox(int size, bool normalize = true);
/// Gaussian matching cv::GaussianBlur(ksize = size, sigma); size 0 = 2 * ceil(3 * sigma) + 1.
FilterSpec makeGaussian(double sigma, int size = 0);
/// 3x3 sharpen: centre 1 + 4 * amount, 4-neighbours -amount.
FilterSpec makeSharpen(double amount);
/// Unsharp mask as one kernel: (1 + amount) * identity - amount * gaussian(sigma).
FilterSpec makeUnsharp(double sigma, double amount);
/// Laplacian as cv::Laplacian: size 1 = 4-neighbour, size 3 = the 3x3 aperture.
FilterSpec makeLaplacian(int size);
/// Laplacian of Gaussian, size 2 * ceil(3 * sigma) + 1, zero-sum.
FilterSpec makeLaplacianOfGaussian(double sigma);
/// Sobel derivative as cv::Sobel (size 1, 3, 5, 7; dx + dy >= 1).
FilterSpec makeSobel(int dx, int dy, int size);
/// Scharr 3x3 derivative as cv::Scharr (exactly one of dx, dy is 1).
FilterSpec makeScharr(int dx, int dy);
/// Prewitt 3x3: direction "horizontal" (d/dx) or "vertical" (d/dy).
FilterSpec makePrewitt(const std::string& direction);
/// 3x3 emboss along angleDegrees with the given strength (centre weight 1 keeps brightness).
FilterSpec makeEmboss(double angleDegrees, double strength);
/// Normalised line of the given length (odd or even) at angleDegrees.
FilterSpec makeMotionBlur(int length, double angleDegrees);
/// Any kernel (1..255 on each side); normalize divides by the sum when it is not ~0.
FilterSpec makeCustom(const Kernel2D& kernel, bool normalize = false);

}  // namespace tessera::filters
