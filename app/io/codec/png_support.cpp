// SPDX-License-Identifier: Apache-2.0
#include "app/io/codec/png_support.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace tessera::app::codec::png_detail {

void pngError(png_structp png, png_const_charp message)
{
    auto* state = static_cast<PngState*>(png_get_error_ptr(png));
    if (state != nullptr) {
        state->error = message != nullptr ? message : "unknown error";
    }
    png_longjmp(png, 1);
}

void pngWarning(png_structp png, png_const_charp message)
{
    const std::string text = message != nullptr ? message : "";
    auto* state = static_cast<PngState*>(png_get_error_ptr(png));
    if (state != nullptr) {
        state->lastWarning = text;
    }
    ioDiagnostic("libpng", text);
}

void pngReadData(png_structp png, png_bytep data, std::size_t length)
{
    auto* state = static_cast<PngState*>(png_get_io_ptr(png));
    if (state->position > state->input.size() || state->input.size() - state->position < length) {
        png_error(png, "the file ends early");
    }
    std::memcpy(data, state->input.data() + state->position, length);
    state->position += length;
}

void pngWriteData(png_structp png, png_bytep data, std::size_t length)
{
    auto* state = static_cast<PngState*>(png_get_io_ptr(png));
    state->output->insert(state->output->end(), data, data + length);
}

void pngFlush(png_structp)
{
}

std::string describePngError(const std::string& message)
{
    std::string oneLine = message;
    std::replace(oneLine.begin(), oneLine.end(), '\n', ' ');
    if (oneLine == "the file ends early" || oneLine == "Read Error") {
        return "truncated PNG data: the file ends before the image is complete";
    }
    if (oneLine == "Not enough image data") {
        return "truncated PNG data: not enough image data";
    }
    if (oneLine.find("CRC error") != std::string::npos) {
        // libpng says "IDAT: CRC error"; name the chunk in words.
        const auto colon = oneLine.find(':');
        if (colon != std::string::npos && colon > 0) {
            return "corrupt PNG data: CRC error in chunk " + oneLine.substr(0, colon);
        }
    }
    return "corrupt PNG data: " + oneLine;
}

std::string decodeRawProfile(std::string_view text)
{
    // "\n<name>\n<spaces><decimal length>\n<hex digits, split over lines>"
    std::size_t pos = 0;
    while (pos < text.size() && text[pos] == '\n') {
        ++pos;
    }
    const std::size_t nameEnd = text.find('\n', pos);
    if (nameEnd == std::string_view::npos) {
        return {};
    }
    pos = nameEnd + 1;
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) {
        ++pos;
    }
    std::size_t length = 0;
    bool digits = false;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) != 0) {
        length = length * 10 + static_cast<std::size_t>(text[pos] - '0');
        digits = true;
        ++pos;
        if (length > kMaxMetadataPartBytes) {
            return {};
        }
    }
    if (!digits) {
        return {};
    }
    std::string bytes;
    bytes.reserve(length);
    int high = -1;
    for (; pos < text.size() && bytes.size() < length; ++pos) {
        const char c = text[pos];
        int value = -1;
        if (c >= '0' && c <= '9') {
            value = c - '0';
        } else if (c >= 'a' && c <= 'f') {
            value = c - 'a' + 10;
        } else if (c >= 'A' && c <= 'F') {
            value = c - 'A' + 10;
        } else if (std::isspace(static_cast<unsigned char>(c)) != 0) {
            continue;
        } else {
            return {};
        }
        if (high < 0) {
            high = value;
        } else {
            bytes.push_back(static_cast<char>(high * 16 + value));
            high = -1;
        }
    }
    if (bytes.size() != length) {
        return {};
    }
    return bytes;
}

std::string encodeRawProfile(std::string_view name, std::string_view bytes)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string text = "\n" + std::string(name) + "\n";
    const std::string length = std::to_string(bytes.size());
    text += std::string(length.size() < 8 ? 8 - length.size() : 0, ' ') + length;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i % 36 == 0) {
            text += '\n';
        }
        const auto b = static_cast<unsigned char>(bytes[i]);
        text += kHex[b >> 4];
        text += kHex[b & 15];
    }
    text += '\n';
    return text;
}

namespace {

std::uint32_t bigEndian32(const std::string& s, std::size_t at)
{
    return (std::uint32_t(static_cast<unsigned char>(s[at])) << 24) |
           (std::uint32_t(static_cast<unsigned char>(s[at + 1])) << 16) |
           (std::uint32_t(static_cast<unsigned char>(s[at + 2])) << 8) |
           std::uint32_t(static_cast<unsigned char>(s[at + 3]));
}

}  // namespace

