// SPDX-License-Identifier: Apache-2.0
#include "app/io/sample_depth.h"

#include "app/io/image_header.h"

#include <opencv2/core/hal/interface.h>

#include <array>
#include <cstdint>
#include <fstream>

namespace tessera::app {

namespace {

// Reads n bytes at offset; false when the stream holds fewer.
bool readAt(std::istream& in, std::uint64_t offset, unsigned char* out, std::size_t n)
{
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset));
    return static_cast<bool>(in.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(n)));
}

std::optional<int> pngDepth(std::istream& in)
{
    // Signature (8), IHDR length and type (8), width and height (8), then the bit depth.
    unsigned char bits = 0;
    if (!readAt(in, 24, &bits, 1)) {
        return std::nullopt;
    }
    if (bits == 16) {
        return CV_16U;
    }
    return bits >= 1 && bits <= 8 ? std::optional<int>(CV_8U) : std::nullopt;
}

// BitsPerSample (258) and SampleFormat (339) of a classic TIFF's first IFD; a tag that is absent
// takes its default (1 bit, unsigned integer). Of several samples the first stands for all, as
// for the decoder.
std::optional<int> tiffDepth(std::istream& in)
{
    std::array<unsigned char, 8> head{};
    if (!readAt(in, 0, head.data(), head.size())) {
        return std::nullopt;
    }
    const bool little = head[0] == 'I' && head[1] == 'I';
    const auto u16 = [little](const unsigned char* p) {
        return static_cast<std::uint32_t>(little ? p[0] | (p[1] << 8) : (p[0] << 8) | p[1]);
    };
    const auto u32 = [little](const unsigned char* p) {
        return little ? std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
                            std::uint32_t(p[3]) << 24
                      : std::uint32_t(p[3]) | std::uint32_t(p[2]) << 8 | std::uint32_t(p[1]) << 16 |
                            std::uint32_t(p[0]) << 24;
    };
    if (u16(head.data() + 2) != 42) {
        return std::nullopt;
    }
    const std::uint32_t ifd = u32(head.data() + 4);
    std::array<unsigned char, 2> countBytes{};
    if (!readAt(in, ifd, countBytes.data(), countBytes.size())) {
        return std::nullopt;
    }
    // The first value of a SHORT field: inline when the values fit in four bytes, otherwise at
    // the offset the entry holds.
    const auto firstShort = [&](const unsigned char* entry) -> std::optional<std::uint32_t> {
        if (u16(entry + 2) != 3) {
            return std::nullopt;
        }
        const std::uint32_t count = u32(entry + 4);
        if (count <= 2) {
            return u16(entry + 8);
        }
        std::array<unsigned char, 2> value{};
        if (!readAt(in, u32(entry + 8), value.data(), value.size())) {
            return std::nullopt;
        }
        return u16(value.data());
    };
    std::uint32_t bits = 1;
    std::uint32_t sampleFormat = 1;
    const std::uint32_t count = u16(countBytes.data());
    for (std::uint32_t i = 0; i < count; ++i) {
        std::array<unsigned char, 12> entry{};
        if (!readAt(in, ifd + 2 + 12ULL * i, entry.data(), entry.size())) {
            return std::nullopt;
        }
        const std::uint32_t tag = u16(entry.data());
        if (tag == 258 || tag == 339) {
            const std::optional<std::uint32_t> value = firstShort(entry.data());
            if (!value) {
                return std::nullopt;
            }
            (tag == 258 ? bits : sampleFormat) = *value;
        }
    }
    if (sampleFormat == 3) {
        return bits == 32 ? std::optional<int>(CV_32F) : std::nullopt;
    }
    if (sampleFormat != 1) {
        return std::nullopt;
    }
    if (bits <= 8) {
        return CV_8U;
    }
    return bits == 16 ? std::optional<int>(CV_16U) : std::nullopt;
}

}  // namespace

std::optional<int> sniffSampleDepth(std::istream& in)
{
    const ImageHeader header = sniffImageHeader(in);
    if (header.format == "png") {
        return pngDepth(in);
    }
    if (header.format == "tiff") {
        return tiffDepth(in);
    }
    if (header.format == "jpeg" || header.format == "bmp" || header.format == "webp") {
        return CV_8U;
    }
    if (header.format == "exr") {
        return CV_32F;
    }
    return std::nullopt;
}

std::optional<int> sniffSampleDepth(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    return sniffSampleDepth(in);
}

}  // namespace tessera::app
