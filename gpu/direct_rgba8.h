#pragma once

// Private to gpu/: the walking direct kernel for small centred kernels on 8-bit RGBA images
// (direct_rgba8.cu).

#include "gpu/kernel_common.cuh"
#include "gpu/plan_data.h"

namespace tessera::gpu::detail {

/// LaunchShape::specialisedSize of a direct plan that uses this kernel: -K.
constexpr int directRgba8Code(int k) { return -k; }

/// u8 RGBA in and out, K x K with K = 3 or 5, centred anchor; a constant border only with a
/// value that is a byte (the window stays in bytes).
bool hasDirectRgba8(const ShapeQuery& q);
LaunchShape directRgba8Shape(const ShapeQuery& q);
void launchDirectRgba8(const Plan& plan, const ConvParams& params, void* stream);

}  // namespace tessera::gpu::detail
