// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::app {

class DeviceScheduler;

/// How a job uses the devices it leases. Previews and batches share a device (memory allowing);
/// a waiting preview holds back new batch leases; an exclusive lease has its devices alone.
enum class LeaseKind { Preview, Batch, Exclusive };

/// "preview", "batch", "exclusive": for messages and tests. Never throws.
const char* toString(LeaseKind kind) noexcept;

/// What a job asks the scheduler for: devices (GPU ids, or values::DeviceId::cpu()), how it uses
/// them, and the device memory it will hold on each of them. Plain value.
struct LeaseRequest {
    std::vector<values::DeviceId> devices;
    LeaseKind kind = LeaseKind::Batch;
    std::uint64_t bytes = 0;  ///< per device; more than a device's budget takes the whole budget
    std::string holder;       ///< what the job is, as messages name it: "batch", "calibration"...
};

/// The right to use some devices, given back when destroyed (or by release()). Move-only; an
/// empty lease (default, moved-from, or a wait that was cancelled) holds nothing. Must not
/// outlive its scheduler. One thread uses a lease at a time.
class DeviceLease {
public:
    /// An empty lease. Never throws.
    DeviceLease() noexcept = default;
    /// Releases what this lease holds. Never throws.
    ~DeviceLease();
    /// Takes over other's devices. Never throws.
    DeviceLease(DeviceLease&& other) noexcept;
    /// Releases what this holds, then takes over other's devices. Never throws.
    DeviceLease& operator=(DeviceLease&& other) noexcept;
    DeviceLease(const DeviceLease&) = delete;
    DeviceLease& operator=(const DeviceLease&) = delete;

    /// Whether the lease holds its devices. Never throws.
    bool held() const noexcept { return owner_ != nullptr; }
    /// As held(). Never throws.
    explicit operator bool() const noexcept { return held(); }
    /// Gives the devices back now; the lease is empty afterwards. Never throws.
    void release() noexcept;
    /// The bytes granted per device (the request's, capped at the smallest budget). Never throws.
    std::uint64_t bytes() const noexcept { return bytes_; }
    /// How long acquire() waited before the lease was granted, milliseconds. Never throws.
    double waitedMs() const noexcept { return waitedMs_; }

private:
    friend class DeviceScheduler;
    DeviceLease(DeviceScheduler* owner, std::uint64_t id, std::uint64_t bytes, double waitedMs) noexcept
        : owner_(owner), id_(id), bytes_(bytes), waitedMs_(waitedMs)
    {
    }

    DeviceScheduler* owner_ = nullptr;
    std::uint64_t id_ = 0;
    std::uint64_t bytes_ = 0;
    double waitedMs_ = 0.0;
};

}  // namespace tessera::app
