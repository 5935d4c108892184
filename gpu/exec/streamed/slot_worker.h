// SPDX-License-Identifier: Apache-2.0
#pragma once

// Inside gpu/: the thread of one streamed pipeline slot, kept from run to run.

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace tessera::gpu {

/// One thread that runs the jobs it is handed, one at a time, until it is destroyed. A streamed
/// pipeline keeps one per slot, so a batch of many files starts its threads once: the CUDA
/// device a GPU slot's thread set stays set, and nothing is spawned per file.
class SlotWorker {
public:
    /// Starts the thread. Throws std::system_error when it cannot be started.
    SlotWorker();
    /// Waits for the running job, then stops and joins the thread. Never throws.
    ~SlotWorker();
    SlotWorker(const SlotWorker&) = delete;
    SlotWorker& operator=(const SlotWorker&) = delete;

    /// Hands job to the thread; the previous job must have been waited for. Never throws
    /// beyond allocation.
    void post(std::function<void()> job);
    /// Blocks until the posted job has returned; rethrows what it threw. Returns at once when
    /// nothing was posted.
    void wait();

private:
    void loop();

    std::mutex mutex_;
    std::condition_variable changed_;
    std::function<void()> job_;
    bool busy_ = false;
    bool stop_ = false;
    std::exception_ptr error_;
    std::thread thread_;  // last: started once the members above exist
};

}  // namespace tessera::gpu
