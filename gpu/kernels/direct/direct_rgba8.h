// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the direct kernels for small centred kernels on 8-bit RGBA images: the byte
// walk (direct_rgba8.cu, its fp16 form direct_rgba8_half.cu) and its integer tensor-core form
// (direct_rgba8_imma.cu).

#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/plan/plan_data.h"
#include "gpu/plan/variant_support.h"

#include <cstddef>
#include <string>

namespace tessera::gpu::detail {

/// What both kernels ask of a plan: a centred 3 x 3 or 5 x 5 kernel, RGBA8 in and out, a constant
/// border that is a byte, and shared3 / shared5 bytes of shared memory for the size; `kernel`
/// names the kernel in the reason. Never throws.
Support smallRgba8Support(const ShapeQuery& q, const std::string& kernel, std::size_t shared3, std::size_t shared5);

/// Enqueues KernelVariant::DirectRgba8Walk (canDirectRgba8Walk, directRgba8WalkShape in
/// variant_support.h say when and how); throws CudaError, PreconditionError for another size.
void launchDirectRgba8(const Plan& plan, const ConvParams& params, StreamView stream);

/// Enqueues the byte walk's fp16 form (direct_rgba8_half.cu) of a 3 x 3 plan for which
/// rgba8WalkTakesHalfSums (direct_rgba8_bound.h) holds; launchDirectRgba8 calls it. Throws CudaError.
void launchDirectRgba8Half(const Plan& plan, const ConvParams& params, StreamView stream);

/// Enqueues KernelVariant::DirectRgba8Imma (canDirectRgba8Imma, directRgba8ImmaShape), the
/// integer tensor-core form (direct_rgba8_imma.cu); throws CudaError, PreconditionError for
/// another size or taps without a fixed-point form (direct_rgba8_fixed.h).
void launchDirectRgba8Imma(const Plan& plan, const ConvParams& params, StreamView stream);

}  // namespace tessera::gpu::detail
