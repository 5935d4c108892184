// SPDX-License-Identifier: Apache-2.0
#include "filters/custom_kernel.h"

#include "filters/filter_stack_model.h"

#include <cmath>

namespace tessera::filters {

std::optional<Kernel2D> unitSumKernel(const Kernel2D& k)
{
    double magnitude = 0.0;
    for (const double w : k.weights) {
        magnitude += std::abs(w);
    }
    const double sum = k.sum();
    if (magnitude == 0.0 || std::abs(sum) <= 1e-9 * magnitude) {
        return std::nullopt;
    }
    Kernel2D out = k;
    for (double& w : out.weights) {
        w /= sum;
    }
    return out;
}

FilterSpec customSpecOf(const CustomKernel& value, const FilterRegistry& registry)
{
    FilterSpec spec = registry.get(kCustomFilterId).build(ParamValues{{}, value.kernel, value.anchor});
    spec.scale = value.scale;
    spec.offset = value.offset;
    return spec;
}

}  // namespace tessera::filters
