// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the walking direct kernel for small centred kernels on 8-bit RGBA images
// (direct_rgba8.cu).

#include "gpu/kernel_common.cuh"
#include "gpu/plan_data.h"

namespace tessera::gpu::detail {

/// Enqueues KernelVariant::DirectRgba8Walk (canDirectRgba8Walk, directRgba8WalkShape in
/// variant_support.h say when and how); throws CudaError, PreconditionError for another size.
void launchDirectRgba8(const Plan& plan, const ConvParams& params, StreamView stream);

}  // namespace tessera::gpu::detail
