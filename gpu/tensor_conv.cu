#include "gpu/cuda_check.cuh"
#include "gpu/kernel_common.cuh"
#include "gpu/launch_common.cuh"
#include "gpu/mma_f16.cuh"
#include "gpu/plan_data.h"
#include "gpu/tensor_conv.h"
#include "gpu/tensor_walk.h"

#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
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

namespace {

constexpr int kTile = 64;                 // outputs per block, each way
constexpr int kWarps = 4;
constexpr int kThreads = 32 * kWarps;
constexpr int kGroups = 8;                // groups of 8 output columns per warp
constexpr int kMaxTaps = 4096;            // direct: taps carried in the launch parameters
constexpr int kMaxSide = 64;

/// Width class of a kernel side: the compiled tap-count bound (0: too wide).
constexpr int widthClass(int taps)
{
    return taps <= 8 ? 8 : taps <= 16 ? 16 : taps <= 32 ? 32 : taps <= 64 ? 64 : 0;
}
/// Zero taps put before each tap row so that every block's window starts on a whole load
/// vector (4 RGBA pixels, 8 gray ones); RGB windows are read pixel by pixel and need none.
int leftPad(int anchorX, int channels)
{
    if (channels == 3) {
        return 0;
    }
    const int vector = channels == 4 ? 4 : 8;
    return (vector - anchorX % vector) % vector;
}

/// The kernel width the tensor-core kernels run: the spec's plus the left padding.
int paddedWidth(const filters::FilterSpec& spec, int channels)
{
    return spec.kernel.width + leftPad(spec.effectiveAnchor().x, channels);
}

/// k-steps of 16 input columns covering 64 outputs plus the halo.
__host__ __device__ constexpr int steps(int k) { return (kTile + k - 1 + 15) / 16; }
/// Distinct B fragments of a tap row: shifts d = -8, 0, 8, ... up to k + 6.
__host__ __device__ constexpr int fragCount(int k) { return (k + 6) / 8 + 2; }
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
__host__ __device__ constexpr int tapRowLength(int k) { return 8 * fragCount(k) + 16; }

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
                if constexpr (!Edge) {
                    v[u] = reinterpret_cast<const Vec*>(rowPtr<std::uint8_t>(p.src, p.srcPitch, oy + r) +
                                                        static_cast<std::size_t>(ox) * C)[k];
                } else {
                    const int gy = mapBorder(oy + r, p.height, p.border);
                    const int x = ox + k * kPixels;
                    const auto* row = rowPtr<std::uint8_t>(p.src, p.srcPitch, gy < 0 ? 0 : gy);
                    if (gy >= 0 && x >= 0 && x + kPixels <= p.width) {
                        v[u] = *reinterpret_cast<const Vec*>(row + static_cast<std::size_t>(x) * C);
                    } else {
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
                        memcpy(&v[u], w, sizeof w);
                    }
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

__device__ __forceinline__ void fillZero(float& v) { v = 0.0f; }

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

/// One 64 x 64 output tile of the direct correlation from its window in shared memory: warp
/// `warp` (0..3) owns 16 rows x 64 columns x all channels and sums the 1D products of every
/// kernel row, then stores its rows.
template <int C, int K>
__device__ __forceinline__ void directTile(const ConvParams& p, const __half* win, const __half* tapRows, int plane,
                                           int x0, int y0, int warp, int lane)
{
    constexpr int F = fragCount(K);
    constexpr int SW = rowStride(16 * steps(K));
    constexpr int L = tapRowLength(K);
    float acc[C][kGroups][4];
    fillZero(acc);
    const __half* band = win + (warp * 16 + (lane & 15)) * SW + (lane >> 4) * 8;
    for (int ky = 0; ky < p.kh; ++ky) {
        std::uint32_t b[F][2];
        buildFragments<F>(tapRows + ky * L, b);
#pragma unroll
        for (int c = 0; c < C; ++c) {
            correlateBand<K>(band + c * plane + ky * SW, b, acc[c]);
        }
    }

    // Lane (g, q) of group t holds columns 8t + 2q, +1 of rows g and g + 8.
    const int g = lane >> 2;
    const int q = lane & 3;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int y = y0 + warp * 16 + g + 8 * h;
        if (y < p.height) {
            auto* row = rowPtr<std::uint8_t>(p.dst, p.dstPitch, y);
#pragma unroll
            for (int t = 0; t < kGroups; ++t) {
                float v[2][C];
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    v[0][c] = acc[c][t][2 * h];
                    v[1][c] = acc[c][t][2 * h + 1];
                }
                storeStrip<std::uint8_t, C, 2>(row, x0 + 8 * t + 2 * q, p.width, p.offset, v);
            }
        }
    }
}

