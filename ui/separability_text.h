// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"

#include <QString>

namespace tessera::ui {

/// "Separable (rank 1): row [...], column [...]" (long factors shortened in the middle) or
/// "Not separable"; *details (if given) gets the full factors or why separability matters.
QString separabilityText(const filters::Kernel2D& kernel, QString* details);

}  // namespace tessera::ui
