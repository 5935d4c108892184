// SPDX-License-Identifier: Apache-2.0
#pragma once

// What an output file carries of its source's metadata, prepared before a codec writer places
// it: the orientation read from EXIF or XMP, the EXIF and XMP corrected for the output's pixels,
// and a note for every part, or piece of a part, that the output will not carry. Pure functions
// on bytes: no file I/O, no metadata library.

#include "app/io/image_metadata.h"

#include <string>
#include <string_view>
#include <vector>

namespace tessera::app {

/// Where an orientation was read.
enum class OrientationSource { None, Exif, Xmp };

/// "EXIF", "XMP" or "none".
std::string_view orientationSourceName(OrientationSource source);

struct FoundOrientation {
    int orientation = 1;  ///< 1..8
    OrientationSource source = OrientationSource::None;
};

/// The orientation of a photo: EXIF's when its block holds a valid one, else XMP's
/// tiff:Orientation when the packet scans and holds a valid one, else 1 from nowhere.
/// Never throws.
FoundOrientation findOrientation(const ImageMetadata& metadata);
/// findOrientation(metadata).orientation.
int orientationOf(const ImageMetadata& metadata);

/// The parts to give a writer and what was left out or could not be corrected, one note each,
/// e.g. "XMP: does not parse (a bare & at byte 310); left out".
struct PreparedMetadata {
    /// EXIF, XMP, ICC and IPTC as the output should hold them; orientation is the value the
    /// prepared EXIF/XMP hold (1 once the pixels were turned upright).
    ImageMetadata parts;
    std::vector<std::string> notes;
};

/// Prepares source's parts for an output of width x height pixels. When pixelsTurnedUpright
/// the orientation the source held was applied to the pixels, so EXIF's Orientation and XMP's
/// tiff:Orientation become 1; otherwise they stay as they were. EXIF: PixelXDimension and
/// PixelYDimension (where present) become the output size, the thumbnail (IFD1) is unlinked and
/// TIFF structure tags leave IFD0. XMP: the same fields corrected where present; a packet that
/// does not scan is left out with a note, since nothing can say whether it holds an orientation
/// or size that the output contradicts. ICC and IPTC pass through. Throws std::invalid_argument
/// when width or height is not positive.
PreparedMetadata prepareOutputMetadata(const ImageMetadata& source, int width, int height, bool pixelsTurnedUpright);

}  // namespace tessera::app
