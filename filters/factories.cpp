// SPDX-License-Identifier: Apache-2.0
#include "filters/factories.h"

#include "filters/text_util.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace tessera::filters {

namespace {

using detail::formatNumber;

[[noreturn]] void fail(const std::string& filter, const std::string& param, const std::string& why)
{
    throw std::invalid_argument(filter + ": " + param + " " + why);
}

void requireFinite(const std::string& filter, const std::string& param, double value)
{
    if (!std::isfinite(value)) {
        fail(filter, param, "must be a finite number, got " + formatNumber(value));
    }
}

void requirePositive(const std::string& filter, const std::string& param, double value)
{
    requireFinite(filter, param, value);
    if (value <= 0.0) {
        fail(filter, param, "must be > 0, got " + formatNumber(value));
    }
}

void requireNonNegative(const std::string& filter, const std::string& param, double value)
{
    requireFinite(filter, param, value);
    if (value < 0.0) {
        fail(filter, param, "must be >= 0, got " + formatNumber(value));
    }
}

// 2 * ceil(3 sigma) + 1 keeps the truncated tails below 0.3 % of the weight.
int sizeForSigma(const std::string& filter, double sigma)
{
    const double size = 2.0 * std::ceil(3.0 * sigma) + 1.0;
    if (size > kMaxKernelSide) {
        fail(filter, "sigma",
             formatNumber(sigma) + " needs a " + formatNumber(size) + "-tap kernel; the limit is " +
                 std::to_string(kMaxKernelSide));
    }
    return static_cast<int>(size);
}

FilterSpec fromKernel(std::string id, Kernel2D kernel)
{
    FilterSpec spec;
    spec.id = std::move(id);
    spec.separable = detectSeparable(kernel);
    spec.kernel = std::move(kernel);
    return spec;
}

// For kernels known to be separable the exact 1D factors are kept rather than re-derived.
FilterSpec fromFactors(std::string id, std::vector<double> row, std::vector<double> column)
{
    FilterSpec spec;
    spec.id = std::move(id);
    spec.kernel.width = static_cast<int>(row.size());
    spec.kernel.height = static_cast<int>(column.size());
    spec.kernel.weights.clear();
    spec.kernel.weights.reserve(row.size() * column.size());
    for (double c : column) {
        for (double r : row) {
            spec.kernel.weights.push_back(c * r);
        }
    }
    spec.separable = SeparablePair{std::move(row), std::move(column)};
    return spec;
}

Kernel2D squareKernel(int size, std::vector<double> weights)
{
    return Kernel2D{size, size, std::move(weights)};
}

// Same formula as cv::getGaussianKernel for sigma > 0.
std::vector<double> gaussianTaps(int size, double sigma)
{
    std::vector<double> taps(static_cast<size_t>(size));
    const double centre = (size - 1) * 0.5;
    double sum = 0.0;
    for (int i = 0; i < size; ++i) {
        const double x = i - centre;
        taps[static_cast<size_t>(i)] = std::exp(-(x * x) / (2.0 * sigma * sigma));
        sum += taps[static_cast<size_t>(i)];
    }
    for (double& t : taps) {
        t /= sum;
    }
    return taps;
}

std::vector<double> toVector(const cv::Mat& m)
{
    cv::Mat d;
    m.convertTo(d, CV_64F);
    return std::vector<double>(d.begin<double>(), d.end<double>());
}

}  // namespace

FilterSpec makeIdentity()
{
    return fromFactors("identity", {1.0}, {1.0});
}

FilterSpec makeBox(int size, bool normalize)
{
    if (size < 1 || size > kMaxKernelSide) {
        fail("box", "size", "must be 1.." + std::to_string(kMaxKernelSide) + ", got " + std::to_string(size));
    }
    const double tap = normalize ? 1.0 / size : 1.0;
    return fromFactors("box", std::vector<double>(static_cast<size_t>(size), tap),
                       std::vector<double>(static_cast<size_t>(size), tap));
}

FilterSpec makeGaussian(double sigma, int size)
{
    requirePositive("gaussian", "sigma", sigma);
    if (size == 0) {
        size = sizeForSigma("gaussian", sigma);
    } else if (size < 0 || size > kMaxKernelSide || size % 2 == 0) {
        fail("gaussian", "size",
             "must be 0 (from sigma) or odd 1.." + std::to_string(kMaxKernelSide) + ", got " + std::to_string(size));
    }
    auto taps = gaussianTaps(size, sigma);
    return fromFactors("gaussian", taps, taps);
}

