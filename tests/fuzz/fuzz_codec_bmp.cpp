// SPDX-License-Identifier: Apache-2.0
// The BMP reader on hostile bytes: every size and offset is checked against the buffer, so no
// crash or out-of-bounds read; a decoded grey or BGR image re-encodes and reads back the same.
#include "tests/fuzz/fuzz_codec.h"

#include <cstdlib>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tessera::app::codec;
    const std::span<const std::uint8_t> file(data, size);
    DecodeBudget budget;
    budget.maxPixels = 4u << 20;
    tessera::fuzz::CodecCheck check;
    check.channels = 0b11010;
    check.reencodeUpTo = budget.maxPixels;
    check.reencodeFourChannels = false;  // written without alpha
    tessera::fuzz::decodeAndReencode(file, budget, readBmp, writeBmp, check);
    return 0;
}
