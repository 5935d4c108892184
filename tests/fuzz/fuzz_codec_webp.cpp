// SPDX-License-Identifier: Apache-2.0
// The Webp reader takes files from anywhere: it must refuse damage with CodecError, never crash,
// hang or allocate past its budget; what it decodes must have a shape Tessera takes and must
// encode again.
#include "app/io/codec/codec.h"

#include <cstdlib>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tessera::app::codec;
    const std::span<const std::uint8_t> file(data, size);
    DecodeBudget budget;
    budget.maxPixels = 4u << 20;
    budget.maxWidth = 8192;
    budget.maxHeight = 8192;
    try {
        const Decoded decoded = readWebp(file, budget);
        const cv::Mat& px = decoded.pixels;
        if (px.empty() || std::uint64_t(px.total()) > budget.maxPixels) {
            std::abort();
        }
        if (px.total() <= 4096) {
            MetadataWritten written;
            EncodeOptions options;
            const cv::Mat again = px.channels() == 2 ? cv::Mat() : px;
            if (!again.empty()) {
                writeWebp(again, &decoded.metadata, options, written);
            }
        }
    } catch (const CodecError&) {
    }
    const tessera::app::ImageMetadata metadata = readWebpMetadata(file);
    if (metadata.exif.size() > tessera::app::kMaxMetadataPartBytes) {
        std::abort();
    }
    return 0;
}
