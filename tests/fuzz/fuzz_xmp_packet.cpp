// SPDX-License-Identifier: Apache-2.0
// The XMP scanner sees every input's packet: it must never crash, its value ranges must lie
// inside the packet in order, and a packet it edits must scan again with the values it wrote.
#include "app/io/xmp_packet.h"

#include <cstdlib>
#include <string>
#include <string_view>

using namespace tessera::app;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view packet(reinterpret_cast<const char*>(data), size);
    const XmpScan scan = scanXmp(packet);
    if (scan.ok != scan.error.empty() || (!scan.ok && !scan.values.empty())) {
        std::abort();
    }
    for (const XmpValue& v : scan.values) {
        if (v.begin > v.end || v.end > packet.size()) {
            std::abort();
        }
    }
    const std::optional<int> orientation = xmpOrientation(packet);
    if (orientation && (*orientation < 1 || *orientation > 8 || !scan.ok)) {
        std::abort();
    }
    std::string why;
    const std::optional<std::string> edited = editXmp(packet, XmpEdit{1, 640, 480}, why);
    if (edited.has_value() != scan.ok || (!edited && why.empty())) {
        std::abort();
    }
    if (edited) {
        const XmpScan after = scanXmp(*edited);
        if (!after.ok || after.values.size() != scan.values.size()) {
            std::abort();
        }
        for (const XmpValue& v : after.values) {
            const std::string_view text = std::string_view(*edited).substr(v.begin, v.end - v.begin);
            const bool width =
                v.property == XmpProperty::TiffImageWidth || v.property == XmpProperty::ExifPixelXDimension;
            const bool height =
                v.property == XmpProperty::TiffImageLength || v.property == XmpProperty::ExifPixelYDimension;
            if (text != (width ? "640" : height ? "480" : "1")) {
                std::abort();
            }
        }
        if (!scan.values.empty() && scan.values.front().property == XmpProperty::TiffOrientation &&
            xmpOrientation(*edited) != 1) {
            std::abort();
        }
    }
    return 0;
}
