// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace tessera::app {

/// For the guard's life, what any code writes through C's stderr (libpng, libjpeg, libtiff
/// warnings from batch worker threads) reaches file descriptor 2 in whole lines, each written
/// under one lock: a thread's partial line waits in that thread until its newline (or the thread's
/// end) instead of running into another thread's message. Install it before the threads start and
/// end it after they are joined; one at a time. Never throws.
class StderrLines {
public:
    StderrLines();
    ~StderrLines();
    StderrLines(const StderrLines&) = delete;
    StderrLines& operator=(const StderrLines&) = delete;

private:
    void* previous_ = nullptr;
    void* replacement_ = nullptr;
};

}  // namespace tessera::app
