// SPDX-License-Identifier: Apache-2.0
// The TIFF reader and metadata reader on outside bytes: never crash, hang or leak, fail only with
// CodecError; what decodes (as stored) encodes again and reads back the same, and the EXIF
// block rebuilt from its directories goes into a written TIFF without a crash.
#include "app/io/codec/codec.h"

#include <cstdlib>
#include <cstring>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tessera::app::codec;
    const std::span<const std::uint8_t> file(data, size);
    const tessera::app::ImageMetadata metadata = readTiffMetadata(file);
    DecodeBudget budget;
    budget.maxPixels = std::uint64_t{4} << 20;
    budget.maxWork = std::uint64_t{16} << 20;
    try {
        const Decoded decoded = readTiff(file, budget);
        if (decoded.pixels.empty()) {
            std::abort();
        }
        const int channels = decoded.pixels.channels();
        if (channels == 2 || decoded.pixels.total() > 65536) {
            return 0;
        }
        MetadataWritten written;
        const std::vector<std::uint8_t> again = writeTiff(decoded.pixels, &metadata, EncodeOptions{}, written);
        const Decoded back = readTiff(again, budget);
        if (back.pixels.type() != decoded.pixels.type() || back.pixels.size() != decoded.pixels.size()) {
            std::abort();
        }
        for (int y = 0; y < back.pixels.rows; ++y) {
            if (std::memcmp(back.pixels.ptr(y), decoded.pixels.ptr(y), back.pixels.cols * back.pixels.elemSize()) != 0) {
                std::abort();
            }
        }
    } catch (const CodecError&) {
    }
    return 0;
}
