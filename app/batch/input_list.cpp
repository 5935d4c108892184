// SPDX-License-Identifier: Apache-2.0
#include "app/batch/input_list.h"

#include <cerrno>
#include <cstring>
#include <optional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tessera::app {

namespace {

std::string mib(std::size_t bytes)
{
    if (bytes % (std::size_t{1} << 20) == 0) {
        return std::to_string(bytes >> 20) + " MiB";
    }
    return std::to_string(bytes) + " bytes";
}

bool blank(std::string_view line)
{
    return line.find_first_not_of(" \t") == std::string_view::npos;
}

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

}  // namespace

std::string inputListName(const std::string& path)
{
    return path == "-" ? std::string("standard input") : path;
}

std::vector<std::string> parseInputList(std::string_view text, const std::string& name,
                                        const InputListLimits& limits)
{
    if (text.size() > limits.maxBytes) {
        throw InputListError("input list " + name + " is larger than " + mib(limits.maxBytes));
    }
    std::vector<std::string> inputs;
    std::size_t lineNumber = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        ++lineNumber;
        if (lineNumber > limits.maxLines) {
            throw InputListError("input list " + name + " has more than " + std::to_string(limits.maxLines) +
                                 " lines");
        }
        const std::size_t end = text.find('\n', start);
        std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        start = end == std::string_view::npos ? text.size() : end + 1;
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (line.find('\0') != std::string_view::npos) {
            throw InputListError("input list " + name + ", line " + std::to_string(lineNumber) +
                                 ": a NUL byte (a list holds one path a line, as text)");
        }
        if (!blank(line)) {
            inputs.emplace_back(line);
        }
    }
    return inputs;
}

std::vector<std::string> readInputList(const std::string& path, const InputListLimits& limits)
{
    const std::string name = inputListName(path);
    const bool standardInput = path == "-";
    // A name is first opened without waiting for a writer, only to be checked (a FIFO's open
    // would block, a device's read might never end); a FIFO is then opened again, waiting for
    // its writer as any reader of a pipe does: read from a FIFO that no writer has opened yet
    // would give an empty list.
    const int opened = standardInput ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (opened < 0) {
        throw InputListError("cannot read the input list " + name + ": " + std::strerror(errno));
    }
    const Descriptor fd(opened, !standardInput);
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0) {
        throw InputListError("cannot read the input list " + name + ": " + std::strerror(errno));
    }
    if (S_ISDIR(info.st_mode)) {
        throw InputListError("the input list " + name + " is a folder, not a file");
    }
    if (!standardInput && !S_ISREG(info.st_mode) && !S_ISFIFO(info.st_mode)) {
        throw InputListError("the input list " + name + " is not a regular file or a pipe");
    }
    if (S_ISREG(info.st_mode) && static_cast<unsigned long long>(info.st_size) > limits.maxBytes) {
        throw InputListError("input list " + name + " is larger than " + mib(limits.maxBytes));
    }
    int readFrom = fd.get();
    std::optional<Descriptor> pipe;
    if (!standardInput && S_ISFIFO(info.st_mode)) {
        const int blocking = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (blocking < 0) {
            throw InputListError("cannot read the input list " + name + ": " + std::strerror(errno));
        }
        pipe.emplace(blocking, true);
        struct stat again {};
        if (::fstat(blocking, &again) != 0 || again.st_dev != info.st_dev || again.st_ino != info.st_ino) {
            throw InputListError("the input list " + name + " was replaced while it was opened");
        }
        readFrom = blocking;
    } else if (!standardInput) {
        const int flags = ::fcntl(fd.get(), F_GETFL);
        if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) {
            throw InputListError("cannot read the input list " + name + ": " + std::strerror(errno));
        }
    }
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t got = ::read(readFrom, buffer, sizeof buffer);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw InputListError("cannot read the input list " + name + ": " + std::strerror(errno));
        }
        if (got == 0) {
            break;
        }
        text.append(buffer, static_cast<std::size_t>(got));
        if (text.size() > limits.maxBytes) {
            throw InputListError("input list " + name + " is larger than " + mib(limits.maxBytes));
        }
    }
    return parseInputList(text, name, limits);
}

}  // namespace tessera::app
