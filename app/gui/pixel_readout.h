// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <opencv2/core/mat.hpp>

#include <QPoint>
#include <QString>

namespace tessera::app {

/// The channel values of data at pos in data's own depth (u8, u16 or f32), RGB(A) order,
/// separated by spaces, e.g. "31 52 200". pos must lie inside data.
QString pixelValues(const cv::Mat& data, QPoint pos);

}  // namespace tessera::app
