// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the fused separable kernel for one-channel images (separable_single.cu).

#include "tessera/gpu/executor.h"
#include "gpu/kernels/common/direct_recompute.cuh"
#include "gpu/kernels/common/kernel_common.cuh"

namespace tessera::gpu::detail {

/// Enqueues KernelVariant::SeparableSingle (canSeparableSingle, separableSingleShape in
/// variant_support.h say when and how); throws CudaError.
void launchSeparableSingle(const Plan& plan, const ConvParams& params, const DirectTaps& direct, StreamView stream);

}  // namespace tessera::gpu::detail
