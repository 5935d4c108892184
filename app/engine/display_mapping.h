// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QImage>

#include <opencv2/core/mat.hpp>

#include <string>

namespace tessera::app {

/// How a non-8-bit image is mapped to screen values. The data itself is never changed.
enum class SignedMode { Offset, Absolute };

/// The display settings of the View menu: how samples become screen values.
struct DisplayMapping {
    /// true: the data's own [min, max] maps to [0, 255]; false: the type's full range does
    /// (u16 [0, 65535], f32 [0, 1]). Applies to u16 and f32 colour samples, never to alpha.
    bool stretch = true;
    /// For data with negative values: Offset puts 0 at mid-grey (a range symmetric around 0;
    /// f32 [-1, 1] without stretch), Absolute shows |v|.
    SignedMode signedMode = SignedMode::Offset;

    bool operator==(const DisplayMapping&) const = default;
};

/// Converts a CV_8U/16U/32F image with 1, 3 (BGR) or 4 (BGRA) channels to a QImage that owns
/// its pixels (Format_Grayscale8, Format_RGB32 for colour, which a pixmap takes without
/// converting, or Format_ARGB32 with alpha). 8-bit data maps 1:1.
/// Without stretch, u16 shows its high byte and f32 shows [0, 1] ([-1, 1] for signed data with
/// Offset, |v| in [0, 1] with Absolute) clamped; alpha is never stretched. When shown is given
/// it receives what black and white stand for, e.g. "data min-max [-3.5, 3.5], 0 at mid-grey"
/// (empty for 8-bit data). An empty Mat gives a null QImage; other depths or channel counts
/// throw std::invalid_argument. Reads img only; safe to call from any thread.
QImage toDisplayImage(const cv::Mat& img, const DisplayMapping& mapping = {}, std::string* shown = nullptr);

/// img in 8 bits as toDisplayImage() shows it with mapping, with img's channels (BGR, BGRA or
/// one): what Export's "8-bit as Shown" writes. Throws as toDisplayImage().
cv::Mat toEightBitAsShown(const cv::Mat& img, const DisplayMapping& mapping);

/// img in 8 bits by value, rounded, below 0 becoming 0 and above 255 becoming 255 (NaN 0); float
/// data within [0, 1] is scaled by 255 first. 8-bit data is returned as it is.
cv::Mat toEightBitClipped(const cv::Mat& img);

}  // namespace tessera::app
