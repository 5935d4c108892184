// SPDX-License-Identifier: Apache-2.0
#include "app/gui/pixel_readout.h"

#include <QStringList>

#include <cstdint>

namespace tessera::app {

QString pixelValues(const cv::Mat& data, QPoint pos)
{
    const int channels = data.channels();
    // OpenCV stores BGR(A); users read RGB(A).
    static constexpr int kRgbOrder[4] = {2, 1, 0, 3};
    QStringList values;
    for (int i = 0; i < channels; ++i) {
        const int c = channels >= 3 ? kRgbOrder[i] : i;
        const int at = pos.x() * channels + c;
        switch (data.depth()) {
        case CV_8U: values << QString::number(data.ptr<std::uint8_t>(pos.y())[at]); break;
        case CV_16U: values << QString::number(data.ptr<std::uint16_t>(pos.y())[at]); break;
        default: values << QString::number(data.ptr<float>(pos.y())[at], 'g', 5); break;
        }
    }
    return values.join(QLatin1Char(' '));
}

}  // namespace tessera::app
