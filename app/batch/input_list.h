// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// Input lists for `batch --files-from`: one input a line, read from a file, a pipe or stdin.
// No Qt: the fuzzers compile this file alone.
namespace tessera::app {

/// A list that cannot be used: too large, a NUL byte, not a file or pipe. The message names the
/// list ("-" reads as "standard input") and, where one is to blame, the line.
class InputListError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// How much of a list is read before it is refused.
struct InputListLimits {
    std::size_t maxBytes = std::size_t{64} << 20;  ///< 64 MiB
    std::size_t maxLines = 1'000'000;              ///< lines of any kind, blank ones included
};

/// The name a message gives the list: "standard input" for "-", else the path.
std::string inputListName(const std::string& path);

/// Splits text into inputs: one a line, ending in "\n" or "\r\n" (the last line may lack it).
/// Lines empty or holding only spaces and tabs are left out; any other line is kept exactly,
/// its spaces included, to be read as a command-line input is (a file, a folder or a pattern).
/// Throws InputListError naming `name` and the line for a NUL byte, and for more lines or bytes
/// than limits allow.
std::vector<std::string> parseInputList(std::string_view text, const std::string& name,
                                        const InputListLimits& limits = {});

/// Reads and parses the list at path ("-": standard input). Only a regular file, a FIFO or
/// (for "-") whatever standard input is, except a folder, are read; reading stops one byte past
/// limits.maxBytes. Throws InputListError naming the list.
std::vector<std::string> readInputList(const std::string& path, const InputListLimits& limits = {});

}  // namespace tessera::app
