// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "files/temp_files.h"

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <sys/types.h>

// The output rule: a regular file (or a name still free) is written through a temporary beside
// it and renamed into place, so a failed write leaves the old file whole, and the file replaced
// keeps its permissions (and its owner, where the system lets us). Anything else is never
// replaced: a character device or a FIFO (/dev/null, /dev/stdout, a pipe) is written straight
// where the writer takes streams, and refused otherwise; a folder, a block device or a socket is
// refused always. A symbolic link is followed and stays a link.
namespace tessera::files {

/// A file the output rule refuses, or a write that failed. what() is "PATH: REASON".
class OutputFileError : public std::runtime_error {
public:
    OutputFileError(const std::string& path, const std::string& reason, int error = 0);
    /// The file as the writer was given it.
    const std::string& path() const { return path_; }
    /// What went wrong, without the path.
    const std::string& reason() const { return reason_; }
    /// errno of the failed call, or 0 for a refusal.
    int error() const { return error_; }

private:
    std::string path_;
    std::string reason_;
    int error_;
};

/// What a writer does with a character device or a FIFO at its path.
enum class Streams {
    Write,   ///< written straight, for text such as reports and traces (/dev/null, a pipe)
    Refuse,  ///< refused, for files that only make sense on disk (images)
};

/// How one path is written, decided from what is there now.
struct OutputTarget {
    std::filesystem::path file;  ///< what is written: the path with its symbolic links followed
    bool stream = false;         ///< a character device or FIFO: written straight, never replaced
    bool replaces = false;       ///< a regular file is there and will be replaced
    mode_t mode = 0;             ///< the permission bits of the file replaced
    uid_t owner = 0;             ///< its owner
    gid_t group = 0;             ///< its group
};

/// Decides how path is written without changing anything: its folder must exist; a folder, a
/// block device or a socket is refused, and so is a character device or FIFO where streams is
/// Refuse. Throws OutputFileError naming path. Writers call it before long work, so that a
/// target that cannot be written fails the run before it starts.
OutputTarget checkOutputFile(const std::string& path, Streams streams);

/// One write under the output rule. A regular or new file gets a temporary beside it (removed
/// unless commit() renames it into place); a stream is opened for writing straight away, without
/// waiting for a FIFO's reader (a FIFO nobody reads is refused). Not thread-safe; one writer each.
class OutputFile {
public:
    /// checkOutputFile(path, streams), then the temporary is created or the stream opened.
    /// Throws OutputFileError.
    OutputFile(const std::string& path, Streams streams);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    /// True when the file is written straight (a character device or a FIFO).
    bool stream() const { return target_.stream; }
    /// The temporary an encoder may write itself; empty for a stream.
    const std::filesystem::path& temporary() const { return temp_.path(); }

    /// Writes all of bytes (to the temporary, from its start, or to the stream) and flushes
    /// them: a temporary is synced to disk and its size checked. Throws OutputFileError.
    void write(std::string_view bytes);
    /// The temporary was written by an encoder: syncs it and checks that it is not empty.
    /// Throws OutputFileError.
    void written();
    /// Gives the temporary the replaced file's permissions and owner, then renames it into
    /// place; closes a stream. Throws OutputFileError (the temporary is then removed).
    void commit();

private:
    std::string path_;
    OutputTarget target_;
    ScopedTemporary temp_;
    int stream_ = -1;
};

/// Writes text to path under the output rule, streams taken. Throws OutputFileError.
void writeOutputFile(const std::string& path, std::string_view text);

}  // namespace tessera::files
