// SPDX-License-Identifier: Apache-2.0
// The TIFF reader and metadata reader on outside bytes: never crash, hang or leak, fail only with
// CodecError; what decodes (as stored) encodes again and reads back the same, and the EXIF
// block rebuilt from its directories goes into a written TIFF without a crash.
#include "tests/fuzz/fuzz_codec.h"

#include <cstdlib>
#include <span>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tessera::app::codec;
    const std::span<const std::uint8_t> file(data, size);
    const tessera::app::ImageMetadata metadata = readTiffMetadata(file);
    DecodeBudget budget;
    budget.maxPixels = std::uint64_t{4} << 20;
    budget.maxWork = std::uint64_t{16} << 20;
    tessera::fuzz::decodeAndReencode(file, budget, readTiff, writeTiff, {}, &metadata);
    return 0;
}
