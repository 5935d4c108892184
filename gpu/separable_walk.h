#pragma once

// Private to gpu/: the walking separable kernel for one-channel float images (separable_walk.cu).

#include "gpu/executor.h"
#include "gpu/kernel_common.cuh"

namespace tessera::gpu::detail {

/// LaunchShape::specialisedSize of a separable plan that uses this kernel.
constexpr int kSeparableWalk = -2;

/// f32 in and out, one channel, both tap counts (the row taps after alignment padding) at most
/// 32 and at least 2.
bool hasSeparableWalk(int kw, int kh, int anchorX, PixelFormat input, PixelFormat kernelOutput);
/// smCount spreads the blocks over the device: one column strip per block, as many row
/// segments as keep every SM busy.
LaunchShape separableWalkShape(int kw, int kh, int anchorX, int width, int height, int smCount);
void launchSeparableWalk(const Plan& plan, const ConvParams& params, void* stream);

}  // namespace tessera::gpu::detail
