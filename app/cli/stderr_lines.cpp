// SPDX-License-Identifier: Apache-2.0
#include "app/cli/stderr_lines.h"

#include "values/log.h"

#include <cerrno>
#include <cstdio>
#include <mutex>
#include <string>

#include <unistd.h>

namespace tessera::app {

namespace {

std::mutex lineMutex;

// One write(2) per chunk of whole lines, under the lock that every thread's lines share.
void emit(const std::string& text)
{
    const std::lock_guard lock(lineMutex);
    values::writeToStderr(text);
}

// What this thread wrote since its last newline; sent, ended by a newline, when the thread ends.
struct PendingLine {
    std::string text;
    void flush()
    {
        if (!text.empty()) {
            text += '\n';
            emit(text);
            text.clear();
        }
    }
    ~PendingLine() { flush(); }
};
thread_local PendingLine pending;

ssize_t writeLines(void*, const char* data, std::size_t size)
{
    try {
        pending.text.append(data, size);
        const std::size_t end = pending.text.rfind('\n');
        if (end != std::string::npos) {
            emit(pending.text.substr(0, end + 1));
            pending.text.erase(0, end + 1);
        }
    } catch (...) {
        // Out of memory for a warning's text: drop it rather than fail the writer.
    }
    return static_cast<ssize_t>(size);
}

}  // namespace

StderrLines::StderrLines()
{
    cookie_io_functions_t io{};
    io.write = writeLines;
    FILE* lines = ::fopencookie(nullptr, "w", io);
    if (lines == nullptr) {
        return;  // stderr stays as it was
    }
    // Unbuffered: each fprintf reaches writeLines in the thread that called it.
    std::setvbuf(lines, nullptr, _IONBF, 0);
    std::fflush(stderr);
    previous_ = stderr;
    replacement_ = lines;
    stderr = lines;  // glibc's stderr is a plain variable, which every library reads at each use
}

StderrLines::~StderrLines()
{
    if (replacement_ == nullptr) {
        return;
    }
    stderr = static_cast<FILE*>(previous_);
    pending.flush();
    std::fclose(static_cast<FILE*>(replacement_));
}

}  // namespace tessera::app
