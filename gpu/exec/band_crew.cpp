// SPDX-License-Identifier: Apache-2.0
#include "gpu/exec/band_crew.h"

#include "values/errors.h"
#include "tessera/gpu/values.h"
#include <chrono>
#include <stdexcept>

namespace tessera::gpu {

BandCrew::BandCrew(int helpers)
{
    for (int i = 0; i < helpers; ++i) {
        threads_.emplace_back([this, i] { loop(i + 1); });
    }
}

BandCrew::~BandCrew()
{
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) {
        t.join();
    }
}

void BandCrew::loop(int index)
{
    std::uint64_t seen = 0;
    for (;;) {
        // Spin a little first: the next run of an interactive or benchmark loop comes soon.
        const auto spinUntil = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
        while (generation_.load(std::memory_order_acquire) == seen && !stop_.load() &&
               std::chrono::steady_clock::now() < spinUntil) {
            std::this_thread::yield();
        }
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return generation_.load() != seen || stop_.load(); });
        }
        if (stop_.load()) {
            return;
        }
        seen = generation_.load(std::memory_order_acquire);
        if (index < count_) {
            try {
                (*job_)(index);
            } catch (...) {
                errors_[static_cast<std::size_t>(index)] = std::current_exception();
            }
        }
        remaining_.fetch_sub(1, std::memory_order_acq_rel);
    }
}

void BandCrew::run(int count, const std::function<void(int)>& job)
{
    if (count > helpers() + 1) {
        throw PreconditionError("BandCrew::run: more jobs than threads");
    }
    if (count <= 0) {
        return;
    }
    errors_.assign(static_cast<std::size_t>(count), nullptr);
    if (count > 1) {
        {
            std::lock_guard lock(mutex_);
            job_ = &job;
            count_ = count;
            remaining_.store(helpers(), std::memory_order_release);
            generation_.fetch_add(1, std::memory_order_acq_rel);
        }
        wake_.notify_all();
    }
    try {
        job(0);
    } catch (...) {
        errors_[0] = std::current_exception();
    }
    if (count > 1) {
        while (remaining_.load(std::memory_order_acquire) > 0) {
            std::this_thread::yield();
        }
    }
    for (const auto& e : errors_) {
        if (e) {
            std::rethrow_exception(e);
        }
    }
}

}  // namespace tessera::gpu
