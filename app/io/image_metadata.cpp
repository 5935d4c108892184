// SPDX-License-Identifier: Apache-2.0
#include "app/io/image_metadata.h"

#include "app/io/codec/codec.h"
#include "app/io/image_header.h"
#include "app/io/orientation.h"
#include "app/io/output_metadata.h"

#include <fstream>
#include <iterator>
#include <span>
#include <sstream>

namespace tessera::app {

std::string ImageMetadata::summary() const
{
    std::string out;
    for (const auto& [present, name] : {std::pair{!exif.empty(), "EXIF"}, std::pair{!xmp.empty(), "XMP"},
                                        std::pair{!icc.empty(), "ICC profile"}, std::pair{!iptc.empty(), "IPTC"}}) {
        if (present) {
            out += (out.empty() ? "" : ", ") + std::string(name);
        }
    }
    return out.empty() ? "none" : out;
}

ImageMetadata readMetadata(const std::uint8_t* data, std::size_t size)
{
    if (data == nullptr || size == 0) {
        return {};
    }
    // The format from the first bytes, as the header sniffer reads them.
    const std::string head(reinterpret_cast<const char*>(data), std::min<std::size_t>(size, 64));
    std::istringstream in(head);
    const std::string format = sniffImageHeader(in).format;
    const std::span<const std::uint8_t> bytes(data, size);
    ImageMetadata found;
    if (format == "jpeg") {
        found = codec::readJpegMetadata(bytes);
    } else if (format == "png") {
        found = codec::readPngMetadata(bytes);
    } else if (format == "tiff") {
        found = codec::readTiffMetadata(bytes);
    } else if (format == "webp") {
        found = codec::readWebpMetadata(bytes);
    }
    found.orientation = orientationOf(found);
    return found;
}

ImageMetadata readMetadata(const std::string& path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
        return {};
    }
    const std::streamoff size = in.tellg();
    if (size <= 0) {
        return {};
    }
    std::string bytes(static_cast<std::size_t>(size), '\0');
    in.seekg(0);
    in.read(bytes.data(), size);
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    return readMetadata(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

cv::Mat applyOrientation(const cv::Mat& img, int orientation)
{
    return orientUpright(img, orientation);
}

std::string describeOrientation(int orientation)
{
    switch (orientation) {
    case 2: return "mirrored left to right";
    case 3: return "rotated 180\u00b0";
    case 4: return "mirrored top to bottom";
    case 5: return "mirrored and rotated 90\u00b0 counter-clockwise";
    case 6: return "rotated 90\u00b0 clockwise";
    case 7: return "mirrored and rotated 90\u00b0 clockwise";
    case 8: return "rotated 90\u00b0 counter-clockwise";
    default: return {};
    }
}

}  // namespace tessera::app
