// SPDX-License-Identifier: Apache-2.0
#include "app/engine/display_mapping.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tessera::app {
namespace {

// A linear map from sample values to [0, 255]. NaN lands on 0 and infinities on the ends,
// so non-finite samples never disturb their neighbours.
struct LinearMap {
    double low = 0.0;
    double range = 1.0;  // divided rather than inverted, so midpoints land exactly on .5
    bool absolute = false;

    std::uint8_t operator()(double v) const
    {
        const double x = ((absolute ? std::abs(v) : v) - low) * 255.0 / range;
        if (!(x > 0.0)) {
            return 0;
        }
        if (x >= 255.0) {
            return 255;
        }
        // Half rounds up, so the midpoint of a symmetric range shows as 128.
        return static_cast<std::uint8_t>(std::floor(x + 0.5));
    }
};

struct Range {
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    bool valid() const { return low <= high; }
};

// Extremes of the finite colour samples; alpha, when present, is a separate matter.
template <typename T>
Range colourRange(const cv::Mat& img, bool absolute)
{
    const int cn = img.channels();
    const int colours = std::min(cn, 3);
    Range r;
    for (int y = 0; y < img.rows; ++y) {
        const T* row = img.ptr<T>(y);
        for (int x = 0; x < img.cols; ++x) {
            for (int c = 0; c < colours; ++c) {
                double v = static_cast<double>(row[x * cn + c]);
                if (!std::isfinite(v)) {
                    continue;
                }
                v = absolute ? std::abs(v) : v;
                r.low = std::min(r.low, v);
                r.high = std::max(r.high, v);
            }
        }
    }
    return r;
}

// The stretch for u16/f32 data whose colour samples span r, or nothing when the data holds a
// single finite value (there is no range to stretch, so the type's range shows it instead).
template <typename T>
std::optional<LinearMap> stretchMap(const cv::Mat& img, const Range& r, SignedMode mode)
{
    if (!r.valid()) {
        return std::nullopt;
    }
    if (r.low < 0.0) {
        if (mode == SignedMode::Offset) {
            const double m = std::max(-r.low, r.high);
            return LinearMap{-m, 2.0 * m, false};
        }
        const Range a = colourRange<T>(img, true);
        if (a.high > a.low) {
            return LinearMap{a.low, a.high - a.low, true};
        }
        return std::nullopt;
    }
    if (r.high > r.low) {
        return LinearMap{r.low, r.high - r.low, false};
    }
    return std::nullopt;
}

// The type's own range [0, high]; signed data (samples spanning r) shown with Offset gets
// [-high, high] so that 0 stays at mid-grey.
LinearMap fullRangeMap(const Range& r, double high, SignedMode mode)
{
    if (mode == SignedMode::Absolute) {
        return LinearMap{0.0, high, true};
    }
    if (r.valid() && r.low < 0.0) {
        return LinearMap{-high, 2.0 * high, false};
    }
    return LinearMap{0.0, high, false};
}

// What black and white stand for, e.g. "data min-max [-3.5, 3.5], 0 at mid-grey".
std::string describe(const LinearMap& map, bool stretched)
{
    const auto number = [](double v) {
        std::ostringstream out;
        out << std::setprecision(6) << v;
        return out.str();
    };
    const double high = map.low + map.range;
    std::string text = stretched ? "data min-max " : "full range ";
    text += (map.absolute ? "|v| [" : "[") + number(map.low) + ", " + number(high) + "]";
    if (!map.absolute && map.low < 0.0 && high == -map.low) {
        text += ", 0 at mid-grey";
    }
    return text;
}

QImage::Format displayFormat(int channels)
{
    switch (channels) {
    case 1: return QImage::Format_Grayscale8;
    case 3: return QImage::Format_RGB32;  // the screen's own: a pixmap takes it without converting
    default: return QImage::Format_ARGB32;
    }
}

// Writes every pixel through the colour and alpha maps into a freshly allocated QImage;
// rows are independent, so they are split across OpenCV's worker threads.
template <typename T, typename Colour, typename Alpha>
QImage render(const cv::Mat& img, Colour colour, Alpha alpha)
{
    const int cn = img.channels();
    QImage out(img.cols, img.rows, displayFormat(cn));
    if (out.isNull()) {
        throw std::bad_alloc();
    }
    uchar* bits = out.bits();
    const qsizetype stride = out.bytesPerLine();
    cv::parallel_for_(cv::Range(0, img.rows), [&](const cv::Range& rows) {
        for (int y = rows.start; y < rows.end; ++y) {
            const T* src = img.ptr<T>(y);
            uchar* dst = bits + static_cast<qsizetype>(y) * stride;
            if (cn == 1) {
                for (int x = 0; x < img.cols; ++x) {
                    dst[x] = colour(src[x]);
                }
            } else if (cn == 3) {
                auto* rgb = reinterpret_cast<QRgb*>(dst);
                for (int x = 0; x < img.cols; ++x) {  // BGR in
                    const T* p = src + 3 * x;
                    rgb[x] = qRgb(colour(p[2]), colour(p[1]), colour(p[0]));
                }
            } else {
                auto* argb = reinterpret_cast<QRgb*>(dst);
                for (int x = 0; x < img.cols; ++x) {
                    const T* p = src + 4 * x;
                    argb[x] = qRgba(colour(p[2]), colour(p[1]), colour(p[0]), alpha(p[3]));
                }
            }
        }
    });
    return out;
}

}  // namespace

