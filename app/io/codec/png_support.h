// SPDX-License-Identifier: Apache-2.0
#pragma once

// Shared by the PNG reader and writer: the per-handle state that libpng's error and warning
// callbacks write into, and the text-chunk forms PNG uses for XMP and IPTC.

#include "app/io/codec/codec.h"

#include <png.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace tessera::app::codec::png_detail {

/// The state of one libpng handle: where its reads come from, where its writes go and the
/// message of the error that stopped it. Handlers only touch this, so handles on different
/// threads never share anything.
struct PngState {
    std::span<const std::uint8_t> input;
    std::size_t position = 0;
    std::vector<std::uint8_t>* output = nullptr;
    std::string error;        ///< the library's reason, set before it jumps back
    std::string lastWarning;  ///< the latest warning (the writer reports a refused profile with it)
};

/// libpng callbacks bound to a PngState (the handle's error pointer / io pointer).
void pngError(png_structp png, png_const_charp message);
void pngWarning(png_structp png, png_const_charp message);
void pngReadData(png_structp png, png_bytep data, std::size_t length);
void pngWriteData(png_structp png, png_bytep data, std::size_t length);
void pngFlush(png_structp png);

/// The library's reason turned into a one-line message for the user.
std::string describePngError(const std::string& message);

/// The keyword XMP packets are stored under.
inline constexpr const char* kXmpKeyword = "XML:com.adobe.xmp";
/// The keyword ImageMagick, exiftool and exiv2 use for IPTC in PNG text chunks.
inline constexpr const char* kIptcKeyword = "Raw profile type iptc";

/// The bytes of an ImageMagick "Raw profile type ..." text ("\niptc\n   <length>\n<hex>..."),
/// empty when the text is not of that form.
std::string decodeRawProfile(std::string_view text);
/// The text of a raw profile holding bytes under the given name.
std::string encodeRawProfile(std::string_view name, std::string_view bytes);
/// IPTC records out of a raw profile's bytes: unwrapped from a Photoshop resource block when the
/// bytes are one, as they are when they start with the records themselves.
std::string iptcFromProfileBytes(const std::string& bytes);
/// The IPTC records wrapped in a Photoshop image resource block (resource 0x0404), the form
/// exiv2 writes and reads.
std::string wrapIptcInPhotoshopBlock(const std::string& iptc);

/// Fills metadata from what libpng has read into info so far (iCCP, eXIf, text chunks).
void collectPngMetadata(png_structp png, png_infop info, ImageMetadata& metadata);

}  // namespace tessera::app::codec::png_detail
