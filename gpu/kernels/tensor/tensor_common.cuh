// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: what the tensor-core direct and separable kernels share: the tile and
// fragment geometry, fp16 tap rows, the window loader and the 1D band product, and the launch
// helpers.

#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/kernels/arch/mma_sync.cuh"
#include "gpu/plan/plan_data.h"

#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

// How a correlation becomes matrix products. For one window row, the outputs of 8 adjacent
// columns are a 16 x 8 matrix product: A holds 16 rows x 16 input columns (fp16, read from
// shared memory with ldmatrix), B is the 16 x 8 Toeplitz matrix B[k][n] = w[d + k - n] whose
// shift d = 16 s - 8 t depends only on the input step s and the output group t. A warp owns 16
// rows x 64 columns (8 groups); each A fragment is used by every group it overlaps, and the few
// distinct B fragments of a tap row are built once per row from fp16 taps in shared memory.
// Direct 2D sums these products over the kernel rows; the separable form runs the row pass
// into a transposed fp16 intermediate and the column pass over that, with the same code.

namespace tessera::gpu::detail {

constexpr int kTile = 64;  // outputs per block, each way
constexpr int kWarps = 4;
constexpr int kThreads = 32 * kWarps;
constexpr int kGroups = 8;      // groups of 8 output columns per warp
constexpr int kMaxTaps = 4096;  // direct: taps carried in the launch parameters
constexpr int kMaxSide = 64;

/// Width class of a kernel side: the compiled tap-count bound (0: too wide).
constexpr int widthClass(int taps)
{
    return taps <= 8 ? 8 : taps <= 16 ? 16 : taps <= 32 ? 32 : taps <= 64 ? 64 : 0;
}
/// Zero taps put before each tap row so that every block's window starts on a whole load
/// vector (4 RGBA pixels, 8 gray ones); RGB windows are read pixel by pixel and need none.
inline int leftPad(int anchorX, int channels)
{
    if (channels == 3) {
        return 0;
    }
    const int vector = channels == 4 ? 4 : 8;
    return (vector - anchorX % vector) % vector;
}

/// The kernel width the tensor-core kernels run: the spec's plus the left padding.
inline int paddedWidth(const filters::FilterSpec& spec, int channels)
{
    return spec.kernel.width + leftPad(spec.effectiveAnchor().x, channels);
}

/// k-steps of 16 input columns covering 64 outputs plus the halo.
__host__ __device__ constexpr int steps(int k)
{
    return (kTile + k - 1 + 15) / 16;
}
/// Distinct B fragments of a tap row: shifts d = -8, 0, 8, ... up to k + 6.
__host__ __device__ constexpr int fragCount(int k)
{
    return (k + 6) / 8 + 2;
}
__host__ __device__ constexpr bool pairUsed(int s, int t, int k)
{
    const int d = 16 * s - 8 * t;
    return d >= -15 && d <= k + 6;
}
__host__ __device__ constexpr int fragIndex(int s, int t, int k)
{
    const int i = 2 * s - t + 1;
    return i < 0 ? 0 : i >= fragCount(k) ? fragCount(k) - 1 : i;
}
/// Row stride in halves: whole 16-byte units, an odd number of them, so that the eight row
/// addresses of an ldmatrix phase fall in different banks.
__host__ __device__ constexpr int rowStride(int cols)
{
    const int units = (cols + 7) / 8;
    return (units % 2 == 0 ? units + 1 : units) * 8;
}
/// Padded fp16 tap row: tap j at index 16 + j, zeros around it.
__host__ __device__ constexpr int tapRowLength(int k)
{
    return 8 * fragCount(k) + 16;
}

constexpr int pairsPerStep(int k)
{
    int n = 0;
    for (int s = 0; s < steps(k); ++s) {
        for (int t = 0; t < kGroups; ++t) {
            n += pairUsed(s, t, k) ? 1 : 0;
        }
    }
    return n;
}

struct DirectTaps {
    float w[kMaxTaps];
};

struct SeparableTaps {
    float row[kMaxSide];
    float col[kMaxSide];
};

__device__ __forceinline__ std::uint32_t packHalves(__half lo, __half hi)
{
    const __half2 h = __halves2half2(lo, hi);
    std::uint32_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}

__device__ __forceinline__ void loadMatrix(std::uint32_t (&a)[4], const __half* p)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const auto addr = static_cast<unsigned>(__cvta_generic_to_shared(p));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(addr));
#else
    (void)p;
    a[0] = a[1] = a[2] = a[3] = 0u;
    __trap();  // the planner only takes this path on compute capability 8.0 and later