/// Direct correlation for 8-bit images on tensor cores, one 64 x 64 tile per block of four
/// warps: the form for narrow kernels, whose small windows let three blocks share an SM.
template <int C, int K>
__global__ void __launch_bounds__(kThreads) tensorDirectKernel(const ConvParams p, const __grid_constant__ DirectTaps taps)
{
    constexpr int COLS = 16 * steps(K);
    constexpr int SW = rowStride(COLS);
    constexpr int L = tapRowLength(K);
    extern __shared__ float4 tensorShared[];
    auto* win = reinterpret_cast<__half*>(tensorShared);
    const int rows = kTile + p.kh - 1;
    const int plane = rows * SW;
    __half* tapRows = win + C * plane;

    const int x0 = blockIdx.x * kTile;
    const int y0 = blockIdx.y * kTile;
    loadWindow<C, COLS>(p, win, x0 - p.anchorX, y0 - p.anchorY, rows, SW, plane, threadIdx.x);
    loadTapRows<L>(taps.w, p.kw, p.kh, tapRows, threadIdx.x, kThreads);
    __syncthreads();
    directTile<C, K>(p, win, tapRows, plane, x0, y0, threadIdx.x >> 5, threadIdx.x & 31);
}

/// The same for wide kernels (32 and 64 taps), whose windows fit at most twice in an SM:
/// persistent blocks that take tiles from a counter in the workspace (zero at launch) until
/// none are left, so that an SM that runs ahead takes more tiles and the SMs finish together,
/// with the tap rows converted once per block. The tiles cover output rows firstRow onwards
/// (tilesX per tile row); rows above are not computed.
template <int C, int K>
__global__ void __launch_bounds__(kThreads)
    tensorDirectPersistent(const ConvParams p, const __grid_constant__ DirectTaps taps, unsigned* counter, int firstRow,
                           int tilesX, int tiles)
{
    constexpr int COLS = 16 * steps(K);
    constexpr int SW = rowStride(COLS);
    constexpr int L = tapRowLength(K);
    extern __shared__ float4 tensorShared[];
    __shared__ int claimed;
    const int rows = kTile + p.kh - 1;
    const int plane = rows * SW;
    auto* win = reinterpret_cast<__half*>(tensorShared);
    __half* tapRows = win + C * plane;
    loadTapRows<L>(taps.w, p.kw, p.kh, tapRows, threadIdx.x, kThreads);
#pragma unroll 1
    for (;;) {
        if (threadIdx.x == 0) {
            claimed = static_cast<int>(atomicAdd(counter, 1u));
        }
        __syncthreads();  // the claim is visible, the tap rows are ready and the window is free
        const int t = claimed;
        if (t >= tiles) {
            break;
        }
        const int x0 = (t % tilesX) * kTile;
        const int y0 = firstRow + (t / tilesX) * kTile;
        loadWindow<C, COLS>(p, win, x0 - p.anchorX, y0 - p.anchorY, rows, SW, plane, threadIdx.x);
        __syncthreads();
        directTile<C, K>(p, win, tapRows, plane, x0, y0, threadIdx.x >> 5, threadIdx.x & 31);
    }
}

