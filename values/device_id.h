// SPDX-License-Identifier: Apache-2.0
#pragma once

// <cstddef> first: Qt 6.4's moc, reading a header that reaches <compare> before any other
// standard header, misses the library's configuration macros and stops with a parse error.
#include <cstddef>
#include <compare>
#include <functional>
#include <string>

namespace tessera::values {

/// A CUDA device ordinal with a type of its own, so that a GPU id is never confused with a
/// count, an index into a list or a band number. The CPU path is the id -1, as the timing
/// records already write it. Plain value, no CUDA.
class DeviceId {
public:
    /// The CPU path. Never throws.
    constexpr DeviceId() noexcept = default;
    /// The CUDA device `ordinal` (negative: the CPU path). Never throws.
    constexpr explicit DeviceId(int ordinal) noexcept : value_(ordinal < 0 ? -1 : ordinal) {}

    /// The id that stands for the CPU path. Never throws.
    static constexpr DeviceId cpu() noexcept { return DeviceId{}; }

    /// The CUDA ordinal, -1 for the CPU path. Never throws.
    constexpr int value() const noexcept { return value_; }
    /// Whether this names the CPU path rather than a GPU. Never throws.
    constexpr bool isCpu() const noexcept { return value_ < 0; }

    /// Ordered by ordinal, the CPU first. Never throws.
    constexpr auto operator<=>(const DeviceId&) const noexcept = default;

private:
    int value_ = -1;
};

/// "GPU 2" or "CPU", for messages: deviceLabel's short form (values/device_label.h).
/// Never throws (beyond allocation).
std::string describe(DeviceId id);

}  // namespace tessera::values

/// Lets DeviceId key unordered containers. Never throws.
template <>
struct std::hash<tessera::values::DeviceId> {
    std::size_t operator()(tessera::values::DeviceId id) const noexcept { return std::hash<int>{}(id.value()); }
};
