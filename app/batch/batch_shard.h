// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// One slice of a batch spread over several processes or machines (`batch --shard K/N`).
namespace tessera::app {

/// Shard index of count, both from 1. The whole input list is expanded and planned in every
/// shard alike; shard K takes the files at 0-based positions p with p mod count == index - 1.
struct BatchShard {
    int index = 1;
    int count = 1;

    /// True when the file at 0-based position in the whole list belongs to this shard.
    bool holds(std::size_t position) const
    {
        return static_cast<int>(position % static_cast<std::size_t>(count)) == index - 1;
    }
    /// "K/N".
    std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
};

/// The most shards a batch may be split into.
inline constexpr int kMaxShards = 100000;

/// Reads "K/N": decimal digits only (no sign, no spaces), 1 <= K <= N <= kMaxShards. Throws
/// std::invalid_argument with a message that quotes the text.
BatchShard parseShard(std::string_view text);

}  // namespace tessera::app
