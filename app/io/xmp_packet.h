// SPDX-License-Identifier: Apache-2.0
#pragma once

// A careful scanner of XMP packets, of Tessera's own, without an XML library. It checks that a
// packet is well-formed XML (balanced elements, quoted attributes, declared namespace prefixes,
// no DTD) with an rdf:RDF element, under x:xmpmeta when there is a root of that name, and finds
// the few properties an output must correct: tiff:Orientation, tiff:ImageWidth,
// tiff:ImageLength, exif:PixelXDimension and exif:PixelYDimension, in attribute form
// (tiff:Orientation="6") and in element form (<tiff:Orientation>6</tiff:Orientation>), whatever
// prefixes the packet binds to the tiff and exif namespaces. Patching replaces only the value
// text; every other byte stays as it was.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::app {

/// The properties the scanner finds.
enum class XmpProperty { TiffOrientation, TiffImageWidth, TiffImageLength, ExifPixelXDimension, ExifPixelYDimension };

/// Its qualified name with the usual prefix, e.g. "tiff:Orientation".
std::string_view xmpPropertyName(XmpProperty property);

/// Where one value of a property lies in the packet: [begin, end) is the text between the
/// quotes of an attribute or between the start and end tags of an element.
struct XmpValue {
    XmpProperty property = XmpProperty::TiffOrientation;
    std::size_t begin = 0;
    std::size_t end = 0;
    bool attribute = false;
};

/// What scanXmp() found: either ok with the values in packet order, or the reason the packet
/// cannot be edited, e.g. "element rdf:Description at byte 212 is closed by rdf:RDF".
struct XmpScan {
    bool ok = false;
    std::string error;
    std::vector<XmpValue> values;
};

/// Scans packet. Never throws except std::bad_alloc; linear in the packet's size.
XmpScan scanXmp(std::string_view packet);

/// tiff:Orientation (1..8) of a packet that scans; nullopt when the packet does not scan, has
/// no such property or its first value is not a whole number from 1 to 8. Never throws.
std::optional<int> xmpOrientation(std::string_view xmp);

/// What editXmp() changes; each value is written only where the packet already holds it.
struct XmpEdit {
    std::optional<int> orientation;  ///< tiff:Orientation
    std::uint32_t width = 0;         ///< tiff:ImageWidth and exif:PixelXDimension (0: leave)
    std::uint32_t height = 0;        ///< tiff:ImageLength and exif:PixelYDimension (0: leave)
};

/// The packet with edit applied, or nullopt with why set when the packet does not scan (then it
/// cannot be edited). Never throws except std::bad_alloc.
std::optional<std::string> editXmp(std::string_view packet, const XmpEdit& edit, std::string& why);

}  // namespace tessera::app
