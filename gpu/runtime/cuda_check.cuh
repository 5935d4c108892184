// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: turns CUDA return codes into typed exceptions.

#include "tessera/gpu/cuda_error.h"
#include "tessera/gpu/resources.h"

#include <cuda_runtime.h>

#include <cassert>
#include <cstdio>

namespace tessera::gpu::detail {

/// Throws OutOfDeviceMemory for allocation failures and CudaError for everything else.
[[noreturn]] void throwCudaError(cudaError_t err, const char* call, const char* file, int line);

inline void check(cudaError_t err, const char* call, const char* file, int line)
{
    if (err != cudaSuccess) {
        throwCudaError(err, call, file, line);
    }
}

/// Where throwing is not an option (destructors): reports a failed call and stops the program,
/// so that a leak or a use after free shows in debug builds instead of passing silently. A
/// runtime already unloading (objects freed after main returned) is not a failure.
inline void assertCudaSuccess(cudaError_t err, const char* call, const char* file, int line) noexcept
{
    if (err != cudaSuccess && err != cudaErrorCudartUnloading) {
        std::fprintf(stderr, "%s failed at %s:%d: %s (%s)\n", call, file, line, cudaGetErrorName(err),
                     cudaGetErrorString(err));
        assert(!"a CUDA call in a destructor failed");
    }
}

/// The cudaStream_t behind a view.
inline cudaStream_t cudaStreamOf(StreamView stream)
{
    return static_cast<cudaStream_t>(stream.handle());
}

}  // namespace tessera::gpu::detail

#define TESSERA_CUDA_CHECK(expr) ::tessera::gpu::detail::check((expr), #expr, __FILE__, __LINE__)
/// After a <<<>>> launch: reports configuration errors at the launch site.
#define TESSERA_LAUNCH_CHECK(name) ::tessera::gpu::detail::check(cudaGetLastError(), name " launch", __FILE__, __LINE__)
/// For calls that must not throw (destructors, release): debug builds report a failure and
/// abort; release builds ignore it, as the runtime gives no way to recover there.
#ifdef NDEBUG
#define TESSERA_ASSERT_CUDA_SUCCESS(expr) static_cast<void>(expr)
#else
#define TESSERA_ASSERT_CUDA_SUCCESS(expr) ::tessera::gpu::detail::assertCudaSuccess((expr), #expr, __FILE__, __LINE__)
#endif
