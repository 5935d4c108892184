// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the walking separable kernels for one-channel float images, on FMAs
// (separable_walk.cu) and on tensor cores with a TF32 split (separable_tf32.cu).

#include "tessera/gpu/executor.h"
#include "gpu/kernels/common/direct_recompute.cuh"
#include "gpu/kernels/common/kernel_common.cuh"

namespace tessera::gpu::detail {

/// Enqueues KernelVariant::SeparableWalk (canSeparableWalk, separableWalkShape in
/// variant_support.h say when and how); throws CudaError.
void launchSeparableWalk(const Plan& plan, const ConvParams& params, const DirectTaps& direct, StreamView stream);

/// Enqueues KernelVariant::SeparableTf32Walk (canSeparableTf32Walk, separableTf32WalkShape);
/// throws CudaError.
void launchSeparableTf32Walk(const Plan& plan, const ConvParams& params, const DirectTaps& direct, StreamView stream);

}  // namespace tessera::gpu::detail
