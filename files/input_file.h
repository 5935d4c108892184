// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

// The input rule: every file a user names (an image, a preset, a kernel, a list, a report, a
// saved comparison) is read only when it is a regular file of a bounded size. A FIFO would block
// the reader for ever and a device such as /dev/zero would never end, so neither is opened
// unless the reader takes pipes (input lists do, to read `<(find ...)`).
namespace tessera::files {

/// A file the input rule refuses, or one that cannot be read. what() is "PATH: REASON".
class InputFileError : public std::runtime_error {
public:
    InputFileError(const std::string& path, const std::string& reason);
    /// The file as the user named it ("standard input" for "-").
    const std::string& path() const { return path_; }
    /// What is wrong, without the path: "file not found", "not a regular file but a FIFO", ...
    const std::string& reason() const { return reason_; }

private:
    std::string path_;
    std::string reason_;
};

/// What one kind of input accepts.
struct InputRule {
    /// What the file should be, for messages: "a preset file", "a batch report".
    std::string kind = "a file";
    /// The most bytes read; a larger file is refused before it is read, a longer pipe once it
    /// passes the bound.
    std::uintmax_t maxBytes = std::uintmax_t{64} << 20;
    /// FIFOs are read too, and "-" stands for standard input (anything there but a folder).
    bool pipes = false;
};

/// What checkInputFile found.
struct InputFileInfo {
    std::uintmax_t bytes = 0;  ///< the size of a regular file; 0 for a pipe
    bool pipe = false;         ///< a FIFO (only where the rule takes pipes)
};

/// Checks path under rule without opening it: it exists (symbolic links followed), is not a
/// folder, is a regular file (or a FIFO where rule.pipes) and holds at most rule.maxBytes.
/// For readers that hand the path on (image decoders). Throws InputFileError.
InputFileInfo checkInputFile(const std::string& path, const InputRule& rule);

/// The whole content of path under rule. The checks of checkInputFile are made again on the
/// opened descriptor (opened without waiting, so a FIFO put in its place after the check is
/// caught, not waited on), then at most rule.maxBytes are read; one byte more is refused.
/// Throws InputFileError.
std::string readInputFile(const std::string& path, const InputRule& rule);

/// A size for messages: "4 MiB" for whole mebibytes, else "123 bytes".
std::string describeBytes(std::uintmax_t bytes);

}  // namespace tessera::files
