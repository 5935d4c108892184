// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the launch parameters' taps of the fp32 separable variants that carry every tap
// there (separable_tiled.cu, separable_two_pass.cu), filled from a plan.

#include "gpu/plan/plan_data.h"
#include "gpu/plan/variant_support.h"

namespace tessera::gpu::detail {

/// Row and column taps, as many as a separable spec may have (kMaxSeparableTaps per side). Named
/// apart from the tensor-core kernels' fp16-bound SeparableTaps (tensor_common.cuh).
struct Fp32SeparableTaps {
    float row[kMaxSeparableTaps];
    float col[kMaxSeparableTaps];
};

/// The plan's row taps (scale folded in) and column taps.
inline Fp32SeparableTaps separableTapsOf(const Plan& plan)
{
    Fp32SeparableTaps taps{};
    const auto& row = plan.data->rowTaps;
    const auto& col = plan.data->colTaps;
    for (std::size_t i = 0; i < row.size(); ++i) {
        taps.row[i] = row[i];
    }
    for (std::size_t i = 0; i < col.size(); ++i) {
        taps.col[i] = col[i];
    }
    return taps;
}

}  // namespace tessera::gpu::detail