FilterSpec makeSharpen(double amount)
{
    requireNonNegative("sharpen", "amount", amount);
    const double a = amount;
    return fromKernel("sharpen", squareKernel(3, {0, -a, 0, -a, 1 + 4 * a, -a, 0, -a, 0}));
}

FilterSpec makeUnsharp(double sigma, double amount)
{
    requirePositive("unsharp", "sigma", sigma);
    requireNonNegative("unsharp", "amount", amount);
    const int size = sizeForSigma("unsharp", sigma);
    const auto taps = gaussianTaps(size, sigma);
    Kernel2D k{size, size, std::vector<double>(static_cast<size_t>(size) * size)};
    for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
            k.weights[static_cast<size_t>(y) * size + x] =
                -amount * taps[static_cast<size_t>(y)] * taps[static_cast<size_t>(x)];
        }
    }
    k.weights[static_cast<size_t>(size / 2) * size + size / 2] += 1.0 + amount;
    return fromKernel("unsharp", std::move(k));
}

FilterSpec makeLaplacian(int size)
{
    if (size == 1) {
        return fromKernel("laplacian", squareKernel(3, {0, 1, 0, 1, -4, 1, 0, 1, 0}));
    }
    if (size == 3) {
        return fromKernel("laplacian", squareKernel(3, {2, 0, 2, 0, -8, 0, 2, 0, 2}));
    }
    fail("laplacian", "size", "must be 1 or 3, got " + std::to_string(size));
}

FilterSpec makeLaplacianOfGaussian(double sigma)
{
    requirePositive("log", "sigma", sigma);
    const int size = sizeForSigma("log", sigma);
    const int c = size / 2;
    const double s2 = sigma * sigma;
    Kernel2D k{size, size, std::vector<double>(static_cast<size_t>(size) * size)};
    double sum = 0.0;
    for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
            const double r2 = double(x - c) * (x - c) + double(y - c) * (y - c);
            const double g = std::exp(-r2 / (2.0 * s2)) / (2.0 * std::numbers::pi * s2);
            const double w = (r2 - 2.0 * s2) / (s2 * s2) * g;
            k.weights[static_cast<size_t>(y) * size + x] = w;
            sum += w;
        }
    }
    // Truncation leaves a small DC response; removing the mean makes flat areas exactly 0.
    const double mean = sum / (double(size) * size);
    for (double& w : k.weights) {
        w -= mean;
    }
    return fromKernel("log", std::move(k));
}

FilterSpec makeSobel(int dx, int dy, int size)
{
    if (size != 1 && size != 3 && size != 5 && size != 7) {
        fail("sobel", "size", "must be 1, 3, 5 or 7, got " + std::to_string(size));
    }
    if (dx < 0 || dx > 2) {
        fail("sobel", "dx", "must be 0..2, got " + std::to_string(dx));
    }
    if (dy < 0 || dy > 2) {
        fail("sobel", "dy", "must be 0..2, got " + std::to_string(dy));
    }
    if (dx + dy < 1) {
        fail("sobel", "dx + dy", "must be at least 1");
    }
    cv::Mat kx;
    cv::Mat ky;
    cv::getDerivKernels(kx, ky, dx, dy, size, false, CV_64F);
    return fromFactors("sobel", toVector(kx), toVector(ky));
}

FilterSpec makeScharr(int dx, int dy)
{
    if (!((dx == 1 && dy == 0) || (dx == 0 && dy == 1))) {
        fail("scharr", "dx, dy",
             "must be (1, 0) or (0, 1), got (" + std::to_string(dx) + ", " + std::to_string(dy) + ")");
    }
    const std::vector<double> derivative{-1.0, 0.0, 1.0};
    const std::vector<double> smooth{3.0, 10.0, 3.0};
    return dx == 1 ? fromFactors("scharr", derivative, smooth) : fromFactors("scharr", smooth, derivative);
}

FilterSpec makePrewitt(const std::string& direction)
{
    const std::string d = detail::lowered(detail::trimmed(direction));
    const std::vector<double> derivative{-1.0, 0.0, 1.0};
    const std::vector<double> flat{1.0, 1.0, 1.0};
    if (d == "horizontal") {
        return fromFactors("prewitt", derivative, flat);
    }
    if (d == "vertical") {
        return fromFactors("prewitt", flat, derivative);
    }
    fail("prewitt", "direction", "must be horizontal or vertical, got '" + direction + "'");
}

