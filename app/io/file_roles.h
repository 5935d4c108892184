// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::app {

/// A run would write over a file it reads, or write one file twice. Nothing was written.
class FilesOverlap : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The files one run reads and writes, each with what it is to the run ("the input", "the
/// --report file"), so that no file the run writes is one it reads or another it writes.
class FileRoles {
public:
    /// A file the run reads (an input image, a preset, a kernel file).
    void reads(std::string path, std::string role);
    /// A file the run writes (an output, a side file such as --report, --csv or --trace).
    void writes(std::string path, std::string role);

    /// Throws FilesOverlap naming the file and both roles when a file written is a file read or
    /// another file written: the same path in any spelling ("./", "../", a symbolic link on the
    /// way or at the end) or the same file under another name (a hard link). Reads the file
    /// system (stat) but changes nothing.
    void check() const;

private:
    struct Use {
        std::string path;
        std::string role;
    };
    std::vector<Use> reads_;
    std::vector<Use> writes_;
};

}  // namespace tessera::app
