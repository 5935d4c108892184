// SPDX-License-Identifier: Apache-2.0
// The BMP reader on hostile bytes: every size and offset is checked against the buffer, so no
// crash or out-of-bounds read; a decoded grey or BGR image re-encodes and reads back the same.
#include "app/io/codec/codec.h"

#include <opencv2/core.hpp>

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tessera::app::codec;
    DecodeBudget budget;
    budget.maxPixels = 4u << 20;
    try {
        const Decoded d = readBmp(std::span<const std::uint8_t>(data, size), budget);
        if (d.pixels.empty() || d.pixels.channels() == 2 || d.pixels.channels() > 4) {
            std::abort();
        }
        if (d.pixels.channels() != 4) {
            MetadataWritten written;
            const auto again = writeBmp(d.pixels, nullptr, EncodeOptions{}, written);
            const Decoded back = readBmp(again, budget);
            if (back.pixels.type() != d.pixels.type() || cv::norm(back.pixels, d.pixels, cv::NORM_INF) != 0) {
                std::abort();
            }
        }
    } catch (const CodecError&) {
    }
    return 0;
}
