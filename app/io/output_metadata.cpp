// SPDX-License-Identifier: Apache-2.0
#include "app/io/output_metadata.h"

#include "app/io/exif_block.h"
#include "app/io/xmp_packet.h"

#include <stdexcept>
#include <utility>

namespace tessera::app {

std::string_view orientationSourceName(OrientationSource source)
{
    switch (source) {
    case OrientationSource::Exif: return "EXIF";
    case OrientationSource::Xmp: return "XMP";
    case OrientationSource::None: break;
    }
    return "none";
}

FoundOrientation findOrientation(const ImageMetadata& metadata)
{
    if (!metadata.exif.empty()) {
        if (const int o = exifOrientation(metadata.exif); o != 0) {
            return {o, OrientationSource::Exif};
        }
    }
    if (!metadata.xmp.empty()) {
        if (const std::optional<int> o = xmpOrientation(metadata.xmp)) {
            return {*o, OrientationSource::Xmp};
        }
    }
    return {};
}

int orientationOf(const ImageMetadata& metadata)
{
    return findOrientation(metadata).orientation;
}

PreparedMetadata prepareOutputMetadata(const ImageMetadata& source, int width, int height, bool pixelsTurnedUpright)
{
    if (width <= 0 || height <= 0) {
        throw std::invalid_argument("output metadata: the size " + std::to_string(width) + " x " +
                                    std::to_string(height) + " is not a picture's size");
    }
    PreparedMetadata out;
    const FoundOrientation found = findOrientation(source);
    const bool upright = pixelsTurnedUpright || found.orientation == 1;
    out.parts.orientation = upright ? 1 : found.orientation;
    const auto w = static_cast<std::uint32_t>(width);
    const auto h = static_cast<std::uint32_t>(height);

    if (!source.exif.empty()) {
        ExifEdit edit;
        if (pixelsTurnedUpright) {
            edit.orientation = 1;
        }
        edit.pixelWidth = w;
        edit.pixelHeight = h;
        ExifEdited edited = editExif(source.exif, edit);
        out.parts.exif = std::move(edited.block);
        for (std::string& n : edited.notes) {
            out.notes.push_back(std::move(n));
        }
    }
    if (!source.xmp.empty()) {
        XmpEdit edit;
        if (pixelsTurnedUpright) {
            edit.orientation = 1;
        }
        edit.width = w;
        edit.height = h;
        std::string why;
        if (std::optional<std::string> xmp = editXmp(source.xmp, edit, why)) {
            out.parts.xmp = std::move(*xmp);
        } else {
            out.notes.push_back("XMP: does not parse (" + why + "); left out");
        }
    }
    out.parts.icc = source.icc;
    out.parts.iptc = source.iptc;
    return out;
}

}  // namespace tessera::app
