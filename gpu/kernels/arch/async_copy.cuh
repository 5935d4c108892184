// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: 16-byte copies from global to shared memory that do not pass through
// registers (cp.async, compute capability 8.0 and later), for kernels that load the next window
// while they compute the current one. Before 8.0 the copy goes through registers at once and
// commit / wait do nothing, so the same kernel code stays correct there.

#include <cuda_runtime.h>

namespace tessera::gpu::detail {

/// What a 16-byte copy asks of L2 beyond its own bytes.
enum class L2Fetch {
    Bytes,     ///< only the 16 bytes
    Block256,  ///< the 256-byte block around them (neighbouring threads' quads ride along)
};

/// Starts copying 16 bytes (both addresses 16-byte aligned); visible to the calling thread after
/// waitAsync(), to the block after waitAsync() and a barrier.
template <L2Fetch FETCH = L2Fetch::Bytes>
__device__ __forceinline__ void copyAsync16(void* toShared, const void* fromGlobal)
{
#if __CUDA_ARCH__ >= 800
    const auto s = static_cast<unsigned>(__cvta_generic_to_shared(toShared));
    if constexpr (FETCH == L2Fetch::Block256) {
        asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;\n" ::"r"(s), "l"(fromGlobal));
    } else {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(fromGlobal));
    }
#else
    *static_cast<uint4*>(toShared) = *static_cast<const uint4*>(fromGlobal);
#endif
}

/// Starts copying 4 bytes (both addresses 4-byte aligned); visible as with copyAsync16.
__device__ __forceinline__ void copyAsync4(void* toShared, const void* fromGlobal)
{
#if __CUDA_ARCH__ >= 800
    const auto s = static_cast<unsigned>(__cvta_generic_to_shared(toShared));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(fromGlobal));
#else
    *static_cast<unsigned*>(toShared) = *static_cast<const unsigned*>(fromGlobal);
#endif
}

/// Closes the group of copies started since the last commit.
__device__ __forceinline__ void commitAsync()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}

/// Waits for every copy this thread started.
__device__ __forceinline__ void waitAsync()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

}  // namespace tessera::gpu::detail
