#pragma once

// Private to gpu/: the fused separable kernel for one-channel images (separable_single.cu).

#include "gpu/executor.h"
#include "gpu/kernel_common.cuh"

namespace tessera::gpu::detail {

/// LaunchShape::specialisedSize of a separable plan that uses this kernel.
constexpr int kSeparableSingle = -1;

/// One channel, 2..61 row taps and 2..64 column taps.
bool hasSeparableSingle(int kw, int kh, int channels);
LaunchShape separableSingleShape(int kw, int kh, int anchorX, int width, int height);
void launchSeparableSingle(const Plan& plan, const ConvParams& params, void* stream);

}  // namespace tessera::gpu::detail
