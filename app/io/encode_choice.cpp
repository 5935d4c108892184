// SPDX-License-Identifier: Apache-2.0
// What a JPEG on disk says of the quality it was saved at.
#include "app/io/encode_choice.h"

#include "app/io/codec/codec.h"

#include <fstream>
#include <iterator>
#include <vector>

namespace tessera::app {

std::optional<int> jpegQualityOf(const std::string& path)
{
    if (values::encodedFormatOf(path) != values::EncodedFormat::Jpeg) {
        return std::nullopt;  // only a JPEG has quantisation tables: other files are not read
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const int q = codec::estimateJpegQuality(bytes);
    return q > 0 ? std::optional<int>(q) : std::nullopt;
}

}  // namespace tessera::app
