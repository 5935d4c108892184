// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ctime>
#include <filesystem>
#include <optional>
#include <string>

namespace tessera::files {

/// What a temporary's name says about the run that made it:
/// ".STEM.tmp-HOST-PID-TAG.EXT", HOST 8 hex digits of a hash of the host name, its boot and the
/// pid namespace (where HOST matches, PID can be asked whether it lives).
struct TemporaryName {
    std::string host;  ///< 8 lowercase hex digits
    long pid = 0;
};

/// The name (no folder) of a fresh temporary for target: ".STEM.tmp-HOST-PID-TAG.EXT", the stem
/// shortened so the name stays within NAME_MAX (255 bytes) for any legal target name; the
/// extension is kept (encoders choose the format by it) unless it alone would not fit. Never throws
/// beyond std::bad_alloc.
std::string temporaryNameFor(const std::filesystem::path& target);

/// The host and pid carried by a temporary's file name, or nothing when name is not one of ours.
std::optional<TemporaryName> parseTemporaryName(const std::string& name);

/// 8 hex digits standing for this host, boot and pid namespace in temporary names.
std::string thisHostTag();

/// True when the temporary at path is debris of a dead run: a regular file with a name of ours,
/// made on this host by a process that no longer exists, or on another host and last modified more
/// than a day before now. A live process's, another host's younger than a day, and any other file
/// are never stale.
bool isStaleTemporary(const std::filesystem::path& path, std::time_t now);

/// Removes the stale temporaries (isStaleTemporary) directly in folder; returns how many. Each
/// folder is swept once per process when once is true. Never throws.
int sweepStaleTemporaries(const std::filesystem::path& folder, bool once = true);

/// A temporary file next to its target, created with O_EXCL under temporaryNameFor(target) and
/// removed on destruction (and by removeLiveTemporaries() on a signal) until release().
class ScopedTemporary {
public:
    ScopedTemporary() = default;
    ~ScopedTemporary();
    ScopedTemporary(const ScopedTemporary&) = delete;
    ScopedTemporary& operator=(const ScopedTemporary&) = delete;

    /// Creates the file (empty, closed) and sweeps the folder's stale temporaries first; returns
    /// errno on failure, 0 on success.
    int create(const std::filesystem::path& target);
    const std::filesystem::path& path() const { return path_; }
    /// The file was renamed into place: it is no longer ours to remove.
    void release();

private:
    void forget();
    std::filesystem::path path_;
    int slot_ = -1;
};

/// Unlinks every temporary of this process still in flight. Async-signal-safe: for signal
/// handlers about to end the process.
void removeLiveTemporaries() noexcept;

}  // namespace tessera::files
