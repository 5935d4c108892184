// SPDX-License-Identifier: Apache-2.0
#pragma once

// <cstddef> first, as in device_id.h: Qt 6.4's moc needs it before <compare>.
#include <cstddef>
#include <compare>

namespace tessera::values {

/// A position in a run's list of slots (the pipeline's slots, the planner's devices), with a
/// type of its own so that it is never taken for a CUDA ordinal: slot 1 may well be GPU 3, or
/// the CPU. Plain value.
class SlotIndex {
public:
    /// Slot 0. Never throws.
    constexpr SlotIndex() noexcept = default;
    /// The slot at `index` in the list. Never throws.
    constexpr explicit SlotIndex(std::size_t index) noexcept : value_(index) {}

    /// The position in the list. Never throws.
    constexpr std::size_t value() const noexcept { return value_; }

    /// Ordered by position. Never throws.
    constexpr auto operator<=>(const SlotIndex&) const noexcept = default;

private:
    std::size_t value_ = 0;
};

}  // namespace tessera::values
