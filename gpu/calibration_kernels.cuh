// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the launchers of the calibration kernels.

#include <cuda_runtime.h>

namespace tessera::gpu::detail {

/// Enqueues blocks x threads threads, each running `chains` independent FMA chains for
/// `iterations` steps and storing one float in out (blocks * threads floats). Returns the FMAs
/// done in total. Checks the launch.
double launchFmaBurn(float* out, int blocks, int threads, int iterations, cudaStream_t stream);

/// Independent dependency chains per thread in launchFmaBurn: enough to hide the FMA latency.
constexpr int kFmaChains = 8;

}  // namespace tessera::gpu::detail
