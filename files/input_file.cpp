// SPDX-License-Identifier: Apache-2.0
#include "files/input_file.h"

#include "files/file_kind.h"

#include <cerrno>
#include <cstring>
#include <optional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tessera::files {

namespace {

constexpr std::uintmax_t kMiB = std::uintmax_t{1} << 20;

// Closes a descriptor this unit opened; standard input is left open.
class Descriptor {
public:
    Descriptor(int fd, bool owned) : fd_(fd), owned_(owned) {}
    ~Descriptor()
    {
        if (owned_ && fd_ >= 0) {
            ::close(fd_);
        }
    }
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
    bool owned_;
};

std::string accessReason(int err)
{
    if (err == ENOENT || err == ENOTDIR) {
        return "file not found";
    }
    if (err == EACCES) {
        return "permission denied (cannot read the file)";
    }
    return std::string("cannot access the file: ") + std::strerror(err);
}

InputFileError tooLarge(const std::string& name, const InputRule& rule, std::optional<std::uintmax_t> size)
{
    const std::string bound = describeBytes(rule.maxBytes);
    return InputFileError(name, "larger than " + bound + (size ? " (" + std::to_string(*size) + " bytes)" : "") + "; " +
                                    rule.kind + " may hold at most " + bound);
}

// Refuses what the rule does not read: a folder, a device, a socket, a FIFO where pipes are not
// taken, a regular file past the bound.
void checkKind(const std::string& name, const struct stat& st, const InputRule& rule)
{
    if (S_ISDIR(st.st_mode)) {
        throw InputFileError(name, "is a directory, not " + rule.kind);
    }
    if (S_ISREG(st.st_mode)) {
        if (static_cast<std::uintmax_t>(st.st_size) > rule.maxBytes) {
            throw tooLarge(name, rule, static_cast<std::uintmax_t>(st.st_size));
        }
        return;
    }
    if (rule.pipes && S_ISFIFO(st.st_mode)) {
        return;
    }
    throw InputFileError(name, std::string(rule.pipes ? "not a regular file or a pipe" : "not a regular file") +
                                   " but " + specialFileKind(st.st_mode));
}

bool sameFile(const struct stat& a, const struct stat& b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

}  // namespace

InputFileError::InputFileError(const std::string& path, const std::string& reason)
    : std::runtime_error(path + ": " + reason), path_(path), reason_(reason)
{
}

std::string describeBytes(std::uintmax_t bytes)
{
    if (bytes > 0 && bytes % kMiB == 0) {
        return std::to_string(bytes / kMiB) + " MiB";
    }
    return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

InputFileInfo checkInputFile(const std::string& path, const InputRule& rule)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        throw InputFileError(path, accessReason(errno));
    }
    checkKind(path, st, rule);
    InputFileInfo info;
    info.pipe = S_ISFIFO(st.st_mode);
    info.bytes = info.pipe ? 0 : static_cast<std::uintmax_t>(st.st_size);
    return info;
}

std::string readInputFile(const std::string& path, const InputRule& rule)
{
    const bool standardInput = rule.pipes && path == "-";
    const std::string name = standardInput ? std::string("standard input") : path;
    struct stat named {};
    if (!standardInput) {
        // Classified before it is opened: opening a device can have effects of its own.
        if (::stat(path.c_str(), &named) != 0) {
            throw InputFileError(name, accessReason(errno));
        }
        checkKind(name, named, rule);
    }
    // Opened without waiting (a FIFO's open would wait for a writer), then checked again on the
    // descriptor: what is read is what was checked, even if the name was replaced meanwhile.
    const int opened =
        standardInput ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (opened < 0) {
        throw InputFileError(name, accessReason(errno));
    }
    const Descriptor fd(opened, !standardInput);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) {
        throw InputFileError(name, std::string("cannot read the file: ") + std::strerror(errno));
    }
    if (standardInput) {
        // Whatever standard input is (a terminal, a pipe, a file), except a folder.
        if (S_ISDIR(st.st_mode)) {
            throw InputFileError(name, "is a directory, not " + rule.kind);
        }
        if (S_ISREG(st.st_mode) && static_cast<std::uintmax_t>(st.st_size) > rule.maxBytes) {
            throw tooLarge(name, rule, static_cast<std::uintmax_t>(st.st_size));
        }
    } else {
        if (!sameFile(st, named)) {
            throw InputFileError(name, "changed while it was opened; nothing was read");
        }
        checkKind(name, st, rule);
    }
    int readFrom = fd.get();
    std::optional<Descriptor> pipe;
    if (!standardInput && S_ISFIFO(st.st_mode)) {
        // Read from a FIFO that no writer has opened yet gives nothing: open it again, waiting for
        // its writer as any reader of a pipe does.
        const int blocking = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (blocking < 0) {
            throw InputFileError(name, accessReason(errno));
        }
        pipe.emplace(blocking, true);
        struct stat again {};
        if (::fstat(blocking, &again) != 0 || !sameFile(again, st)) {
            throw InputFileError(name, "changed while it was opened; nothing was read");
        }
        readFrom = blocking;
    }
    const bool regular = S_ISREG(st.st_mode);
    std::string text;
    if (regular) {
        text.reserve(static_cast<std::size_t>(st.st_size));
    }
    char buffer[65536];
    for (;;) {
        const ssize_t got = ::read(readFrom, buffer, sizeof buffer);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw InputFileError(name, std::string("cannot read the file: ") + std::strerror(errno));
        }
        if (got == 0) {
            break;
        }
        text.append(buffer, static_cast<std::size_t>(got));
        if (text.size() > rule.maxBytes) {  // a pipe past the bound, or a file that grew while read
            throw tooLarge(name, rule, std::nullopt);
        }
    }
    return text;
}

}  // namespace tessera::files
