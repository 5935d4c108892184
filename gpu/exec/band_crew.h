// SPDX-License-Identifier: Apache-2.0
#pragma once

// Inside gpu/: a few threads that start the same job on several GPUs at once, so that the host
// cost of launching work (argument setup, events, driver calls) on one GPU does not delay the
// next GPU's start. After a job the threads spin for a moment before they sleep, so back-to-back
// runs (a dragged slider, a benchmark) start without a wake-up delay.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera::gpu {

class BandCrew {
public:
    /// `helpers` threads besides the caller's.
    explicit BandCrew(int helpers);
    ~BandCrew();
    BandCrew(const BandCrew&) = delete;
    BandCrew& operator=(const BandCrew&) = delete;

    /// Calls job(0) on the calling thread and job(1) .. job(count - 1) on the helpers, all at once,
    /// and returns when every call has returned. count must not exceed helpers + 1. Rethrows the
    /// first exception a call threw (after all have finished).
    void run(int count, const std::function<void(int)>& job);

    int helpers() const { return static_cast<int>(threads_.size()); }

private:
    void loop(int index);

    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::atomic<std::uint64_t> generation_{0};
    std::atomic<int> remaining_{0};
    std::atomic<bool> stop_{false};
    const std::function<void(int)>* job_ = nullptr;
    int count_ = 0;
    std::vector<std::exception_ptr> errors_;
};

}  // namespace tessera::gpu
