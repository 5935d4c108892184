// SPDX-License-Identifier: Apache-2.0
#include "app/devices/device_lease.h"

#include "app/devices/device_scheduler.h"

#include <utility>

namespace tessera::app {

const char* toString(LeaseKind kind) noexcept
{
    switch (kind) {
    case LeaseKind::Preview: return "preview";
    case LeaseKind::Batch: return "batch";
    case LeaseKind::Exclusive: return "exclusive";
    }
    return "?";
}

DeviceLease::~DeviceLease()
{
    release();
}

DeviceLease::DeviceLease(DeviceLease&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)), id_(other.id_), bytes_(other.bytes_), waitedMs_(other.waitedMs_)
{
}

DeviceLease& DeviceLease::operator=(DeviceLease&& other) noexcept
{
    if (this != &other) {
        release();
        owner_ = std::exchange(other.owner_, nullptr);
        id_ = other.id_;
        bytes_ = other.bytes_;
        waitedMs_ = other.waitedMs_;
    }
    return *this;
}

void DeviceLease::release() noexcept
{
    if (owner_ != nullptr) {
        std::exchange(owner_, nullptr)->release(id_);
    }
}

}  // namespace tessera::app
