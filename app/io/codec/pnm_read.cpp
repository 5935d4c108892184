// SPDX-License-Identifier: Apache-2.0
// Netpbm images (PBM, PGM, PPM: P1 to P6), read by a small parser of Tessera's own: grey comes
// back as one channel, colour as B, G, R, 16-bit samples (maxval above 255) as CV_16U scaled as
// stored, bitmaps as 0 or 255 (ink is 1, shown black). Every number and size is checked against
// the bytes there are.

#include "app/io/codec/codec.h"

#include <opencv2/core.hpp>

#include <cctype>
#include <cstdint>

namespace tessera::app::codec {

namespace {

struct Cursor {
    std::span<const std::uint8_t> bytes;
    std::size_t at = 0;

    void skipSpaceAndComments()
    {
        while (at < bytes.size()) {
            if (bytes[at] == '#') {
                while (at < bytes.size() && bytes[at] != '\n' && bytes[at] != '\r') {
                    ++at;
                }
            } else if (std::isspace(bytes[at]) != 0) {
                ++at;
            } else {
                return;
            }
        }
    }

    std::uint32_t number(const char* what)
    {
        skipSpaceAndComments();
        std::uint64_t value = 0;
        std::size_t digits = 0;
        while (at < bytes.size() && std::isdigit(bytes[at]) != 0) {
            value = value * 10 + (bytes[at] - '0');
            if (value > 0xFFFFFFFFull) {
                throw CodecError(std::string("corrupt PNM header: the ") + what + " is too large");
            }
            ++at;
            ++digits;
        }
        if (digits == 0) {
            throw CodecError(std::string("corrupt PNM header: no ") + what + " where one belongs");
        }
        return static_cast<std::uint32_t>(value);
    }
};

}  // namespace

bool looksLikePnm(std::span<const std::uint8_t> file)
{
    return file.size() >= 3 && file[0] == 'P' && file[1] >= '1' && file[1] <= '6' && std::isspace(file[2]) != 0;
}

Decoded readPnm(std::span<const std::uint8_t> file, const DecodeBudget& budget)
{
    if (!looksLikePnm(file)) {
        throw CodecError("not a PNM file (no P1 to P6 signature)");
    }
    const int kind = file[1] - '0';
    Cursor c{file, 2};
    const std::uint32_t width = c.number("width");
    const std::uint32_t height = c.number("height");
    const bool bitmap = kind == 1 || kind == 4;
    const std::uint32_t maxval = bitmap ? 1 : c.number("maximum value");
    if (maxval == 0 || maxval > 65535) {
        throw CodecError("corrupt PNM header: a maximum value of " + std::to_string(maxval) + " (1 to 65535)");
    }
    if (width > 0x7FFFFFFF || height > 0x7FFFFFFF) {
        throw CodecError("corrupt PNM header: its size is too large");
    }
    checkSize(static_cast<int>(width), static_cast<int>(height), budget);
    const bool binary = kind >= 4;
    if (binary) {
        if (c.at >= file.size() || std::isspace(file[c.at]) == 0) {
            throw CodecError("corrupt PNM header: no whitespace before the pixels");
        }
        ++c.at;  // exactly one whitespace byte before binary pixels
    }
    const int channels = kind == 3 || kind == 6 ? 3 : 1;
    const bool wide = maxval > 255;
    Decoded out;
    out.pixels.create(static_cast<int>(height), static_cast<int>(width), CV_MAKETYPE(wide ? CV_16U : CV_8U, channels));
    const std::size_t samplesPerRow = std::size_t(width) * std::size_t(channels);
    const std::size_t rowBytes = kind == 4 ? (std::size_t(width) + 7) / 8 : samplesPerRow * (wide ? 2 : 1);
    if (binary && (file.size() - c.at) / std::max<std::size_t>(rowBytes, 1) < height) {
        throw CodecError("truncated PNM data: the file ends before the image does");
    }
    for (std::uint32_t y = 0; y < height; ++y) {
        if (y % 256 == 0) {
            checkCancel(budget);
        }
        for (std::size_t i = 0; i < samplesPerRow; ++i) {
            std::uint32_t v = 0;
            if (kind == 4) {
                const std::uint8_t byte = file[c.at + i / 8];
                v = (byte >> (7 - i % 8)) & 1u;
            } else if (binary) {
                v = wide ? (std::uint32_t(file[c.at + 2 * i]) << 8 | file[c.at + 2 * i + 1]) : file[c.at + i];
            } else if (kind == 1) {
                c.skipSpaceAndComments();
                if (c.at >= file.size() || (file[c.at] != '0' && file[c.at] != '1')) {
                    throw CodecError("truncated PNM data: the file ends before the image does");
                }
                v = file[c.at++] - '0';
            } else {
                v = c.number("sample");
            }
            if (v > maxval) {
                throw CodecError("corrupt PNM data: a sample of " + std::to_string(v) + " above the maximum value " +
                                 std::to_string(maxval));
            }
            if (bitmap) {
                v = v != 0 ? 0 : 255;  // 1 is ink
            }
            // Colour is stored R, G, B; held B, G, R.
            const std::size_t x = i / std::size_t(channels);
            const std::size_t s = channels == 3 ? 2 - i % 3 : 0;
            if (wide) {
                out.pixels.ptr<std::uint16_t>(static_cast<int>(y))[x * std::size_t(channels) + s] =
                    static_cast<std::uint16_t>(v);
            } else {
                out.pixels.ptr<std::uint8_t>(static_cast<int>(y))[x * std::size_t(channels) + s] =
                    static_cast<std::uint8_t>(v);
            }
        }
        if (binary) {
            c.at += rowBytes;
        }
    }
    return out;
}

}  // namespace tessera::app::codec