std::string iptcFromProfileBytes(const std::string& bytes)
{
    if (!bytes.empty() && static_cast<unsigned char>(bytes[0]) == 0x1c) {
        return bytes;
    }
    // Photoshop image resources: "8BIM", id (2), Pascal name padded to even, size (4), data padded.
    std::size_t pos = 0;
    while (pos + 12 <= bytes.size() && bytes.compare(pos, 4, "8BIM") == 0) {
        const unsigned id = (unsigned(static_cast<unsigned char>(bytes[pos + 4])) << 8) |
                            unsigned(static_cast<unsigned char>(bytes[pos + 5]));
        std::size_t at = pos + 6;
        const std::size_t nameLength = static_cast<unsigned char>(bytes[at]);
        at += (nameLength + 2) & ~std::size_t{1};
        if (at + 4 > bytes.size()) {
            return {};
        }
        const std::size_t size = bigEndian32(bytes, at);
        at += 4;
        if (size > bytes.size() - at) {
            return {};
        }
        if (id == 0x0404) {
            return bytes.substr(at, size);
        }
        pos = at + ((size + 1) & ~std::size_t{1});
    }
    return {};
}

std::string wrapIptcInPhotoshopBlock(const std::string& iptc)
{
    std::string block = "8BIM";
    block += '\x04';
    block += '\x04';
    block += std::string(2, '\0');  // empty name, padded to even
    const auto size = static_cast<std::uint32_t>(iptc.size());
    for (int shift = 24; shift >= 0; shift -= 8) {
        block += static_cast<char>((size >> shift) & 0xff);
    }
    block += iptc;
    if (iptc.size() % 2 != 0) {
        block += '\0';
    }
    return block;
}

void collectPngMetadata(png_structp png, png_infop info, ImageMetadata& metadata)
{
    png_charp name = nullptr;
    int compression = 0;
    png_bytep profile = nullptr;
    png_uint_32 profileLength = 0;
    if (metadata.icc.empty() &&
        png_get_iCCP(png, info, &name, &compression, &profile, &profileLength) == PNG_INFO_iCCP && profile != nullptr &&
        profileLength <= kMaxMetadataPartBytes) {
        metadata.icc.assign(reinterpret_cast<const char*>(profile), profileLength);
    }
    png_bytep exif = nullptr;
    png_uint_32 exifLength = 0;
    if (metadata.exif.empty() && png_get_eXIf_1(png, info, &exifLength, &exif) == PNG_INFO_eXIf && exif != nullptr &&
        exifLength <= kMaxMetadataPartBytes) {
        metadata.exif.assign(reinterpret_cast<const char*>(exif), exifLength);
    }
    png_textp texts = nullptr;
    int count = 0;
    png_get_text(png, info, &texts, &count);
    for (int i = 0; i < count; ++i) {
        const png_text& t = texts[i];
        if (t.key == nullptr || t.text == nullptr) {
            continue;
        }
        const std::size_t length = t.compression >= PNG_ITXT_COMPRESSION_NONE ? t.itxt_length : t.text_length;
        const std::string_view text(t.text, length);
        if (std::strcmp(t.key, kXmpKeyword) == 0 && metadata.xmp.empty() && length <= kMaxMetadataPartBytes) {
            metadata.xmp.assign(text);
        } else if (std::strcmp(t.key, kIptcKeyword) == 0 && metadata.iptc.empty()) {
            metadata.iptc = iptcFromProfileBytes(decodeRawProfile(text));
        } else if ((std::strcmp(t.key, "Raw profile type exif") == 0 ||
                    std::strcmp(t.key, "Raw profile type APP1") == 0) &&
                   metadata.exif.empty()) {
            // EXIF as exiv2 and ImageMagick write it into PNG files that predate eXIf: hex text
            // of the APP1 payload, "Exif\0\0" and the TIFF-structured block.
            std::string block = decodeRawProfile(text);
            if (block.rfind(std::string("Exif\0\0", 6), 0) == 0) {
                block.erase(0, 6);
            }
            if ((block.rfind("II*", 0) == 0 || block.rfind("MM\0*", 0) == 0) && block.size() <= kMaxMetadataPartBytes) {
                metadata.exif = std::move(block);
            }
        }
    }
}

}  // namespace tessera::app::codec::png_detail