#endif
}

/// The B fragments of one padded tap row: fragment f is the Toeplitz block of shift 8 (f - 1).
/// Lane (g, q) holds B[2q, 2q+1][g] and B[2q+8, 2q+9][g].
template <int F>
__device__ __forceinline__ void buildFragments(const __half* tapRow, std::uint32_t (&b)[F][2])
{
    const int lane = threadIdx.x & 31;
    const __half* base = tapRow + 16 - 8 - (lane >> 2) + 2 * (lane & 3);
#pragma unroll
    for (int f = 0; f < F; ++f) {
        const __half* q = base + 8 * f;
        b[f][0] = packHalves(q[0], q[1]);
        b[f][1] = packHalves(q[8], q[9]);
    }
}

/// Rows of padded fp16 taps: out[r * L + 16 + j] = taps[r * width + j], zero elsewhere.
template <int L>
__device__ __forceinline__ void loadTapRows(const float* taps, int width, int rows, __half* out, int tid, int threads)
{
    for (int i = tid; i < rows * L; i += threads) {
        const int r = i / L;
        const int j = i - r * L - 16;
        out[i] = __float2half_rn(j >= 0 && j < width ? taps[r * width + j] : 0.0f);
    }
}

/// Two bytes (byte i of a, byte j of b) as an exact half2: 1024 + byte has the bit pattern
/// 0x6400 | byte in fp16, so a byte permute, one mask-and-or and one subtraction convert them.
__device__ __forceinline__ std::uint32_t bytePairToHalf2(unsigned a, unsigned b, int i, int j)
{
    const unsigned t = __byte_perm(a, b, static_cast<unsigned>(i | ((j + 4) << 8))) & 0x00FF00FFu;
    const unsigned bits = t | 0x64006400u;
    __half2 h;
    memcpy(&h, &bits, sizeof h);
    h = __hsub2(h, __float2half2_rn(1024.0f));
    std::uint32_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}

/// The load vector of C-channel bytes at (x, y) of a window that crosses the image border: row
/// y as the border rule maps it, read whole where the vector lies inside, else pixel by pixel
/// (`fill`: the constant border's byte, replicated).
template <int C, typename Vec>
__device__ __forceinline__ Vec edgeVector(const ConvParams& p, int x, int y, unsigned fill)
{
    constexpr int kPixels = static_cast<int>(sizeof(Vec)) / C;
    const int gy = mapBorder(y, p.height, p.border);
    const auto* row = rowPtr<std::uint8_t>(p.src, p.srcPitch, gy < 0 ? 0 : gy);
    Vec v;
    if (gy >= 0 && x >= 0 && x + kPixels <= p.width) {
        v = *reinterpret_cast<const Vec*>(row + static_cast<std::size_t>(x) * C);
        return v;
    }
    unsigned w[sizeof(Vec) / 4] = {};
#pragma unroll
    for (int j = 0; j < kPixels; ++j) {
        const int gx = mapBorder(x + j, p.width, p.border);
        const bool constant = gx < 0 || gy < 0;
        if constexpr (C == 4) {
            w[j] = constant ? fill : *reinterpret_cast<const unsigned*>(row + 4 * gx);
        } else {
            w[j / 4] |= (constant ? fill & 0xFFu : static_cast<unsigned>(row[gx])) << (8 * (j % 4));
        }
    }
    memcpy(&v, w, sizeof w);
    return v;
}