/// Separable correlation for 8-bit images on tensor cores, fused: per channel, the row pass
/// writes a transposed fp16 intermediate (64 columns x 16 S window rows) to shared memory and
/// the column pass runs the same 1D product over it; outputs of all channels stay in registers.
template <int C, int K>
__global__ void __launch_bounds__(kThreads, 2)
    tensorSeparableKernel(const ConvParams p, const __grid_constant__ SeparableTaps taps)
{
    constexpr int F = fragCount(K);
    constexpr int S = steps(K);
    constexpr int COLS = 16 * S;
    constexpr int ROWS = 16 * S;
    constexpr int SW = rowStride(COLS);
    constexpr int ST = rowStride(ROWS);
    constexpr int L = tapRowLength(K);
    constexpr int PLANE = ROWS * SW;
    extern __shared__ float4 tensorShared[];
    auto* win = reinterpret_cast<__half*>(tensorShared);
    __half* mid = win + C * PLANE;   // mid[x * ST + j]: row-pass output of window row j, column x
    __half* rowTaps = mid + kTile * ST;
    __half* colTaps = rowTaps + L;

    const int x0 = blockIdx.x * kTile;
    const int y0 = blockIdx.y * kTile;
    loadWindow<C, COLS>(p, win, x0 - p.anchorX, y0 - p.anchorY, ROWS, SW, PLANE, threadIdx.x);
    loadTapRows<L>(taps.row, p.kw, 1, rowTaps, threadIdx.x, kThreads);
    loadTapRows<L>(taps.col, p.kh, 1, colTaps, threadIdx.x, kThreads);
    __syncthreads();

    const int warp = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    const int g = lane >> 2;
    const int q = lane & 3;
    std::uint32_t bRow[F][2];
    std::uint32_t bCol[F][2];
    buildFragments<F>(rowTaps, bRow);
    buildFragments<F>(colTaps, bCol);
    const int lead = (lane & 15);
    const int half8 = (lane >> 4) * 8;

    float out[C][kGroups][4];
    fillZero(out);
#pragma unroll
    for (int c = 0; c < C; ++c) {
        for (int band = warp; band < S; band += kWarps) {
            float h[kGroups][4];
            fillZero(h);
            correlateBand<K>(win + c * PLANE + (band * 16 + lead) * SW + half8, bRow, h);
#pragma unroll
            for (int t = 0; t < kGroups; ++t) {
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int x = 8 * t + 2 * q + (e & 1);
                    const int j = band * 16 + g + 8 * (e >> 1);
                    mid[x * ST + j] = __float2half_rn(h[t][e]);
                }
            }
        }
        __syncthreads();
        // Column pass: the warp's 16 output columns are the A rows, output rows the groups.
        correlateBand<K>(mid + (warp * 16 + lead) * ST + half8, bCol, out[c]);
        __syncthreads();
    }

    // Lane (g, q) of group t holds output rows 8t + 2q, +1 of columns g and g + 8.
#pragma unroll
    for (int t = 0; t < kGroups; ++t) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int x = x0 + warp * 16 + g + 8 * (e >> 1);
            const int y = y0 + 8 * t + 2 * q + (e & 1);
            if (x < p.width && y < p.height) {
                float v[C];
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    v[c] = out[c][t][e] + p.offset;
                }
                storePixel<std::uint8_t, C>(rowPtr<std::uint8_t>(p.dst, p.dstPitch, y), x, v);
            }
        }
    }
}

std::size_t directSharedBytes(int k, int kh, int channels)
{
    const auto rows = static_cast<std::size_t>(kTile + kh - 1);
    const auto window = rows * static_cast<std::size_t>(rowStride(16 * steps(k))) * static_cast<std::size_t>(channels);
    return (window + static_cast<std::size_t>(kh) * static_cast<std::size_t>(tapRowLength(k))) * sizeof(__half);
}

