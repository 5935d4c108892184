// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the direct kernels for small centred kernels on 8-bit RGBA images: the byte
// walk (direct_rgba8_walk.cu), its fp16 form (direct_rgba8_walk_half.cu) and the integer
// tensor-core form (kernels/tensor/direct_rgba8_imma.cu). Their table rows are in
// plan/kernel_variant.cpp.

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

/// Enqueues the byte walk's fp16 form of a 3 x 3 plan whose taps take fp16 sums
/// (rgba8WalkTakesHalfSums, direct_rgba8_bound.h). Throws CudaError.
void launchDirectRgba8Half(const Plan& plan, const ConvParams& params, StreamView stream);

}  // namespace tessera::gpu::detail
