// SPDX-License-Identifier: Apache-2.0
// The JPEG reader and metadata reader on hostile bytes: no crash, hang or unbounded allocation;
// a decoded image re-encodes.
#include "app/io/codec/codec.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tessera::app::codec;
    const std::span<const std::uint8_t> file(data, size);
    readJpegMetadata(file);
    DecodeBudget budget;
    budget.maxPixels = 4u << 20;
    budget.maxWork = 64u << 20;
    budget.maxJpegScans = 100;
    try {
        const Decoded d = readJpeg(file, budget);
        if (d.pixels.empty() || (d.pixels.channels() != 1 && d.pixels.channels() != 3)) {
            std::abort();
        }
        MetadataWritten written;
        writeJpeg(d.pixels, &d.metadata, EncodeOptions{}, written);
    } catch (const CodecError&) {
    }
    return 0;
}
