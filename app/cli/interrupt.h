// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace tessera::app {

/// SIGINT and SIGTERM for the life of the guard (the previous handlers come back after it).
/// Exit: the process unlinks its temporaries in flight and ends at once with 128 + signal.
/// Cancel: the first signal sets cancelFlag() for the run to stop between files and report what
/// finished; a second one ends the process as Exit does. One guard at a time per process.
class InterruptGuard {
public:
    enum class Mode { Exit, Cancel };
    explicit InterruptGuard(Mode mode);
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    /// Set by the first signal in Cancel mode.
    const std::atomic<bool>& cancelFlag() const;
    /// The first signal received while a guard was up (SIGINT or SIGTERM), 0 when none.
    static int received();
};

/// Tells the person who pressed Ctrl+C why the run has not stopped yet. A file being decoded,
/// filtered or encoded when the cancel comes is finished (no library can be interrupted in the
/// middle of a decode; the size and scan limits bound how long one takes): when `cancel` has been
/// set for `delay` and the run is still going, `say` is called once, from a thread of its own.
/// Destroying the notice (the run is over) stops the watch.
class CancelNotice {
public:
    CancelNotice(const std::atomic<bool>& cancel, std::chrono::milliseconds delay, std::function<void()> say);
    ~CancelNotice();
    CancelNotice(const CancelNotice&) = delete;
    CancelNotice& operator=(const CancelNotice&) = delete;

private:
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread watcher_;
};

/// The shell's exit code for a run ended by signal: 128 + signal (130 SIGINT, 143 SIGTERM).
constexpr int exitCodeForSignal(int signal)
{
    return 128 + signal;
}

}  // namespace tessera::app
