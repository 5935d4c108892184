// SPDX-License-Identifier: Apache-2.0
#include "app/io/sample_depth.h"

#include "app/io/image_header.h"
#include "app/io/tiff_samples.h"

#include <opencv2/core/hal/interface.h>

#include <array>
#include <cstdint>
#include <fstream>

namespace tessera::app {

namespace {

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

// BitsPerSample (258) and SampleFormat (339) of a classic TIFF's first IFD, SHORT fields; a tag
// that is absent takes its default (1 bit, unsigned integer). Of several samples the first stands
// for all, as for the decoder.
std::optional<int> tiffDepth(std::istream& in)
{
    constexpr std::uint16_t kBitsPerSample = 258;
    constexpr std::uint16_t kSampleFormat = 339;
    const auto fields = tiffFirstFields(in, {kBitsPerSample, kSampleFormat});
    if (!fields) {
        return std::nullopt;
    }
    std::uint32_t bits = 1;
    std::uint32_t sampleFormat = 1;
    for (const auto& [tag, field] : *fields) {
        if (field.type != 3 || !field.first) {
            return std::nullopt;
        }
        (tag == kBitsPerSample ? bits : sampleFormat) = *field.first;
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
