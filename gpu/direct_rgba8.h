// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the direct kernels for small centred kernels on 8-bit RGBA images: the byte
// walk (direct_rgba8.cu) and its integer tensor-core form (direct_rgba8_imma.cu).

#include "gpu/kernel_common.cuh"
#include "gpu/plan_data.h"

namespace tessera::gpu::detail {

/// Enqueues KernelVariant::DirectRgba8Walk (canDirectRgba8Walk, directRgba8WalkShape in
/// variant_support.h say when and how); throws CudaError, PreconditionError for another size.
void launchDirectRgba8(const Plan& plan, const ConvParams& params, StreamView stream);

/// Enqueues KernelVariant::DirectRgba8Imma (canDirectRgba8Imma, directRgba8ImmaShape), the
/// integer tensor-core form (direct_rgba8_imma.cu); throws CudaError, PreconditionError for
/// another size or taps without a fixed-point form (direct_rgba8_fixed.h).
void launchDirectRgba8Imma(const Plan& plan, const ConvParams& params, StreamView stream);

}  // namespace tessera::gpu::detail
