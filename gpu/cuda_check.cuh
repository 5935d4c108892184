#pragma once

// Private to gpu/: turns CUDA return codes into typed exceptions.

#include "gpu/cuda_error.h"

#include <cuda_runtime.h>

namespace tessera::gpu::detail {

/// Throws OutOfDeviceMemory for allocation failures and CudaError for everything else.
[[noreturn]] void throwCudaError(cudaError_t err, const char* call, const char* file, int line);

inline void check(cudaError_t err, const char* call, const char* file, int line)
{
    if (err != cudaSuccess) {
        throwCudaError(err, call, file, line);
    }
}

}  // namespace tessera::gpu::detail

#define TESSERA_CUDA_CHECK(expr) ::tessera::gpu::detail::check((expr), #expr, __FILE__, __LINE__)
/// After a <<<>>> launch: reports configuration errors at the launch site.
#define TESSERA_LAUNCH_CHECK(name) \
    ::tessera::gpu::detail::check(cudaGetLastError(), name " launch", __FILE__, __LINE__)
