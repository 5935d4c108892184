// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "filters/registry.h"

#include <optional>

namespace tessera::filters {

/// What the kernel editor holds, as a value: the custom filter's weights, anchor, scale and
/// offset.
struct CustomKernel {
    Kernel2D kernel;
    std::optional<Point> anchor;  ///< empty: the kernel's centre
    double scale = 1.0;
    double offset = 0.0;
    bool operator==(const CustomKernel&) const = default;
};

/// k divided by the sum of its weights; empty when that sum is ~0 (relative to the weights'
/// magnitudes), where there is nothing sensible to divide by. Does not throw.
std::optional<Kernel2D> unitSumKernel(const Kernel2D& k);

/// The custom filter's spec for value (reflect101, same depth), built by registry's "custom"
/// entry so that its limits hold. Throws std::invalid_argument when the registry refuses the
/// kernel or anchor, or has no custom filter.
FilterSpec customSpecOf(const CustomKernel& value, const FilterRegistry& registry);

}  // namespace tessera::filters
