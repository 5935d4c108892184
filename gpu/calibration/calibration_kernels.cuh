// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the launchers of the calibration kernels.

#include <cuda_runtime.h>

#include <cstddef>

namespace tessera::gpu::detail {

/// Enqueues blocks x threads threads, each running `chains` independent FMA chains for
/// `iterations` steps and storing one float in out (blocks * threads floats). Returns the FMAs
/// done in total. Checks the launch.
double launchFmaBurn(float* out, int blocks, int threads, int iterations, cudaStream_t stream);

/// Enqueues a copy of `bytes` from `from` to `to` (device memory of the current device, both
/// 16-byte aligned) by a kernel on the SMs, as the convolution kernels move their bytes: one block
/// per 16 KB. Checks the launch.
void launchCopy(void* to, const void* from, std::size_t bytes, cudaStream_t stream);

/// Independent dependency chains per thread in launchFmaBurn: enough to hide the FMA latency.
constexpr int kFmaChains = 8;

}  // namespace tessera::gpu::detail
