// SPDX-License-Identifier: Apache-2.0
// The BMP reader: Windows bitmaps with BITMAPINFOHEADER, V4 or V5 headers (and the old 12-byte
// OS/2 core header), 1/4/8-bit palettes, 16-bit 555/565, 24 and 32 bits, bottom-up or top-down.
// Pixels as OpenCV 4.6 read them: a palette of greys gives one channel, 32 bits give BGRA only
// with bit fields (BI_RGB drops the fourth byte). Every size and offset is checked against the
// buffer before it is used: this is a parser of untrusted bytes.
#include "app/io/codec/codec.h"

#include <opencv2/core.hpp>

#include <array>
#include <cstring>

namespace tessera::app::codec {
namespace {

constexpr std::uint32_t kRgb = 0, kRle8 = 1, kRle4 = 2, kBitFields = 3;

std::uint32_t le32(std::span<const std::uint8_t> b, std::size_t at)
{
    return std::uint32_t(b[at]) | std::uint32_t(b[at + 1]) << 8 | std::uint32_t(b[at + 2]) << 16 |
           std::uint32_t(b[at + 3]) << 24;
}

std::uint16_t le16(std::span<const std::uint8_t> b, std::size_t at)
{
    return static_cast<std::uint16_t>(b[at] | b[at + 1] << 8);
}

struct Layout {
    int width = 0;
    int height = 0;
    bool topDown = false;
    int bpp = 0;  // 15 for 16-bit 555, 16 for 565
    std::uint32_t compression = kRgb;
    std::array<std::array<std::uint8_t, 4>, 256> palette{};  // B, G, R, unused
    bool colour = true;
    std::size_t dataOffset = 0;
};

/// A 16-bit BMP's form: 15 for 5-5-5 (given by bit field masks or by default), 16 for 5-6-5;
/// any other bpp is returned as it is. Throws CodecError for other masks or a file that ends
/// before them.
int sixteenBitForm(std::span<const std::uint8_t> file, const Layout& l, std::uint32_t headerSize, std::size_t paletteAt)
{
    if (l.bpp != 16) {
        return l.bpp;
    }
    if (l.compression != kBitFields) {
        return 15;
    }
    // The masks follow a 40-byte header and are part of the V4/V5 headers.
    const std::size_t masksAt = headerSize == 40 ? paletteAt : 14 + 40;
    if (file.size() < masksAt + 12) {
        throw CodecError("truncated BMP data: the file ends before its bit field masks");
    }
    const std::uint32_t r = le32(file, masksAt), g = le32(file, masksAt + 4), b = le32(file, masksAt + 8);
    if (b == 0x1f && g == 0x3e0 && r == 0x7c00) {
        return 15;
    }
    if (!(b == 0x1f && g == 0x7e0 && r == 0xf800)) {
        throw CodecError("BMP with 16-bit fields other than 5-5-5 or 5-6-5 is not supported");
    }
    return 16;
}

/// The palette's entries (B, G, R, of 3 or 4 bytes each) and whether any is not grey. Throws
/// CodecError when the file ends inside it.
void readPalette(std::span<const std::uint8_t> file, std::size_t at, std::size_t entries, std::size_t entrySize,
                 Layout& l)
{
    if (at + entries * entrySize > file.size()) {
        throw CodecError("truncated BMP data: the file ends inside its palette");
    }
    for (std::size_t i = 0; i < entries; ++i) {
        std::memcpy(l.palette[i].data(), file.data() + at + i * entrySize, 3);
    }
    l.colour = false;
    for (std::size_t i = 0; i < (std::size_t{1} << l.bpp); ++i) {
        if (l.palette[i][0] != l.palette[i][1] || l.palette[i][0] != l.palette[i][2]) {
            l.colour = true;
        }
    }
}

Layout readLayout(std::span<const std::uint8_t> file)
{
    if (file.size() < 26 || file[0] != 'B' || file[1] != 'M') {
        throw CodecError("not a BMP file: it does not start with \"BM\" and a header");
    }
    Layout l;
    l.dataOffset = le32(file, 10);
    const std::uint32_t headerSize = le32(file, 14);
    const std::size_t infoAt = 14;
    std::size_t paletteAt = 0;
    std::size_t paletteEntries = 0;
    std::size_t entrySize = 4;
    std::int64_t height = 0;
    if (headerSize == 12) {
        l.width = le16(file, 18);
        height = le16(file, 20);
        l.bpp = le16(file, 24);
        paletteAt = infoAt + 12;
        entrySize = 3;
        paletteEntries = l.bpp <= 8 ? std::size_t{1} << l.bpp : 0;
    } else if (headerSize >= 40 && headerSize <= 1024) {
        if (file.size() < infoAt + headerSize) {
            throw CodecError("truncated BMP data: the file ends inside its header");
        }
        const auto w = static_cast<std::int32_t>(le32(file, 18));
        height = static_cast<std::int32_t>(le32(file, 22));
        if (w <= 0) {
            throw CodecError("invalid BMP data: the header gives a width of " + std::to_string(w));
        }
        l.width = w;
        l.bpp = le16(file, 28);
        l.compression = le32(file, 30);
        const std::uint32_t used = le32(file, 46);
        if (l.bpp <= 8 && used > 256) {
            throw CodecError("invalid BMP data: a palette of " + std::to_string(used) + " colours");
        }
        paletteAt = infoAt + headerSize;
        paletteEntries = l.bpp <= 8 ? (used == 0 ? std::size_t{1} << l.bpp : used) : 0;
        l.bpp = sixteenBitForm(file, l, headerSize, paletteAt);
    } else {
        throw CodecError("invalid BMP data: an info header of " + std::to_string(headerSize) + " bytes");
    }
    if (l.compression == kRle4 || l.compression == kRle8) {
        throw CodecError("BMP with RLE compression is not supported; save it uncompressed");
    }
    const bool supported =
        ((l.bpp == 1 || l.bpp == 4 || l.bpp == 8 || l.bpp == 24) && l.compression == kRgb) ||
        ((l.bpp == 15 || l.bpp == 16 || l.bpp == 32) && (l.compression == kRgb || l.compression == kBitFields));
    if (!supported) {
        throw CodecError("BMP with " + std::to_string(l.bpp) + " bits per pixel and compression " +
                         std::to_string(l.compression) + " is not supported");
    }
    if (height == 0 || height < -std::int64_t{0x7fffffff}) {
        throw CodecError("invalid BMP data: the header gives a height of " + std::to_string(height));
    }
    l.topDown = height < 0;
    l.height = static_cast<int>(height < 0 ? -height : height);
    if (paletteEntries > 0) {
        readPalette(file, paletteAt, paletteEntries, entrySize, l);
    }
    return l;
}

}  // namespace

Decoded readBmp(std::span<const std::uint8_t> file, const DecodeBudget& budget)
{
    const Layout l = readLayout(file);
    checkSize(l.width, l.height, budget);
    const int bits = l.bpp == 15 ? 16 : l.bpp;
    const std::uint64_t stride = ((std::uint64_t(l.width) * bits + 31) / 32) * 4;
    if (l.dataOffset > file.size() || stride * std::uint64_t(l.height) > file.size() - l.dataOffset) {
        throw CodecError("truncated BMP data: " + std::to_string(l.width) + " x " + std::to_string(l.height) +
                         " pixels need " + std::to_string(stride * std::uint64_t(l.height)) +
                         " bytes of pixel data, the file has " +
                         std::to_string(l.dataOffset > file.size() ? 0 : file.size() - l.dataOffset));
    }
    const int channels = l.bpp <= 8 && !l.colour ? 1 : (l.bpp == 32 && l.compression == kBitFields ? 4 : 3);
    Decoded out;
    out.pixels.create(l.height, l.width, CV_8UC(channels));
    for (int y = 0; y < l.height; ++y) {
        if ((y & 63) == 0) {
            checkCancel(budget);
        }
        const int fileRow = l.topDown ? y : l.height - 1 - y;
        const std::uint8_t* src = file.data() + l.dataOffset + stride * std::uint64_t(fileRow);
        std::uint8_t* dst = out.pixels.ptr<std::uint8_t>(y);
        for (int x = 0; x < l.width; ++x, dst += channels) {
            if (l.bpp <= 8) {
                const int perByte = 8 / l.bpp;
                const int shift = 8 - l.bpp * (x % perByte + 1);
                const int index = (src[x / perByte] >> shift) & ((1 << l.bpp) - 1);
                std::memcpy(dst, l.palette[static_cast<std::size_t>(index)].data(), static_cast<std::size_t>(channels));
            } else if (l.bpp == 15 || l.bpp == 16) {
                const unsigned t = src[2 * x] | src[2 * x + 1] << 8;
                dst[0] = static_cast<std::uint8_t>(t << 3);
                dst[1] = static_cast<std::uint8_t>(l.bpp == 15 ? (t >> 2) & ~7u : (t >> 3) & ~3u);
                dst[2] = static_cast<std::uint8_t>(l.bpp == 15 ? (t >> 7) & ~7u : (t >> 8) & ~7u);
            } else {
                std::memcpy(dst, src + std::size_t(x) * std::size_t(bits / 8), static_cast<std::size_t>(channels));
            }
        }
    }
    return out;
}

}  // namespace tessera::app::codec
