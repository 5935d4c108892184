// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the tensor-core product both 8-bit tensor kernels use.

#include <cstdint>

namespace tessera::gpu::detail {

/// d += A (16 x 16, row-major fp16) x B (16 x 8, column-major fp16), fp32 accumulators, with
/// mma.sync's fragment layouts (lane g = lane / 4, q = lane % 4). Compute capability 8.0 and
/// later; the planners never choose it below.
__device__ __forceinline__ void mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2])
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    (void)d;
    (void)a;
    (void)b;
    __trap();
#endif
}

}  // namespace tessera::gpu::detail
