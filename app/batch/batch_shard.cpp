// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_shard.h"

#include <stdexcept>

namespace tessera::app {

namespace {

// A decimal number of at most six digits (kMaxShards has six), or -1.
long number(std::string_view digits)
{
    if (digits.empty() || digits.size() > 6) {
        return -1;
    }
    long value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') {
            return -1;
        }
        value = value * 10 + (c - '0');
    }
    return value;
}

}  // namespace

BatchShard parseShard(std::string_view text)
{
    const std::string quoted = "'" + std::string(text.substr(0, 40)) + (text.size() > 40 ? "...'" : "'");
    const std::size_t slash = text.find('/');
    if (slash == std::string_view::npos) {
        throw std::invalid_argument("--shard expects K/N (this is shard K of N, e.g. 2/8), got " + quoted);
    }
    const long k = number(text.substr(0, slash));
    const long n = number(text.substr(slash + 1));
    if (k < 0 || n < 0) {
        throw std::invalid_argument("--shard expects K/N with whole numbers, e.g. 2/8, got " + quoted);
    }
    if (n < 1 || n > kMaxShards) {
        throw std::invalid_argument("--shard: the shard count N must be from 1 to " + std::to_string(kMaxShards) +
                                    ", got " + quoted);
    }
    if (k < 1 || k > n) {
        throw std::invalid_argument("--shard: the shard number K must be from 1 to N, got " + quoted);
    }
    return BatchShard{static_cast<int>(k), static_cast<int>(n)};
}

}  // namespace tessera::app
