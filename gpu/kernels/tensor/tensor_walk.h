// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the walking tensor-core separable kernel for 8-bit RGBA (tensor_walk.cu).

#include "filters/filter_spec.h"
#include "tessera/gpu/executor.h"
#include "gpu/kernels/common/kernel_common.cuh"

#include <vector>

namespace tessera::gpu::detail {

/// RGBA8, at most 33 row taps (after padding the anchor to an even column) and 33 column taps,
/// and a constant border only with a byte value.
bool hasTensorWalk(const filters::FilterSpec& spec, int channels);
LaunchShape tensorWalkShape(int width, int height);
/// rowTaps / colTaps: the plan's fp32 taps (scale folded into the row).
void launchTensorWalk(const ConvParams& params, const std::vector<float>& rowTaps, const std::vector<float>& colTaps,
                      const LaunchShape& shape, StreamView stream);

}  // namespace tessera::gpu::detail
