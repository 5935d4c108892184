// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the tensor-core products the kernels use, through mma.sync (compute
// capability 8.0 and later; the planners never choose these kernels below). Fragment layouts
// with lane g = lane / 4, q = lane % 4: A (16 x K, row-major) as A[g][q..], A[g + 8][q..], ...;
// B (K x 8, column-major) as B[q..][g]; D (16 x 8) as D[g][2q], D[g][2q + 1], D[g + 8][2q],
// D[g + 8][2q + 1].

#include <cstdint>

namespace tessera::gpu::detail {

enum class MmaInput {
    F16,   ///< m16n8k16: two fp16 values per register (A: k 2q, 2q + 1 and 2q + 8, 2q + 9)
    Tf32,  ///< m16n8k8: one TF32 value per register (A: k q and q + 4; the low 13 bits are ignored)
};

/// d += A x B in fp32.
template <MmaInput IN>
__device__ __forceinline__ void mmaSync(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2])
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (IN == MmaInput::F16) {
        asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    } else {
        asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
#else
    (void)d;
    (void)a;
    (void)b;
    __trap();
#endif
}

/// d += A (16 x 32 unsigned bytes, row-major) x B (32 x 8 signed bytes, column-major), exactly in
/// 32-bit integers (m16n8k32). A's registers hold four consecutive k each: A[g][4q..4q + 3],
/// A[g + 8][4q..], A[g][16 + 4q..], A[g + 8][16 + 4q..]; B's: B[4q..4q + 3][g], B[16 + 4q..][g].
__device__ __forceinline__ void mmaU8S8(int (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2])
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
    (void)d;
    (void)a;
    (void)b;
    __trap();
#endif
}

/// Loads four 8 x 8 matrices of 16-bit elements (ldmatrix .x4) from shared memory: lanes 8j ..
/// 8j + 7 give the row addresses of matrix j, and lane l receives row l / 4, elements 2 (l % 4)
/// and 2 (l % 4) + 1 of each matrix. For a 16 x 32 byte A operand (rows r, r + 8 and byte
/// halves 0, 16 as matrices 0 to 3) that is exactly mmaU8S8's A layout.
__device__ __forceinline__ void loadMatrixX4(std::uint32_t (&a)[4], std::uint32_t sharedAddress)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(sharedAddress)
                 : "memory");
#else
    (void)a;
    (void)sharedAddress;
    __trap();
#endif
}

/// d += A (16 x 16 fp16) x B (16 x 8 fp16): the product both 8-bit tensor kernels use.
__device__ __forceinline__ void mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2])
{
    mmaSync<MmaInput::F16>(d, a, b);
}

}  // namespace tessera::gpu::detail
