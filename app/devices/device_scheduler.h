// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/devices/device_lease.h"
#include "values/device_id.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace tessera::values {
struct DeviceSnapshot;
}  // namespace tessera::values

namespace tessera::app {

/// One lease from grant to release, as the scheduler recorded it. begin and end are positions
/// in one sequence of grants and releases (so two intervals overlap exactly when each begins
/// before the other ends); the times are for people.
struct LeaseInterval {
    LeaseRequest request;
    std::uint64_t grantedBytes = 0;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::chrono::steady_clock::time_point beganAt;
    std::chrono::steady_clock::time_point endedAt;
};

/// The one owner of the devices of a process: every job that runs on a GPU (or the CPU path)
/// holds a lease from it while it runs. Rules, per device:
/// - previews and batches share a device, as long as their bytes fit in its budget;
/// - while a preview waits for a device, new batch leases on it wait too, so a batch (which
///   leases file by file) yields to the preview between files;
/// - an exclusive lease (calibration, comparison) waits until its devices are free of leases
///   and keeps every other lease off them while it runs; while it waits, new batch leases
///   on its devices wait, so a running batch cannot keep it out for ever;
/// - a lease on several devices is granted on all of them at once, or not at all.
/// A device without a budget has no memory limit. Qt-free and CUDA-free; every member may be
/// called from any thread (one mutex inside).
class DeviceScheduler {
public:
    /// Asked while a job waits: return true to stop waiting (acquire then returns an empty lease).
    using StopQuery = std::function<bool()>;
    /// Told why a job waits ("waiting for GPU 0 (calibration running)"), on the waiting thread,
    /// whenever the reason changes; never told under the scheduler's lock.
    using WaitNotice = std::function<void(const std::string& why)>;

    /// A scheduler with no budgets and no recording. Never throws.
    DeviceScheduler() = default;
    DeviceScheduler(const DeviceScheduler&) = delete;
    DeviceScheduler& operator=(const DeviceScheduler&) = delete;

    /// Sets device's memory budget in bytes (affects leases granted from now on). Never throws.
    void setBudget(values::DeviceId device, std::uint64_t bytes);
    /// Gives every GPU of snapshot without a budget one of fraction of its free memory. Never throws.
    void adoptDevices(const values::DeviceSnapshot& snapshot, double fraction = 0.8);
    /// device's budget (the largest number when it has none). Never throws.
    std::uint64_t budget(values::DeviceId device) const;

    /// Blocks until request can be granted under the rules, and returns the lease. Returns an
    /// empty lease when stop answers true while waiting (it is asked about every 10 ms). Throws
    /// std::invalid_argument for a request without devices.
    DeviceLease acquire(const LeaseRequest& request, const StopQuery& stop = {}, const WaitNotice& notice = {});
    /// Grants request only if it can be granted now; an empty lease otherwise. Throws as acquire().
    DeviceLease tryAcquire(const LeaseRequest& request);

    /// How many acquire() calls are waiting now. Never throws.
    int waitingCount() const;
    /// Why a request like this one would wait now; empty when it would be granted. Never throws
    /// (beyond allocation).
    std::string whyWait(const LeaseRequest& request) const;
    /// Bytes leased on device now. Never throws.
    std::uint64_t bytesInUse(values::DeviceId device) const;

    /// Starts (or stops) keeping an interval per released lease, for tests. Never throws.
    void setRecording(bool on);
    /// The intervals of the leases released while recording, in order of release. Never throws
    /// (beyond allocation).
    std::vector<LeaseInterval> intervals() const;

private:
    friend class DeviceLease;

    struct Active {
        LeaseRequest request;
        std::uint64_t bytes = 0;
        std::uint64_t begin = 0;
        std::chrono::steady_clock::time_point beganAt;
    };
    struct Waiter {
        const LeaseRequest* request = nullptr;
    };

    std::string blockerLocked(const LeaseRequest& request, std::uint64_t ticket) const;
    std::uint64_t grantedBytesLocked(const LeaseRequest& request) const;
    std::uint64_t budgetLocked(values::DeviceId device) const;
    DeviceLease grantLocked(const LeaseRequest& request, double waitedMs);
    void release(std::uint64_t id) noexcept;

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::map<values::DeviceId, std::uint64_t> budgets_;
    std::map<std::uint64_t, Active> active_;   // by lease id
    std::map<std::uint64_t, Waiter> waiting_;  // by ticket, oldest first
    std::uint64_t nextId_ = 1;
    std::uint64_t clock_ = 0;  // grants and releases so far
    bool recording_ = false;
    std::vector<LeaseInterval> intervals_;
};

}  // namespace tessera::app
