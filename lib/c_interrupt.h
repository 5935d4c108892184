// SPDX-License-Identifier: Apache-2.0
#pragma once

// tessera_interrupt(): the host runs in progress, each known by a cancel flag it registers for
// its lifetime, and the call that sets them all.

#include <atomic>

namespace tessera::capi {

/// Registers a host run's cancel flag (read by the pipeline between tiles) while it lives.
class ActiveRun {
public:
    ActiveRun();
    ~ActiveRun();
    ActiveRun(const ActiveRun&) = delete;
    ActiveRun& operator=(const ActiveRun&) = delete;
    const std::atomic<bool>* flag() const { return &cancel_; }

private:
    std::atomic<bool> cancel_{false};
};

/// Sets the flag of every run registered now. Never throws.
void interruptActiveRuns() noexcept;

}  // namespace tessera::capi
