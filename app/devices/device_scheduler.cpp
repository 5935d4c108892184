// SPDX-License-Identifier: Apache-2.0
#include "app/devices/device_scheduler.h"

#include "values/device_info.h"
#include "values/log.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace tessera::app {

namespace {

using Clock = std::chrono::steady_clock;

bool uses(const LeaseRequest& request, values::DeviceId device)
{
    return std::ranges::find(request.devices, device) != request.devices.end();
}

std::string holderOf(const LeaseRequest& request)
{
    return request.holder.empty() ? std::string(toString(request.kind)) : request.holder;
}

std::string waitText(values::DeviceId device, const std::string& why)
{
    return "waiting for " + values::describe(device) + " (" + why + ")";
}

}  // namespace

void DeviceScheduler::setBudget(values::DeviceId device, std::uint64_t bytes)
{
    {
        std::lock_guard lock(mutex_);
        budgets_[device] = bytes;
    }
    changed_.notify_all();
}

void DeviceScheduler::adoptDevices(const values::DeviceSnapshot& snapshot, double fraction)
{
    std::lock_guard lock(mutex_);
    for (const values::DeviceInfo& d : snapshot.devices) {
        budgets_.try_emplace(values::DeviceId{d.id},
                             static_cast<std::uint64_t>(static_cast<double>(d.memoryFree) * fraction));
    }
}

std::uint64_t DeviceScheduler::budget(values::DeviceId device) const
{
    std::lock_guard lock(mutex_);
    return budgetLocked(device);
}

std::uint64_t DeviceScheduler::budgetLocked(values::DeviceId device) const
{
    const auto it = budgets_.find(device);
    return it == budgets_.end() ? std::numeric_limits<std::uint64_t>::max() : it->second;
}

std::uint64_t DeviceScheduler::grantedBytesLocked(const LeaseRequest& request) const
{
    // A job that wants more than a whole budget gets all of it: it then runs alone on the
    // device (its pipeline tiles within what it has) instead of waiting for ever.
    std::uint64_t bytes = request.bytes;
    for (const values::DeviceId d : request.devices) {
        bytes = std::min(bytes, budgetLocked(d));
    }
    return bytes;
}

std::string DeviceScheduler::blockerLocked(const LeaseRequest& request, std::uint64_t ticket) const
{
    const std::uint64_t bytes = grantedBytesLocked(request);
    for (const values::DeviceId d : request.devices) {
        std::uint64_t used = 0;
        std::string memoryHolder;
        for (const auto& [id, a] : active_) {
            if (!uses(a.request, d)) {
                continue;
            }
            if (a.request.kind == LeaseKind::Exclusive || request.kind == LeaseKind::Exclusive) {
                return waitText(d, holderOf(a.request) + " running");
            }
            used += a.bytes;
            memoryHolder = holderOf(a.request);
        }
        if (request.kind == LeaseKind::Batch) {
            for (const auto& [other, w] : waiting_) {
                if (other != ticket && uses(*w.request, d) && w.request->kind != LeaseKind::Batch) {
                    return waitText(d, holderOf(*w.request) + " first");
                }
            }
        }
        if (bytes > budgetLocked(d) - std::min(used, budgetLocked(d))) {
            return waitText(d, "memory held by " + memoryHolder);
        }
    }
    return {};
}

DeviceLease DeviceScheduler::grantLocked(const LeaseRequest& request, double waitedMs)
{
    const std::uint64_t id = nextId_++;
    Active a{request, grantedBytesLocked(request), ++clock_, Clock::now()};
    const std::uint64_t bytes = a.bytes;
    active_.emplace(id, std::move(a));
    values::logIf(values::LogCategory::Device, [&] {
        std::string devices;
        for (const values::DeviceId d : request.devices) {
            devices += (devices.empty() ? "" : ", ") + values::describe(d);
        }
        char amounts[96];
        std::snprintf(amounts, sizeof amounts, "%.0f MiB each, after %.1f ms of waiting",
                      static_cast<double>(bytes) / (1024.0 * 1024.0), waitedMs);
        return std::string(toString(request.kind)) + " lease for " +
               (request.holder.empty() ? "a job" : request.holder) + " on " + devices + ": " + amounts;
    });
    return DeviceLease(this, id, bytes, waitedMs);
}

DeviceLease DeviceScheduler::tryAcquire(const LeaseRequest& request)
{
    if (request.devices.empty()) {
        throw std::invalid_argument("a device lease needs at least one device");
    }
    std::lock_guard lock(mutex_);
    return blockerLocked(request, 0).empty() ? grantLocked(request, 0.0) : DeviceLease();
}

DeviceLease DeviceScheduler::acquire(const LeaseRequest& request, const StopQuery& stop, const WaitNotice& notice)
{
    if (request.devices.empty()) {
        throw std::invalid_argument("a device lease needs at least one device");
    }
    const auto start = Clock::now();
    std::unique_lock lock(mutex_);
    std::string why = blockerLocked(request, 0);
    if (why.empty()) {
        return grantLocked(request, 0.0);
    }
    // Registered as waiting, the request holds back new batch leases (rules above).
    const std::uint64_t ticket = nextId_++;
    waiting_.emplace(ticket, Waiter{&request});
    std::string told;
    while (!why.empty()) {
        if (why != told && notice) {
            told = why;
            lock.unlock();
            notice(why);
            lock.lock();
        }
        if (stop) {
            lock.unlock();
            const bool stopped = stop();
            lock.lock();
            if (stopped) {
                waiting_.erase(ticket);
                lock.unlock();
                changed_.notify_all();  // batches held back by this wait may go on
                return {};
            }
        }
        // A timed wait so that stop is asked even when no lease changes.
        changed_.wait_for(lock, std::chrono::milliseconds(10));
        why = blockerLocked(request, ticket);
    }
    waiting_.erase(ticket);
    DeviceLease lease = grantLocked(request, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    lock.unlock();
    changed_.notify_all();
    return lease;
}

void DeviceScheduler::release(std::uint64_t id) noexcept
{
    {
        std::lock_guard lock(mutex_);
        const auto it = active_.find(id);
        if (it == active_.end()) {
            return;
        }
        const std::uint64_t end = ++clock_;
        if (recording_) {
            try {
                intervals_.push_back(
                    {it->second.request, it->second.bytes, it->second.begin, end, it->second.beganAt, Clock::now()});
            } catch (...) {
                // Out of memory for the record only: the lease is still given back.
            }
        }
        active_.erase(it);
    }
    changed_.notify_all();
}

int DeviceScheduler::waitingCount() const
{
    std::lock_guard lock(mutex_);
    return static_cast<int>(waiting_.size());
}

std::string DeviceScheduler::whyWait(const LeaseRequest& request) const
{
    std::lock_guard lock(mutex_);
    return blockerLocked(request, 0);
}

std::uint64_t DeviceScheduler::bytesInUse(values::DeviceId device) const
{
    std::lock_guard lock(mutex_);
    std::uint64_t used = 0;
    for (const auto& [id, a] : active_) {
        used += uses(a.request, device) ? a.bytes : 0;
    }
    return used;
}

void DeviceScheduler::setRecording(bool on)
{
    std::lock_guard lock(mutex_);
    recording_ = on;
}

std::vector<LeaseInterval> DeviceScheduler::intervals() const
{
    std::lock_guard lock(mutex_);
    return intervals_;
}

}  // namespace tessera::app
