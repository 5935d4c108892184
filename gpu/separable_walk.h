// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the walking separable kernel for one-channel float images (separable_walk.cu).

#include "gpu/executor.h"
#include "gpu/kernel_common.cuh"

namespace tessera::gpu::detail {

/// Enqueues KernelVariant::SeparableWalk (canSeparableWalk, separableWalkShape in
/// variant_support.h say when and how); throws CudaError.
void launchSeparableWalk(const Plan& plan, const ConvParams& params, StreamView stream);

}  // namespace tessera::gpu::detail