FilterSpec makeEmboss(double angleDegrees, double strength)
{
    requireFinite("emboss", "angle", angleDegrees);
    requireNonNegative("emboss", "strength", strength);
    // Each neighbour weighs its projection on the light direction (y grows downwards, angles
    // counter-clockwise); the sqrt(2) makes 45 degrees the classic [-2 -1 0; -1 1 1; 0 1 2]
    // turned towards the top right. Off-centre weights cancel, so the centre 1 keeps the mean.
    const double rad = angleDegrees * std::numbers::pi / 180.0;
    const double cx = std::cos(rad);
    const double cy = -std::sin(rad);
    std::vector<double> w(9);
    for (int y = -1; y <= 1; ++y) {
        for (int x = -1; x <= 1; ++x) {
            double v = strength * std::numbers::sqrt2 * (x * cx + y * cy);
            if (std::abs(v) < 1e-12) {
                v = 0.0;  // keeps cos(90 deg) noise out of the kernel
            }
            w[static_cast<size_t>((y + 1) * 3 + (x + 1))] = v;
        }
    }
    w[4] = 1.0;
    return fromKernel("emboss", squareKernel(3, std::move(w)));
}

FilterSpec makeMotionBlur(int length, double angleDegrees)
{
    if (length < 1 || length > kMaxKernelSide) {
        fail("motion_blur", "length",
             "must be 1.." + std::to_string(kMaxKernelSide) + ", got " + std::to_string(length));
    }
    requireFinite("motion_blur", "angle", angleDegrees);
    // Each cell of a length x length square weighs how close it lies to the segment through the
    // centre: 1 - distance across the line, cut off past the segment's ends.
    const double rad = angleDegrees * std::numbers::pi / 180.0;
    const double ux = std::cos(rad);
    const double uy = -std::sin(rad);
    const double centre = (length - 1) * 0.5;
    const double halfLength = length * 0.5;
    std::vector<double> w(static_cast<size_t>(length) * length, 0.0);
    for (int y = 0; y < length; ++y) {
        for (int x = 0; x < length; ++x) {
            const double px = x - centre;
            const double py = y - centre;
            const double along = px * ux + py * uy;
            const double across = std::abs(-px * uy + py * ux);
            const double a = std::clamp(halfLength + 0.5 - std::abs(along), 0.0, 1.0);
            const double b = std::max(0.0, 1.0 - across);
            const double v = a * b;
            w[static_cast<size_t>(y) * length + x] = v > 1e-9 ? v : 0.0;
        }
    }
    // The weights are point-symmetric about the centre, so trimming empty outer rows and
    // columns in pairs keeps the centre where the default anchor expects it.
    int top = 0;
    int left = 0;
    auto rowEmpty = [&](int y) {
        for (int x = 0; x < length; ++x) {
            if (w[static_cast<size_t>(y) * length + x] != 0.0) {
                return false;
            }
        }
        return true;
    };
    auto columnEmpty = [&](int x) {
        for (int y = 0; y < length; ++y) {
            if (w[static_cast<size_t>(y) * length + x] != 0.0) {
                return false;
            }
        }
        return true;
    };
    while (2 * top + 1 < length && rowEmpty(top) && rowEmpty(length - 1 - top)) {
        ++top;
    }
    while (2 * left + 1 < length && columnEmpty(left) && columnEmpty(length - 1 - left)) {
        ++left;
    }
    Kernel2D k;
    k.width = length - 2 * left;
    k.height = length - 2 * top;
    k.weights.clear();
    double sum = 0.0;
    for (int y = top; y < length - top; ++y) {
        for (int x = left; x < length - left; ++x) {
            k.weights.push_back(w[static_cast<size_t>(y) * length + x]);
            sum += k.weights.back();
        }
    }
    for (double& v : k.weights) {
        v /= sum;
    }
    return fromKernel("motion_blur", std::move(k));
}

FilterSpec makeCustom(const Kernel2D& kernel, bool normalize)
{
    FilterSpec probe;
    probe.kernel = kernel;
    try {
        validateSpec(probe);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("custom: ") + e.what());
    }
    Kernel2D k = kernel;
    if (normalize) {
        double magnitude = 0.0;
        for (double w : k.weights) {
            magnitude += std::abs(w);
        }
        const double sum = k.sum();
        // A zero-sum kernel (edges, derivatives) has no DC gain to normalise away.
        if (std::abs(sum) > 1e-12 * magnitude) {
            for (double& w : k.weights) {
                w /= sum;
            }
        }
    }
    return fromKernel("custom", std::move(k));
}

}  // namespace tessera::filters
