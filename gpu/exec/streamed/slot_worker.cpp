// SPDX-License-Identifier: Apache-2.0
#include "gpu/exec/streamed/slot_worker.h"

#include "tessera/gpu/engine.h"

#include <atomic>
#include <cstdint>

namespace tessera::gpu {

namespace {

std::atomic<std::uint64_t> starts{0};

}  // namespace

std::uint64_t slotWorkerStarts() noexcept
{
    return starts.load();
}

SlotWorker::SlotWorker() : thread_([this] { loop(); })
{
    ++starts;
}

SlotWorker::~SlotWorker()
{
    {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !busy_; });
        stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
}

void SlotWorker::post(std::function<void()> job)
{
    {
        const std::lock_guard lock(mutex_);
        job_ = std::move(job);
        busy_ = true;
        error_ = nullptr;
    }
    changed_.notify_all();
}

void SlotWorker::wait()
{
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !busy_; });
    if (error_) {
        std::rethrow_exception(std::exchange(error_, nullptr));
    }
}

void SlotWorker::loop()
{
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return busy_ || stop_; });
        if (!busy_) {
            return;  // stop_ with nothing posted
        }
        std::function<void()> job = std::move(job_);
        lock.unlock();
        std::exception_ptr error;
        try {
            job();
        } catch (...) {
            error = std::current_exception();
        }
        job = nullptr;  // what the job captured is released before the run is told it is over
        lock.lock();
        error_ = error;
        busy_ = false;
        changed_.notify_all();
    }
}

}  // namespace tessera::gpu
