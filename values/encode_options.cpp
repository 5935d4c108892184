// SPDX-License-Identifier: Apache-2.0
// The encoder choices in the text the command line, Python and the settings use, and in words.
#include "values/encode_options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <stdexcept>

namespace tessera::values {
namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

/// text as a whole number in [low, high], or nullopt.
std::optional<int> wholeIn(std::string_view text, int low, int high)
{
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < low || value > high) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

EncodedFormat encodedFormatOf(std::string_view path)
{
    const auto dot = path.find_last_of('.');
    const auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) {
        return EncodedFormat::Other;
    }
    const std::string ext = lower(path.substr(dot + 1));
    if (ext == "jpg" || ext == "jpeg" || ext == "jpe") {
        return EncodedFormat::Jpeg;
    }
    if (ext == "png") {
        return EncodedFormat::Png;
    }
    if (ext == "tif" || ext == "tiff") {
        return EncodedFormat::Tiff;
    }
    if (ext == "webp") {
        return EncodedFormat::Webp;
    }
    return EncodedFormat::Other;
}

void setQuality(EncodeOptions& options, std::string_view text)
{
    if (lower(text) == "lossless") {
        options.webpQuality = 101;
        return;
    }
    const std::optional<int> q = wholeIn(text, 1, 100);
    if (!q) {
        throw std::invalid_argument("quality '" + std::string(text) +
                                    "' is not a whole number from 1 to 100 (JPEG, lossy WebP) or 'lossless' (WebP)");
    }
    options.jpegQuality = *q;
    options.webpQuality = *q;
}

void setCompression(EncodeOptions& options, std::string_view text)
{
    using C = EncodeOptions::TiffCompression;
    const std::string word = lower(text);
    if (word == "none") {
        options.tiffCompression = C::None;
    } else if (word == "lzw") {
        options.tiffCompression = C::Lzw;
    } else if (word == "deflate" || word == "zip") {
        options.tiffCompression = C::Deflate;
    } else if (const std::optional<int> level = wholeIn(text, 0, 9)) {
        options.pngCompression = *level;
    } else {
        throw std::invalid_argument("compression '" + std::string(text) +
                                    "' is neither a PNG level from 0 to 9 nor a TIFF compression (none, lzw, deflate)");
    }
}

std::string qualityText(const EncodeOptions& options, EncodedFormat format)
{
    if (format == EncodedFormat::Webp) {
        return options.webpQuality > 100 ? "lossless" : std::to_string(std::max(options.webpQuality, 1));
    }
    return std::to_string(options.jpegQuality);
}

std::string compressionText(const EncodeOptions& options, EncodedFormat format)
{
    using C = EncodeOptions::TiffCompression;
    if (format == EncodedFormat::Tiff) {
        switch (options.tiffCompression) {
        case C::None: return "none";
        case C::Lzw: return "lzw";
        case C::Deflate: return "deflate";
        }
    }
    return std::to_string(options.pngCompression);
}

std::string describeEncoding(EncodedFormat format, const EncodeOptions& options)
{
    using C = EncodeOptions::TiffCompression;
    switch (format) {
    case EncodedFormat::Jpeg: return "JPEG quality " + std::to_string(options.jpegQuality);
    case EncodedFormat::Png: return "PNG compression level " + std::to_string(options.pngCompression);
    case EncodedFormat::Tiff:
        switch (options.tiffCompression) {
        case C::None: return "TIFF uncompressed";
        case C::Lzw: return "TIFF with LZW compression";
        case C::Deflate: return "TIFF with Deflate compression";
        }
        return {};
    case EncodedFormat::Webp:
        return options.webpQuality > 100 ? "WebP lossless" : "WebP quality " + qualityText(options, format);
    case EncodedFormat::Other: return {};
    }
    return {};
}

}  // namespace tessera::values