std::size_t separableSharedBytes(int k, int channels)
{
    const auto rows = static_cast<std::size_t>(16 * steps(k));
    const auto window = rows * static_cast<std::size_t>(rowStride(16 * steps(k))) * static_cast<std::size_t>(channels);
    const auto mid = static_cast<std::size_t>(kTile) * static_cast<std::size_t>(rowStride(16 * steps(k)));
    return (window + mid + 2 * static_cast<std::size_t>(tapRowLength(k))) * sizeof(__half);
}

/// Width classes that run the persistent direct kernel.
bool persistentClass(int k) { return k >= 32; }

LaunchShape baseShape(int width, int height)
{
    LaunchShape s;
    s.blockX = kThreads;
    s.blockY = 1;
    s.tileWidth = kTile;
    s.tileHeight = kTile;
    s.gridX = (width + kTile - 1) / kTile;
    s.gridY = (height + kTile - 1) / kTile;
    return s;
}

bool exactInHalf(double v)
{
    return static_cast<double>(__half2float(__float2half_rn(static_cast<float>(v)))) == v;
}

double sumAbs(const std::vector<double>& w)
{
    double s = 0.0;
    for (double x : w) {
        s += std::abs(x);
    }
    return s;
}

template <typename Kernel>
void allowShared(Kernel kernel, std::size_t bytes)
{
    if (bytes > 48 * 1024) {
        TESSERA_CUDA_CHECK(
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
    }
}

template <typename F>
void dispatchClass(int k, F&& f)
{
    switch (k) {
    case 8: f.template operator()<8>(); break;
    case 16: f.template operator()<16>(); break;
    case 32: f.template operator()<32>(); break;
    case 64: f.template operator()<64>(); break;
    default: throw std::invalid_argument("tensor-core kernel: no width class " + std::to_string(k));
    }
}

}  // namespace

double tensorErrorBound(const filters::FilterSpec& spec, bool separable)
{
    double maxIn = 255.0;
    if (spec.border == filters::Border::Constant) {
        maxIn = std::max(maxIn, std::abs(spec.borderValue));
    }
    const double unit = std::ldexp(1.0, -11);  // fp16 relative rounding
    const double scale = std::abs(spec.scale);
    if (separable && spec.separable) {
        // Row taps, the fp16 intermediate and column taps each add one rounding of the sum; the
        // RGBA walking kernel's row pass sums 1024 + pixel and removes 1024 * sum(taps) in fp32
        // (48 terms), which adds at most 48 * (1024 + maxIn) * 2^-24 of the row taps' weight.
        const double rows = sumAbs(spec.separable->row) * sumAbs(spec.separable->column) * scale;
        return 3.0 * maxIn * rows * unit + 48.0 * (1024.0 + maxIn) * rows * std::ldexp(1.0, -24);
    }
    const double taps = static_cast<double>(spec.kernel.weights.size());
    return maxIn * (scale * sumAbs(spec.kernel.weights) * unit + taps * std::ldexp(1.0, -25));
}

std::string tensorRefusal(const filters::FilterSpec& spec, PixelFormat in, PixelFormat out, const DeviceInfo& device,
                          bool separable, std::size_t sharedLimit)
{
    const int kw = paddedWidth(spec, in.channels);
    const int kh = spec.kernel.height;
    if (device.ccMajor < 8) {
        return "tensor-core kernels need compute capability 8.0 or later";
    }
    if (in.depth != PixelDepth::U8 || out.depth != PixelDepth::U8) {
        return "tensor-core kernels take 8-bit input and output only";
    }
    if (separable && !spec.separable) {
        return "the separable form needs a rank-1 kernel";
    }
    if (kw > kMaxSide || kh > kMaxSide || (!separable && kw * kh > kMaxTaps)) {
        return "tensor-core kernels take at most 64 taps per side (4096 in all, counting the anchor alignment)";
    }
    if (spec.border == filters::Border::Constant && !exactInHalf(spec.borderValue)) {
        return "the constant border value is not exact in fp16";
    }
    const double bound = tensorErrorBound(spec, separable);
    if (!(bound <= 0.5)) {
        return "fp16 taps could move the result by up to " + std::to_string(bound) + " (limit 0.5)";
    }
    const int k = widthClass(separable ? std::max(kw, kh) : kw);
    const std::size_t bytes = separable ? separableSharedBytes(k, in.channels) : directSharedBytes(k, kh, in.channels);
    if (bytes > sharedLimit) {
        return "the tensor-core window needs " + std::to_string(bytes) + " bytes of shared memory";
    }
    return {};
}

