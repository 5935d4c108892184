#pragma once

#include <atomic>

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

/// The shell's exit code for a run ended by signal: 128 + signal (130 SIGINT, 143 SIGTERM).
constexpr int exitCodeForSignal(int signal)
{
    return 128 + signal;
}

}  // namespace tessera::app
