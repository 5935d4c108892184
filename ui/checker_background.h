// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QRectF>

class QPainter;

namespace tessera::ui {

/// Fills the part of image (scene coordinates) that exposed touches with a grey checkerboard, so
/// that transparent pixels read as transparent against the view's dark background.
void paintCheckerBackground(QPainter& painter, const QRectF& image, const QRectF& exposed);

}  // namespace tessera::ui