LaunchShape tensorDirectShape(const filters::FilterSpec& spec, int channels, int width, int height)
{
    const int kh = spec.kernel.height;
    LaunchShape s = baseShape(width, height);
    s.specialisedSize = widthClass(paddedWidth(spec, channels));
    s.sharedBytes = directSharedBytes(s.specialisedSize, kh, channels);
    return s;
}

LaunchShape tensorSeparableShape(const filters::FilterSpec& spec, int channels, int width, int height)
{
    if (hasTensorWalk(spec, channels)) {
        return tensorWalkShape(width, height);
    }
    LaunchShape s = baseShape(width, height);
    s.specialisedSize = widthClass(std::max(paddedWidth(spec, channels), spec.kernel.height));
    s.sharedBytes = separableSharedBytes(s.specialisedSize, channels);
    return s;
}

double tensorMmaCount(const filters::FilterSpec& spec, int channels, int width, int height, bool separable)
{
    const int kw = paddedWidth(spec, channels);
    const int kh = spec.kernel.height;
    const double tiles = std::ceil(width / 64.0) * std::ceil(height / 64.0);
    const int k = widthClass(separable ? std::max(kw, kh) : kw);
    int pairs = 0;
    switch (k) {
    case 8: pairs = pairsPerStep(8); break;
    case 16: pairs = pairsPerStep(16); break;
    case 32: pairs = pairsPerStep(32); break;
    default: pairs = pairsPerStep(64); break;
    }
    // Per 64 x 64 tile and channel: four warps of 16 rows; the separable form runs steps(k)
    // bands in the row pass and four in the column pass.
    const double perTile = separable ? pairs * (steps(k) + kWarps) : static_cast<double>(pairs) * kWarps * kh;
    return tiles * channels * perTile;
}

namespace {

/// Launches pick<C, K>() (the kernel for the plan's channel count and width class) on the
/// plan's grid with its shared memory.
template <typename Taps, typename Pick>
void launchTensorKernel(const Plan& plan, const ConvParams& p, const Taps& taps, void* stream, const char* what,
                        Pick&& pick)
{
    auto s = static_cast<cudaStream_t>(stream);
    const dim3 grid(static_cast<unsigned>(plan.shape.gridX), static_cast<unsigned>(plan.shape.gridY));
    dispatchChannelCount(plan.input.channels, what, [&]<int C>() {
        dispatchClass(plan.shape.specialisedSize, [&]<int K>() {
            auto kernel = pick.template operator()<C, K>();
            allowShared(kernel, plan.shape.sharedBytes);
            kernel<<<grid, kThreads, plan.shape.sharedBytes, s>>>(p, taps);
            check(cudaGetLastError(), what, __FILE__, __LINE__);
        });
    });
}

/// Blocks of `kernel` (kThreads threads, `bytes` of shared memory) resident at once on the
/// current device; the count is looked up once per kernel and device.
template <typename Kernel>
int residentBlocks(Kernel kernel, std::size_t bytes, const char* what)
{
    static std::mutex mutex;
    static std::map<std::pair<int, std::size_t>, int> known;  // (device, bytes) -> blocks
    int device = 0;
    check(cudaGetDevice(&device), what, __FILE__, __LINE__);
    const std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_pair(device, bytes);
    if (const auto it = known.find(key); it != known.end()) {
        return it->second;
    }
    int sms = 0;
    int perSm = 0;
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), what, __FILE__, __LINE__);
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kThreads, bytes), what, __FILE__, __LINE__);
    const int blocks = std::max(1, perSm) * std::max(1, sms);
    known.emplace(key, blocks);
    return blocks;
}

}  // namespace

