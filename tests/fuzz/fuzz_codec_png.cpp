// SPDX-License-Identifier: Apache-2.0
// The PNG reader and metadata reader on outside bytes: never crash, hang or leak, fail only with
// CodecError, and whatever decodes must encode again and read back the same.
#include "tests/fuzz/fuzz_codec.h"

#include <cstdlib>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tessera::app::codec;
    const std::span<const std::uint8_t> file(data, size);
    (void)readPngMetadata(file);
    DecodeBudget budget;
    budget.maxPixels = std::uint64_t{4} << 20;
    budget.maxWork = std::uint64_t{16} << 20;
    tessera::fuzz::decodeAndReencode(file, budget, readPng, writePng, {});
    return 0;
}
