// SPDX-License-Identifier: Apache-2.0
// The JPEG reader and metadata reader on hostile bytes: no crash, hang or unbounded allocation;
// a decoded image re-encodes.
#include "tests/fuzz/fuzz_codec.h"

#include <cstdlib>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tessera::app::codec;
    const std::span<const std::uint8_t> file(data, size);
    readJpegMetadata(file);
    DecodeBudget budget;
    budget.maxPixels = 4u << 20;
    budget.maxWork = 64u << 20;
    budget.maxJpegScans = 100;
    tessera::fuzz::CodecCheck check;
    check.channels = 0b1010;  // grey or colour
    check.reencodeUpTo = budget.maxPixels;
    check.readBack = false;  // lossy
    check.carryMetadata = true;
    tessera::fuzz::decodeAndReencode(file, budget, readJpeg, writeJpeg, check);
    return 0;
}
