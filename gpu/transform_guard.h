// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the float rule for the transform methods (filters/float_range.h). A
// transform spreads a NaN or an infinity over everything it covers, so the FFT variants check
// every output they store; when one is not finite, a direct pass recomputes the image from the
// source and NaN and infinity end up exactly where a direct sum puts them. Clean images pay a
// 4-byte clear and one launch whose blocks leave at once.

#include "gpu/executor.h"
#include "gpu/resources.h"

#include <cstddef>

namespace tessera::gpu::detail {

/// Workspace bytes the guard's flag takes.
inline constexpr std::size_t kTransformGuardBytes = 256;

/// Clears the flag on `stream` before the transform's kernels run. Throws CudaError.
void resetTransformGuard(unsigned* flag, StreamView stream);

/// Enqueues the direct recompute of `dst` from `src`, done on the device only when the transform
/// set the flag. `taps` are the plan's direct taps (kernel x scale) on its device. Never
/// synchronises; throws CudaError if the launch fails.
void launchTransformGuard(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, const float* taps,
                          const unsigned* flag, StreamView stream);

}  // namespace tessera::gpu::detail
