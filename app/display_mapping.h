#pragma once

#include <QImage>

#include <opencv2/core/mat.hpp>

namespace tessera::app {

/// How a non-8-bit image is mapped to screen values. The data itself is never changed.
enum class SignedMode { Offset, Absolute };

struct DisplayMapping {
    bool stretch = true;            ///< map [min, max] of the data to [0, 255] (u16/f32)
    SignedMode signedMode = SignedMode::Offset;  ///< for data with negative values
};

/// Converts a CV_8U/16U/32F image with 1, 3 (BGR) or 4 (BGRA) channels to a QImage that owns
/// its pixels (Format_Grayscale8, Format_RGB888 or Format_ARGB32). 8-bit data maps 1:1.
/// Without stretch, u16 shows its high byte and f32 shows [0, 1] (Absolute: |v|) clamped; alpha
/// is never stretched. An empty Mat gives a null QImage; other depths or channel counts throw
/// std::invalid_argument. Reads img only; safe to call from any thread.
QImage toDisplayImage(const cv::Mat& img, const DisplayMapping& mapping = {});

}  // namespace tessera::app