void launchTensorDirect(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, unsigned* counter,
                        RowSpan rows, void* stream)
{
    ConvParams p = makeConvParams(plan.spec, src, dst);
    const int pad = leftPad(p.anchorX, plan.input.channels);
    const int kw = p.kw + pad;
    DirectTaps taps{};
    for (int r = 0; r < p.kh; ++r) {
        for (int j = 0; j < p.kw; ++j) {
            taps.w[r * kw + pad + j] = plan.data->taps[static_cast<std::size_t>(r * p.kw + j)];
        }
    }
    p.kw = kw;
    p.anchorX += pad;
    const char* what = "tensorDirectKernel launch";
    if (!persistentClass(plan.shape.specialisedSize)) {
        // Only the narrow classes get here; the wide ones are not instantiated in this form.
        launchTensorKernel(plan, p, taps, stream, what,
                           [&]<int C, int K>() { return tensorDirectKernel<C, (K <= 16 ? K : 16)>; });
        return;
    }
    // Persistent blocks over the tiles of the needed rows, as many as are resident at once (or
    // fewer when the tiles run out), taking tiles from a counter that starts at zero.
    const int first = std::clamp(rows.first, 0, plan.height);
    const int count = rows.count < 0 ? plan.height - first : std::min(rows.count, plan.height - first);
    const int tilesX = plan.shape.gridX;
    const int tiles = tilesX * ((count + kTile - 1) / kTile);
    if (tiles == 0) {
        return;
    }
    auto s = static_cast<cudaStream_t>(stream);
    check(cudaMemsetAsync(counter, 0, sizeof(unsigned), s), what, __FILE__, __LINE__);
    dispatchChannelCount(plan.input.channels, what, [&]<int C>() {
        auto launch = [&]<int K>() {
            auto kernel = tensorDirectPersistent<C, K>;
            allowShared(kernel, plan.shape.sharedBytes);
            const int blocks = std::min(tiles, residentBlocks(kernel, plan.shape.sharedBytes, what));
            kernel<<<blocks, kThreads, plan.shape.sharedBytes, s>>>(p, taps, counter, first, tilesX, tiles);
            check(cudaGetLastError(), what, __FILE__, __LINE__);
        };
        switch (plan.shape.specialisedSize) {
        case 32: launch.template operator()<32>(); break;
        case 64: launch.template operator()<64>(); break;
        default: throw std::invalid_argument("tensor-core kernel: no persistent width class");
        }
    });
}

void launchTensorSeparable(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, void* stream)
{
    ConvParams p = makeConvParams(plan.spec, src, dst);
    if (plan.shape.specialisedSize == kTensorWalk) {
        launchTensorWalk(p, plan.data->rowTaps, plan.data->colTaps, plan.shape, stream);
        return;
    }
    const int pad = leftPad(p.anchorX, plan.input.channels);
    SeparableTaps taps{};
    std::copy(plan.data->rowTaps.begin(), plan.data->rowTaps.end(), taps.row + pad);
    std::copy(plan.data->colTaps.begin(), plan.data->colTaps.end(), taps.col);
    p.kw += pad;
    p.anchorX += pad;
    launchTensorKernel(plan, p, taps, stream, "tensorSeparableKernel launch",
                       [&]<int C, int K>() { return tensorSeparableKernel<C, K>; });
}

}  // namespace tessera::gpu::detail