/// The window as aligned vectors of kPixels pixels (16 bytes of RGBA, 8 of gray): eight vectors
/// per thread in flight before the first shared-memory store, since the load phase is
/// latency-bound otherwise. The planner pads the taps so that the window starts on a vector
/// boundary, which makes every store a whole aligned vector. Edge: the window crosses the image
/// border; a row outside is read from the row the border rule maps it to, and a vector that
/// sticks out at the left or right is gathered pixel by pixel (`fill`: the constant border's
/// byte replicated, which the caller has checked to be a whole byte).
template <int C, int COLS, bool Edge>
__device__ __forceinline__ void loadWindowVectors(const ConvParams& p, __half* s, int ox, int oy, int rows, int stride,
                                                  int plane, int tid, unsigned fill)
{
    static_assert(C == 1 || C == 4, "vector loads take 1 or 4 channels");
    constexpr int kPixels = C == 4 ? 4 : 8;
    constexpr int kVectors = COLS / kPixels;
    constexpr int kUnroll = 8;
    using Vec = std::conditional_t<C == 4, uint4, uint2>;
    const int n = rows * kVectors;
    for (int first = tid; first < n; first += kUnroll * kThreads) {
        Vec v[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int i = first + u * kThreads;
            if (i < n) {
                const int r = i / kVectors;
                const int k = i - r * kVectors;
                if constexpr (Edge) {
                    v[u] = edgeVector<C, Vec>(p, ox + k * kPixels, oy + r, fill);
                } else {
                    v[u] = reinterpret_cast<const Vec*>(rowPtr<std::uint8_t>(p.src, p.srcPitch, oy + r) +
                                                        static_cast<std::size_t>(ox) * C)[k];
                }
            }
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int i = first + u * kThreads;
            if (i < n) {
                const int r = i / kVectors;
                const int k = i - r * kVectors;
                __half* out = s + r * stride + k * kPixels;
                if constexpr (C == 4) {
                    // Words are pixels; channel c of pixels (0, 1) and (2, 3).
#pragma unroll
                    for (int c = 0; c < 4; ++c) {
                        *reinterpret_cast<uint2*>(out + c * plane) =
                            make_uint2(bytePairToHalf2(v[u].x, v[u].y, c, c), bytePairToHalf2(v[u].z, v[u].w, c, c));
                    }
                } else {
                    *reinterpret_cast<uint4*>(out) =
                        make_uint4(bytePairToHalf2(v[u].x, v[u].x, 0, 1), bytePairToHalf2(v[u].x, v[u].x, 2, 3),
                                   bytePairToHalf2(v[u].y, v[u].y, 0, 1), bytePairToHalf2(v[u].y, v[u].y, 2, 3));
                }
            }
        }
    }
}

/// Fills `rows` x COLS pixels of the window (origin ox, oy; border rule applied) as fp16
/// planes: s[c * plane + r * stride + x]. RGBA and gray windows on aligned rows go by vectors
/// (unless a constant border is no whole byte); otherwise four pixels are loaded before their
/// stores.
template <int C, int COLS>
__device__ __forceinline__ void loadWindow(const ConvParams& p, __half* s, int ox, int oy, int rows, int stride,
                                           int plane, int tid)
{
    constexpr int kUnroll = 4;
    const int n = rows * COLS;
    const bool inside = ox >= 0 && oy >= 0 && ox + COLS <= p.width && oy + rows <= p.height;
    if constexpr (C != 3) {
        constexpr int kPixels = C == 4 ? 4 : 8;
        const bool aligned = ((reinterpret_cast<std::uintptr_t>(p.src) | p.srcPitch) & (kPixels * C - 1)) == 0;
        if (aligned && ox % kPixels == 0) {
            if (inside) {
                loadWindowVectors<C, COLS, false>(p, s, ox, oy, rows, stride, plane, tid, 0u);
                return;
            }
            const float b = p.borderValue;
            if (p.border != kConstant || (b >= 0.0f && b <= 255.0f && b == floorf(b))) {
                const unsigned fill = (p.border == kConstant ? static_cast<unsigned>(b) : 0u) * 0x01010101u;
                loadWindowVectors<C, COLS, true>(p, s, ox, oy, rows, stride, plane, tid, fill);
                return;
            }
        }
    }
    for (int first = tid; first < n; first += kUnroll * kThreads) {
        float v[kUnroll][C];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int i = first + u * kThreads;
            if (i < n) {
                const int r = i / COLS;
                const int x = i - r * COLS;
                fetchPixel<std::uint8_t, C>(p, ox + x, oy + r, inside, v[u]);
            }
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int i = first + u * kThreads;
            if (i < n) {
                const int r = i / COLS;
                const int x = i - r * COLS;
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    s[c * plane + r * stride + x] = __float2half_rn(v[u][c]);
                }
            }
        }
    }
}

