// SPDX-License-Identifier: Apache-2.0
#include "filters/cpu_executor.h"

#include "filters/float_range.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tessera::filters {

namespace {

void checkFormat(const cv::Mat& src)
{
    if (src.empty()) {
        throw std::invalid_argument("applyCpu: the image is empty");
    }
    if (src.dims != 2) {
        throw std::invalid_argument("applyCpu: expected a 2D image, got " + std::to_string(src.dims) + " dimensions");
    }
    const int depth = src.depth();
    if (depth != CV_8U && depth != CV_16U && depth != CV_32F) {
        throw std::invalid_argument("applyCpu: unsupported pixel depth " + cvDepthName(depth) +
                                    " (expected u8, u16 or f32)");
    }
    const int channels = src.channels();
    if (channels != 1 && channels != 3 && channels != 4) {
        throw std::invalid_argument("applyCpu: unsupported channel count " + std::to_string(channels) +
                                    " (expected 1, 3 or 4)");
    }
}

cv::Mat column64(const std::vector<double>& taps, double factor)
{
    cv::Mat m(static_cast<int>(taps.size()), 1, CV_64F);
    for (int i = 0; i < m.rows; ++i) {
        m.at<double>(i) = taps[static_cast<size_t>(i)] * factor;
    }
    return m;
}

cv::Mat kernel64(const Kernel2D& k, double factor)
{
    cv::Mat m(k.height, k.width, CV_64F);
    for (int y = 0; y < k.height; ++y) {
        for (int x = 0; x < k.width; ++x) {
            m.at<double>(y, x) = k.at(x, y) * factor;
        }
    }
    return m;
}

// filter2D switches to a DFT for kernels of 50 taps or more (130 for some depth pairs); below
// that it sums directly. A direct sum in pieces under that size stays direct.
constexpr int kDirectPieceTaps = 49;

/// Whether filter2D might take its DFT route for this spec, and the image's values would then
/// break the float rule (filters/float_range.h): a NaN or infinity, or a range the transform's
/// global bound does not serve.
bool needsDirectSum(const cv::Mat& src, const FilterSpec& spec)
{
    if (spec.separable || static_cast<long long>(spec.kernel.width) * spec.kernel.height <= kDirectPieceTaps ||
        src.depth() != CV_32F) {
        return false;  // sepFilter2D sums directly; integer images are finite with a bounded range
    }
    return !transformSafe(scanFloatRange(src));
}

/// The correlation as direct sums only: the border-extended image is filtered by pieces of the
/// kernel small enough that filter2D sums them directly, and the pieces' results added in f32.
/// NaN and infinity then reach exactly the outputs whose window holds them.
cv::Mat directSumF32(const cv::Mat& src, const FilterSpec& spec)
{
    const Halo halo = spec.halo();
    cv::Mat padded;
    cv::copyMakeBorder(src, padded, halo.top, halo.bottom, halo.left, halo.right, toCvBorder(spec.border),
                       cv::Scalar::all(spec.borderValue));
    const int kw = spec.kernel.width;
    const int kh = spec.kernel.height;
    const int pieceW = std::min(kw, kDirectPieceTaps);
    const int pieceH = std::max(1, kDirectPieceTaps / pieceW);
    cv::Mat sum(src.size(), CV_MAKETYPE(CV_32F, src.channels()), cv::Scalar::all(0.0));
    cv::Mat part;
    for (int y0 = 0; y0 < kh; y0 += pieceH) {
        for (int x0 = 0; x0 < kw; x0 += pieceW) {
            const int w = std::min(pieceW, kw - x0);
            const int h = std::min(pieceH, kh - y0);
            cv::Mat piece(h, w, CV_64F);
            for (int y = 0; y < h; ++y) {
                for (int x = 0; x < w; ++x) {
                    piece.at<double>(y, x) = spec.kernel.at(x0 + x, y0 + y) * spec.scale;
                }
            }
            // With the anchor at the piece's corner, output (x, y) reads padded pixels from
            // (x + x0, y + y0) on, all inside this view: the border type never matters.
            const cv::Mat view = padded(cv::Rect(x0, y0, src.cols + w - 1, src.rows + h - 1));
            cv::filter2D(view, part, CV_32F, piece, cv::Point(0, 0), 0.0, cv::BORDER_REPLICATE);
            sum += part(cv::Rect(0, 0, src.cols, src.rows));
        }
    }
    if (spec.offset != 0.0) {
        sum += cv::Scalar::all(spec.offset);
    }
    return sum;
}

}  // namespace

std::string cvDepthName(int depth)
{
    switch (depth) {
    case CV_8U: return "u8";
    case CV_8S: return "s8";
    case CV_16U: return "u16";
    case CV_16S: return "s16";
    case CV_32S: return "s32";
    case CV_32F: return "f32";
    case CV_64F: return "f64";
    case CV_16F: return "f16";
    default: return "depth " + std::to_string(depth);
    }
}

int toCvBorder(Border border)
{
    switch (border) {
    case Border::Reflect101: return cv::BORDER_REFLECT_101;
    case Border::Reflect: return cv::BORDER_REFLECT;
    case Border::Replicate: return cv::BORDER_REPLICATE;
    case Border::Constant: return cv::BORDER_CONSTANT;
    case Border::Wrap: return cv::BORDER_WRAP;
    }
    return cv::BORDER_REFLECT_101;
}

int resolveOutputDepth(OutputDepth depth, int inDepth)
{
    return resolveOutputDepth<int>(depth, inDepth, CV_8U, CV_16U, CV_32F);
}