QImage toDisplayImage(const cv::Mat& img, const DisplayMapping& mapping, std::string* shown)
{
    if (img.empty()) {
        return {};
    }
    const int cn = img.channels();
    if (cn != 1 && cn != 3 && cn != 4) {
        throw std::invalid_argument("toDisplayImage: " + std::to_string(cn) +
                                    " channels; expected 1, 3 (BGR) or 4 (BGRA)");
    }
    switch (img.depth()) {
    case CV_8U: {
        if (shown != nullptr) {
            shown->clear();
        }
        const auto same = [](std::uint8_t v) { return v; };
        return render<std::uint8_t>(img, same, same);
    }
    case CV_16U: {
        const auto top = [](std::uint16_t v) { return static_cast<std::uint8_t>(v >> 8); };
        const auto map =
            mapping.stretch ? stretchMap<std::uint16_t>(img, colourRange<std::uint16_t>(img, false), mapping.signedMode)
                            : std::nullopt;
        if (shown != nullptr) {
            *shown = describe(map.value_or(LinearMap{0.0, 65535.0, false}), map.has_value());
        }
        return map ? render<std::uint16_t>(img, *map, top) : render<std::uint16_t>(img, top, top);
    }
    case CV_32F: {
        // The range is needed either way: without stretch it says whether the data is signed.
        const Range r = colourRange<float>(img, false);
        // Float data far beyond [-1, 1] (a filtered 8- or 16-bit image kept in float, 0 to 255 or
        // 65535) would be all white over the type's range: it is shown by its own range instead.
        // An overshoot of a [0, 1] image (a sharpened edge, up to twice the range) stays clamped.
        constexpr double kFarBeyond = 2.0;
        const bool beyondType = r.valid() && (r.high > kFarBeyond || r.low < -kFarBeyond);
        const auto stretched =
            mapping.stretch || beyondType ? stretchMap<float>(img, r, mapping.signedMode) : std::nullopt;
        const LinearMap map = stretched.value_or(fullRangeMap(r, 1.0, mapping.signedMode));
        if (shown != nullptr) {
            *shown = describe(map, stretched.has_value());
            if (!mapping.stretch && stretched) {
                *shown += " (values beyond the float range [0, 1])";
            }
        }
        return render<float>(img, map, LinearMap{0.0, 1.0, false});
    }
    default:
        throw std::invalid_argument("toDisplayImage: unsupported depth " + std::to_string(img.depth()) +
                                    "; expected CV_8U, CV_16U or CV_32F");
    }
}

cv::Mat toEightBitAsShown(const cv::Mat& img, const DisplayMapping& mapping)
{
    if (img.depth() == CV_8U) {
        return img;
    }
    const QImage shown = toDisplayImage(img, mapping);
    if (shown.isNull()) {
        return {};
    }
    cv::Mat out;
    switch (shown.format()) {
    case QImage::Format_Grayscale8:
        out = cv::Mat(shown.height(), shown.width(), CV_8UC1, const_cast<uchar*>(shown.constBits()),
                      static_cast<std::size_t>(shown.bytesPerLine()))
                  .clone();
        break;
    case QImage::Format_RGB32: {
        // 0xffRRGGBB words: bytes B, G, R, 255 in memory; the colour image comes back as BGR.
        static_assert(Q_BYTE_ORDER == Q_LITTLE_ENDIAN, "RGB32 read as BGRA bytes");
        const cv::Mat bgra(shown.height(), shown.width(), CV_8UC4, const_cast<uchar*>(shown.constBits()),
                           static_cast<std::size_t>(shown.bytesPerLine()));
        out.create(bgra.size(), CV_8UC3);
        const int drop[] = {0, 0, 1, 1, 2, 2};
        cv::mixChannels(&bgra, 1, &out, 1, drop, 3);
        break;
    }
    case QImage::Format_RGB888: {
        const cv::Mat rgb(shown.height(), shown.width(), CV_8UC3, const_cast<uchar*>(shown.constBits()),
                          static_cast<std::size_t>(shown.bytesPerLine()));
        out.create(rgb.size(), CV_8UC3);
        const int toBgr[] = {0, 2, 1, 1, 2, 0};
        cv::mixChannels(&rgb, 1, &out, 1, toBgr, 3);
        break;
    }
    default: {
        // ARGB32 holds each pixel as one 32-bit 0xAARRGGBB word: bytes B, G, R, A in memory.
        const QImage argb = shown.convertToFormat(QImage::Format_ARGB32);
        static_assert(Q_BYTE_ORDER == Q_LITTLE_ENDIAN, "ARGB32 read as BGRA bytes");
        out = cv::Mat(argb.height(), argb.width(), CV_8UC4, const_cast<uchar*>(argb.constBits()),
                      static_cast<std::size_t>(argb.bytesPerLine()))
                  .clone();
        break;
    }
    }
    return out;
}

cv::Mat toEightBitClipped(const cv::Mat& img)
{
    if (img.depth() == CV_8U || img.empty()) {
        return img;
    }
    double scale = 1.0;
    if (img.depth() == CV_32F) {
        double low = 0.0;
        double high = 0.0;
        cv::Mat finite = img.reshape(1).clone();
        cv::patchNaNs(finite, 0.0);
        cv::minMaxLoc(finite, &low, &high);
        if (low >= 0.0 && high <= 1.0 + 1e-3) {
            scale = 255.0;
        }
    }
    cv::Mat out;
    img.convertTo(out, CV_8U, scale);
    return out;
}

}  // namespace tessera::app
