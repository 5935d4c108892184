// SPDX-License-Identifier: Apache-2.0
#pragma once

// The body every codec fuzz target shares: decode outside bytes within a small budget, check what
// came out, encode it again and, for lossless formats, read that back and compare pixels. The
// targets differ only in the CodecCheck they pass.

#include "app/io/codec/codec.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

namespace tessera::fuzz {

/// How one codec's round trip is checked.
struct CodecCheck {
    unsigned channels = 0b11110;         ///< bit n set: n channels may come out (1..4 by default)
    std::uint64_t reencodeUpTo = 65536;  ///< pixels at most that are encoded again
    bool reencodeTwoChannels = false;    ///< the writer takes grey + alpha
    bool reencodeFourChannels = true;    ///< the writer takes four channels
    bool readBack = true;                ///< lossless: the re-encoded file reads back identically
    bool carryMetadata = false;          ///< the decoded metadata goes to the writer
};

/// Decodes file with read, aborts on anything but a CodecError or a result out of bounds, and
/// re-encodes with write as check says. metadata, when given, is written instead of the decoded.
template <typename Read, typename Write>
void decodeAndReencode(std::span<const std::uint8_t> file, const app::codec::DecodeBudget& budget, Read read,
                       Write write, const CodecCheck& check, const app::ImageMetadata* metadata = nullptr)
{
    using namespace app::codec;
    try {
        const Decoded decoded = read(file, budget);
        const cv::Mat& px = decoded.pixels;
        const int channels = px.channels();
        if (px.empty() || channels > 4 || (check.channels & (1u << channels)) == 0 ||
            std::uint64_t(px.total()) > budget.maxPixels) {
            std::abort();
        }
        if (std::uint64_t(px.total()) > check.reencodeUpTo || (channels == 2 && !check.reencodeTwoChannels) ||
            (channels == 4 && !check.reencodeFourChannels)) {
            return;
        }
        MetadataWritten written;
        const app::ImageMetadata* carried = metadata != nullptr   ? metadata
                                            : check.carryMetadata ? &decoded.metadata
                                                                  : nullptr;
        const std::vector<std::uint8_t> again = write(px, carried, EncodeOptions{}, written);
        if (!check.readBack) {
            return;
        }
        const Decoded back = read(again, budget);
        if (back.pixels.type() != px.type() || back.pixels.size() != px.size()) {
            std::abort();
        }
        for (int y = 0; y < px.rows; ++y) {
            if (std::memcmp(back.pixels.ptr(y), px.ptr(y), px.cols * px.elemSize()) != 0) {
                std::abort();
            }
        }
    } catch (const CodecError&) {
    }
}

}  // namespace tessera::fuzz