__device__ __forceinline__ void fillZero(float& v)
{
    v = 0.0f;
}

/// Zeroes a (nested) register array, fully unrolled.
template <typename T, int N>
__device__ __forceinline__ void fillZero(T (&a)[N])
{
#pragma unroll
    for (int i = 0; i < N; ++i) {
        fillZero(a[i]);
    }
}

/// One 16-row band of a 1D correlation: acc[t] += A(16 x 16 S) * B for every used (s, t) pair.
/// `a` points at the lane's ldmatrix row (band row lane % 16, column 8 (lane / 16)).
template <int K>
__device__ __forceinline__ void correlateBand(const __half* a, const std::uint32_t (&b)[fragCount(K)][2],
                                              float (&acc)[kGroups][4])
{
#pragma unroll
    for (int s = 0; s < steps(K); ++s) {
        std::uint32_t frag[4];
        loadMatrix(frag, a + 16 * s);
#pragma unroll
        for (int t = 0; t < kGroups; ++t) {
            if (pairUsed(s, t, K)) {
                mma(acc[t], frag, b[fragIndex(s, t, K)]);
            }
        }
    }
}

inline std::size_t directSharedBytes(int k, int kh, int channels)
{
    const auto rows = static_cast<std::size_t>(kTile + kh - 1);
    const auto window = rows * static_cast<std::size_t>(rowStride(16 * steps(k))) * static_cast<std::size_t>(channels);
    return (window + static_cast<std::size_t>(kh) * static_cast<std::size_t>(tapRowLength(k))) * sizeof(__half);
}

inline std::size_t separableSharedBytes(int k, int channels)
{
    const auto rows = static_cast<std::size_t>(16 * steps(k));
    const auto window = rows * static_cast<std::size_t>(rowStride(16 * steps(k))) * static_cast<std::size_t>(channels);
    const auto mid = static_cast<std::size_t>(kTile) * static_cast<std::size_t>(rowStride(16 * steps(k)));
    return (window + mid + 2 * static_cast<std::size_t>(tapRowLength(k))) * sizeof(__half);
}

template <typename F>
inline void dispatchClass(int k, F&& f)
{
    switch (k) {
    case 8: f.template operator()<8>(); break;
    case 16: f.template operator()<16>(); break;
    case 32: f.template operator()<32>(); break;
    case 64: f.template operator()<64>(); break;
    default: throw PreconditionError("tensor-core kernel: no width class " + std::to_string(k));
    }
}

/// Launches pick<C, K>() (the kernel for the plan's channel count and width class) on the
/// plan's grid with its shared memory.
template <typename Taps, typename Pick>
inline void launchTensorKernel(const Plan& plan, const ConvParams& p, const Taps& taps, StreamView stream,
                               const char* what, Pick&& pick)
{
    const cudaStream_t s = cudaStreamOf(stream);
    const dim3 grid(static_cast<unsigned>(plan.shape.gridX), static_cast<unsigned>(plan.shape.gridY));
    dispatchChannelCount(plan.input.channels, what, [&]<int C>() {
        dispatchClass(plan.shape.compiledSize, [&]<int K>() {
            auto kernel = pick.template operator()<C, K>();
            allowShared(kernel, plan.shape.sharedBytes);
            kernel<<<grid, kThreads, plan.shape.sharedBytes, s>>>(p, taps);
            check(cudaGetLastError(), what, __FILE__, __LINE__);
        });
    });
}

}  // namespace tessera::gpu::detail
