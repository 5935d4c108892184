// SPDX-License-Identifier: Apache-2.0
#pragma once

// The choices an image encoder takes (JPEG and WebP quality, PNG and TIFF compression): a plain
// value the codecs, the command line, Python, the settings and the dialogs share, with the text
// forms they read and write and the words messages use.

#include <string>
#include <string_view>

namespace tessera::values {

/// Choices an encoder honours; each format ignores those of the others.
struct EncodeOptions {
    int jpegQuality = 92;    ///< 1..100
    int pngCompression = 6;  ///< zlib level 0..9
    enum class TiffCompression { None, Lzw, Deflate } tiffCompression = TiffCompression::Lzw;
    int webpQuality = 101;  ///< 1..100 lossy; above 100: lossless

    bool operator==(const EncodeOptions&) const = default;
};

/// The formats whose encoders take a choice; Other has none.
enum class EncodedFormat { Jpeg, Png, Tiff, Webp, Other };

/// The format an output path's extension names (any case).
EncodedFormat encodedFormatOf(std::string_view path);

/// Reads the text of --quality / quality=: a number 1..100 (JPEG, and WebP made lossy at that
/// quality) or "lossless" (WebP). Throws std::invalid_argument saying what is allowed.
void setQuality(EncodeOptions& options, std::string_view text);
/// Reads the text of --compression / compression=: a zlib level 0..9 (PNG), or none, lzw,
/// deflate (TIFF). Throws std::invalid_argument saying what is allowed.
void setCompression(EncodeOptions& options, std::string_view text);

/// "lossless" or the number, as setQuality() reads it, for format's quality (Jpeg or Webp).
std::string qualityText(const EncodeOptions& options, EncodedFormat format);
/// "none", "lzw", "deflate" or the PNG level, as setCompression() reads it (Png or Tiff).
std::string compressionText(const EncodeOptions& options, EncodedFormat format);

/// How a file of format is encoded under options, in words: "JPEG quality 92", "PNG
/// compression level 6", "TIFF with LZW compression", "WebP lossless", "WebP quality 80";
/// empty for formats without a choice.
std::string describeEncoding(EncodedFormat format, const EncodeOptions& options);

}  // namespace tessera::values
