// SPDX-License-Identifier: Apache-2.0
// The Webp reader takes files from anywhere: it must refuse damage with CodecError, never crash,
// hang or allocate past its budget; what it decodes must have a shape Tessera takes and must
// encode again.
#include "tests/fuzz/fuzz_codec.h"

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
    tessera::fuzz::CodecCheck check;
    check.reencodeUpTo = 4096;
    check.readBack = false;  // lossy by default
    check.carryMetadata = true;
    tessera::fuzz::decodeAndReencode(file, budget, readWebp, writeWebp, check);
    const tessera::app::ImageMetadata metadata = readWebpMetadata(file);
    if (metadata.exif.size() > tessera::app::kMaxMetadataPartBytes) {
        std::abort();
    }
    return 0;
}