cv::Mat applyCpu(const cv::Mat& src, const FilterSpec& spec)
{
    checkFormat(src);
    validateSpec(spec);
    const int outDepth = resolveOutputDepth(spec.depth, src.depth());
    if (needsDirectSum(src, spec)) {
        cv::Mat sum = directSumF32(src, spec);
        if (outDepth == CV_32F) {
            return sum;
        }
        cv::Mat out;
        sum.convertTo(out, outDepth);
        return out;
    }
    const Halo halo = spec.halo();
    const Point anchor = spec.effectiveAnchor();

    // filter2D has no wrap border and always pads constant borders with 0, so for those the
    // border is built here with copyMakeBorder, the padded image filtered and the interior
    // cropped. Images smaller than the kernel take the same route: it costs nothing at that
    // size and keeps the repeated reflections in one place (copyMakeBorder's
    // borderInterpolate) whichever of filter2D's direct, DFT or separable paths runs.
    // OpenCV 4.6's DFT path (large kernels) mishandles an off-centre anchor near the right and
    // bottom edges, so off-centre anchors are padded here too.
    const bool offCentre = anchor.x != spec.kernel.width / 2 || anchor.y != spec.kernel.height / 2;
    const bool pad = spec.border == Border::Wrap || (spec.border == Border::Constant && spec.borderValue != 0.0) ||
                     src.cols < spec.kernel.width || src.rows < spec.kernel.height || offCentre;
    cv::Mat input = src;
    int borderType = toCvBorder(spec.border);
    if (pad) {
        cv::copyMakeBorder(src, input, halo.top, halo.bottom, halo.left, halo.right, borderType,
                           cv::Scalar::all(spec.borderValue));
        borderType = cv::BORDER_REPLICATE;  // only reaches pixels that get cropped away
    }

    // filter2D/sepFilter2D cannot write every depth pair (u8 -> u16 for example), and the
    // separable u8 -> u8 path switches to 8-bit fixed-point weights; both go through f32 and a
    // rounding, saturating convertTo instead.
    const bool separable = spec.separable.has_value();
    const bool direct = outDepth == src.depth() && !(separable && src.depth() == CV_8U);
    const int workDepth = direct ? outDepth : CV_32F;
    const cv::Point cvAnchor(anchor.x, anchor.y);

    cv::Mat filtered;
    if (separable) {
        cv::sepFilter2D(input, filtered, workDepth, column64(spec.separable->row, spec.scale),
                        column64(spec.separable->column, 1.0), cvAnchor, spec.offset, borderType);
    } else {
        cv::filter2D(input, filtered, workDepth, kernel64(spec.kernel, spec.scale), cvAnchor, spec.offset, borderType);
    }
    if (pad) {
        filtered = filtered(cv::Rect(halo.left, halo.top, src.cols, src.rows));
    }
    cv::Mat out;
    if (filtered.depth() != outDepth) {
        filtered.convertTo(out, outDepth);
    } else if (pad) {
        out = filtered.clone();
    } else {
        out = filtered;
    }
    return out;
}

cv::Mat applyCpu(const cv::Mat& src, const FilterChain& chain)
{
    checkFormat(src);
    cv::Mat current = src;
    for (const auto& step : chain.steps) {
        current = applyCpu(current, step);
    }
    return chain.steps.empty() ? src.clone() : current;
}

cv::Rect regionWithHalo(const FilterChain& chain, const cv::Rect& region, const cv::Size& size)
{
    const Halo h = chain.halo();
    const cv::Rect grown(region.x - h.left, region.y - h.top, region.width + h.left + h.right,
                         region.height + h.top + h.bottom);
    const cv::Rect image(0, 0, size.width, size.height);
    const bool wraps = std::any_of(chain.steps.begin(), chain.steps.end(),
                                   [](const FilterSpec& s) { return s.border == Border::Wrap; });
    if (wraps && (grown & image) != grown) {
        return image;  // wrapping reads the far side of the image
    }
    // Where the crop is cut at an image edge, a reflection there reaches up to the chain's
    // whole reach (both sides) in from that edge; the crop must hold those pixels too.
    const auto axis = [](int lo, int hi, int reach, int extent) {
        int b = lo;
        int e = hi;
        if (lo < 0) {
            e = std::max(e, reach + 1);
        }
        if (hi > extent) {
            b = std::min(b, extent - reach - 1);
        }
        b = std::max(b, 0);
        return std::pair<int, int>(b, std::min(e, extent) - b);
    };
    const auto [x, w] = axis(grown.x, grown.x + grown.width, h.left + h.right, size.width);
    const auto [y, hgt] = axis(grown.y, grown.y + grown.height, h.top + h.bottom, size.height);
    return cv::Rect(x, y, w, hgt);
}

cv::Mat applyCpuRegion(const cv::Mat& src, const FilterChain& chain, const cv::Rect& region)
{
    const cv::Rect inside = region & cv::Rect(0, 0, src.cols, src.rows);
    if (inside.empty()) {
        throw std::invalid_argument("applyCpuRegion: the region lies outside the image");
    }
    const cv::Rect crop = regionWithHalo(chain, inside, src.size());
    // A copy, so that OpenCV applies the border rule at the crop's edges instead of reading the
    // pixels around a sub-matrix.
    const cv::Mat out = applyCpu(src(crop).clone(), chain);
    return out(cv::Rect(inside.x - crop.x, inside.y - crop.y, inside.width, inside.height)).clone();
}

}  // namespace tessera::filters
