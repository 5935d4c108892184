// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/engine/engine.h"

#include <QSize>
#include <QString>

namespace tessera::app {

/// The status bar's text for a preview of image (its whole rectangle): where it ran, the GPU methods,
/// how long it took, the part of the image it covers when not all of it, and a note worth
/// showing, e.g. "Preview: GPU 0 (NVIDIA H200), separable, 1.40 ms, view 1920 × 1080".
QString previewStatusText(const PreviewResult& result, const values::Rect& image);

}  // namespace tessera::app
