// SPDX-License-Identifier: Apache-2.0
// The BMP writer, as OpenCV 4.6 wrote BMP: a BITMAPINFOHEADER, bottom-up rows padded to four
// bytes, 8-bit grey with a grey palette or 24-bit BGR. BMP carries no metadata.
#include "app/io/codec/codec.h"

namespace tessera::app::codec {
namespace {

void put32(std::vector<std::uint8_t>& out, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i) {
        out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
}

void put16(std::vector<std::uint8_t>& out, std::uint16_t v)
{
    out.push_back(static_cast<std::uint8_t>(v));
    out.push_back(static_cast<std::uint8_t>(v >> 8));
}

}  // namespace

std::vector<std::uint8_t> writeBmp(const cv::Mat& img, const ImageMetadata* metadata, const EncodeOptions& /*options*/,
                                   MetadataWritten& written)
{
    written = MetadataWritten{};
    if (img.empty()) {
        throw CodecError("BMP: there is no image to write");
    }
    if (img.depth() != CV_8U || (img.channels() != 1 && img.channels() != 3)) {
        throw CodecError("BMP holds 8-bit grey or 8-bit BGR images; the image has " + std::to_string(img.channels()) +
                         " channels of " + std::to_string(img.elemSize1() * 8) + "-bit samples");
    }
    if (metadata != nullptr) {
        const char* const names[] = {"EXIF", "XMP", "ICC profile", "IPTC"};
        const std::string* parts[] = {&metadata->exif, &metadata->xmp, &metadata->icc, &metadata->iptc};
        for (int i = 0; i < 4; ++i) {
            if (!parts[i]->empty()) {
                written.dropped.push_back(std::string(names[i]) + ": BMP has no place for it");
            }
        }
    }
    const int channels = img.channels();
    const std::uint64_t rowBytes = std::uint64_t(img.cols) * std::uint64_t(channels);
    const std::uint64_t stride = (rowBytes + 3) & ~std::uint64_t{3};
    const std::uint32_t paletteBytes = channels == 1 ? 1024 : 0;
    const std::uint32_t headerBytes = 14 + 40 + paletteBytes;
    const std::uint64_t fileSize = stride * std::uint64_t(img.rows) + headerBytes;
    if (fileSize > 0x7fffffffu) {
        throw CodecError("BMP: " + std::to_string(fileSize) + " bytes pass the 2 GiB a BMP file can hold");
    }
    std::vector<std::uint8_t> out;
    out.reserve(static_cast<std::size_t>(fileSize));
    out.push_back('B');
    out.push_back('M');
    put32(out, static_cast<std::uint32_t>(fileSize));
    put32(out, 0);
    put32(out, headerBytes);
    put32(out, 40);
    put32(out, static_cast<std::uint32_t>(img.cols));
    put32(out, static_cast<std::uint32_t>(img.rows));
    put16(out, 1);
    put16(out, static_cast<std::uint16_t>(channels * 8));
    for (int i = 0; i < 6; ++i) {
        put32(out, 0);  // BI_RGB, image size, resolution, colours used and important
    }
    if (channels == 1) {
        for (int i = 0; i < 256; ++i) {
            const auto v = static_cast<std::uint8_t>(i);
            out.insert(out.end(), {v, v, v, 0});
        }
    }
    for (int y = img.rows - 1; y >= 0; --y) {
        const std::uint8_t* row = img.ptr<std::uint8_t>(y);
        out.insert(out.end(), row, row + rowBytes);
        out.insert(out.end(), static_cast<std::size_t>(stride - rowBytes), std::uint8_t{0});
    }
    return out;
}

}  // namespace tessera::app::codec
