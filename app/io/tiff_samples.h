// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <istream>
#include <optional>

namespace tessera::app {

/// SamplesPerPixel of a classic TIFF's first image (tag 277; 1 when the tag is absent, as the
/// format says), or nothing when in does not hold a TIFF header and first IFD it can read
/// (BigTIFF included). Reads from the start of in; never throws.
std::optional<int> tiffSamplesPerPixel(std::istream& in);

}  // namespace tessera::app
