// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/kernels/arch/mma_sync.cuh"
#include "gpu/kernels/tensor/tensor_conv.h"
#include "gpu/kernels/tensor/tensor_walk.h"
#include "gpu/plan/plan_data.h"

#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

// Separable correlation of RGBA8 images on tensor cores, one warp per 16-column strip walking
// down the image 16 rows at a time. Shared memory holds only the taps' fragments (3 KB, written
// once per block before its one barrier); the pixels go straight to registers.
//
// Row pass: 16 window rows x 16 output columns are two m16n8k16 products per 16-column chunk of
// input (A = pixels, B = the Toeplitz block of the row taps, B[k][n] = w[16 s + k - 8 t - n]);
// three chunks (48 input columns) cover up to 33 taps. A fragments come straight from global
// memory: each lane loads the pixel pairs its fragment holds (8 bytes, all four channels),
// regroups each pair by channel (two byte permutes) and makes each channel's exact half2 of
// 1024 + byte with one more; the sums start at -1024 x sum(taps) to take the 1024s back out.
// The fp32 results are rounded to fp16 and transposed in registers (movmatrix), which is
// exactly the B fragment layout the column pass needs.
// Column pass: out = A x B with A the Toeplitz block of the column taps (A[m][k] = w[16 s + k
// - m]) and B the row-pass results of three consecutive 16-row bands, kept in a ring of
// registers. A step computes the row pass of band i + 2 and the column pass of band i, so every
// input row is filtered horizontally once per segment (plus two bands at the segment's start),
// where a tile-per-block kernel recomputes the halo rows of every tile. The next band's pixels
// are requested before the column pass, so the loads overlap it.

namespace tessera::gpu::detail {

namespace {

constexpr int kWarps = 4;
constexpr int kThreads = 32 * kWarps;
constexpr int kStripW = 16 * kWarps;  // output columns per block
constexpr int kBand = 16;
constexpr int kChunks = 3;  // 48 window columns / rows
constexpr int kMaxTaps = 16 * kChunks - 15;
// Output rows per block: the first two bands of a segment are row-pass overhead, but long
// segments run slower on the H200 (8192^2, 31 taps: 0.39 ms at 128 rows, 0.36 at 256, 0.45 at
// 512, 0.60 at 1024).
constexpr int kSegmentRows = 256;

struct WalkTaps {
    float row[16 * kChunks];  ///< zero past the (padded) tap count
    float col[16 * kChunks];
};

__device__ __forceinline__ std::uint32_t half2Bits(float lo, float hi)
{
    const __half2 h = __floats2half2_rn(lo, hi);
    std::uint32_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}

__device__ __forceinline__ float tapAt(const float* w, int i)
{
    return i >= 0 && i < 16 * kChunks ? w[i] : 0.0f;
}

/// Two pixels a, b (x and x + 1) regrouped by channel: lo = [a.R, b.R, a.G, b.G], hi = [a.B,
/// b.B, a.A, b.A]. Two byte permutes per pair, shared by the four channels.
__device__ __forceinline__ uint2 byChannel(uint2 pair)
{
    return make_uint2(__byte_perm(pair.x, pair.y, 0x5140u), __byte_perm(pair.x, pair.y, 0x7362u));
}

/// Channel C of a regrouped pair as an exact half2 of 1024 + byte (0x64bb in fp16): one byte
/// permute that takes the two bytes and two exponent bytes of `exponents` (0x64646464, from a
/// register). The 1024s are not subtracted here: the row pass starts its sums at -1024 times the
/// sum of its fp16 taps instead. Two permutes per pair and one per channel: six instructions
/// for a pair's four channels, where a permute and a mask-or per channel took eight.
template <int C>
__device__ __forceinline__ std::uint32_t channelPair(uint2 grouped, unsigned exponents)
{
    constexpr unsigned kSelect = C % 2 == 0 ? 0x4140u : 0x4342u;
    return __byte_perm(C < 2 ? grouped.x : grouped.y, exponents, kSelect);
}

__device__ __forceinline__ std::uint32_t transpose8x8(std::uint32_t v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    std::uint32_t r;
    asm("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;\n" : "=r"(r) : "r"(v));
    return r;
#else
    __trap();
    return v;
#endif
}

/// One pixel pair (x, x + 1) of row y as two packed RGBA words, the border rule applied (the
/// constant border as its byte in every channel). Only windows that cross an image edge come
/// here; the hot loop's code stays small (the ring moves instead of unrolling by three).
__device__ __forceinline__ uint2 pixelPairMapped(const ConvParams& p, int x, int y, unsigned borderPixel)
{
    const int gy = mapBorder(y, p.height, p.border);
    unsigned v[2];
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        const int gx = mapBorder(x + k, p.width, p.border);
        v[k] = gy >= 0 && gx >= 0 ? rowPtr<unsigned>(p.src, p.srcPitch, gy)[gx] : borderPixel;
    }
    return make_uint2(v[0], v[1]);
}

struct Lane {
    int g;  // lane / 4: fragment row (A, C) or column (B)
    int q;  // lane % 4
};

/// The 12 pixel pairs a lane's A fragments need for one band: rows g, g + 8; columns 16 s + 2q
/// and 16 s + 2q + 8 of the warp's window (origin xw, first row yw).
struct BandPixels {
    uint2 v[kChunks][2][2];  // [chunk][row half][column half]
};

__device__ __forceinline__ void loadBand(const ConvParams& p, BandPixels& px, Lane l, int xw, int yw, bool vectors,
                                         unsigned borderPixel)
{
    // Warp-uniform: the whole 16 x 48 window inside the image takes plain 8-byte loads.
    if (vectors && xw >= 0 && yw >= 0 && xw + 16 * kChunks <= p.width && yw + kBand <= p.height) {
        const unsigned* base = rowPtr<unsigned>(p.src, p.srcPitch, yw + l.g) + xw + 2 * l.q;
        const std::size_t eight = 8 * p.srcPitch;
#pragma unroll
        for (int s = 0; s < kChunks; ++s) {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const auto* row =
                        reinterpret_cast<const unsigned*>(reinterpret_cast<const char*>(base) + h * eight);
                    px.v[s][h][e] = *reinterpret_cast<const uint2*>(row + 16 * s + 8 * e);
                }
            }
        }
        return;
    }
#pragma unroll
    for (int s = 0; s < kChunks; ++s) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                px.v[s][h][e] = pixelPairMapped(p, xw + 16 * s + 2 * l.q + 8 * e, yw + l.g + 8 * h, borderPixel);
            }
        }
    }
}

/// Ring entry: the row-pass results of one band as column-pass B fragments, [group][channel][2].
struct BandFragments {
    std::uint32_t b[2][4][2];
};

/// Four words at a shared-memory address; volatile so that the compiler neither hoists nor merges
/// the read: its result lives only as long as the product that uses it.
__device__ __forceinline__ uint4 sharedWords(const std::uint32_t* at)
{
    uint4 v;
    const auto address = static_cast<unsigned>(__cvta_generic_to_shared(at));
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "r"(address));
    return v;
}

/// The Toeplitz fragments, built once per block in shared memory ([kChunks][32 lanes][4] row-pass
/// B, then the same of column-pass A) and read where each product needs them. Held in registers
/// instead they took 24 of each lane's 148, and three blocks fitted an SM; read from shared
/// memory the kernel needs at most 128 and four fit (8192^2, Gaussian 31, the two builds side by
/// side on one H200: 0.376 -> 0.335 ms).
struct TapFragments {
    const std::uint32_t* shared;
    int lane;

    __device__ __forceinline__ void rowB(int s, std::uint32_t (&b)[2][2]) const
    {
        const uint4 v = sharedWords(shared + (s * 32 + lane) * 4);
        b[0][0] = v.x;
        b[0][1] = v.y;
        b[1][0] = v.z;
        b[1][1] = v.w;
    }
    __device__ __forceinline__ void colA(int s, std::uint32_t (&a)[4]) const
    {
        const uint4 v = sharedWords(shared + ((kChunks + s) * 32 + lane) * 4);
        a[0] = v.x;
        a[1] = v.y;
        a[2] = v.z;
        a[3] = v.w;
    }
};

constexpr int kTapWords = 2 * kChunks * 32 * 4;

template <int C>
__device__ __forceinline__ void rowPassChannel(const BandPixels& grouped, const TapFragments& taps, float bias,
                                               unsigned exponentBytes, BandFragments& out)
{
    float d[2][4] = {{bias, bias, bias, bias}, {bias, bias, bias, bias}};
#pragma unroll
    for (int s = 0; s < kChunks; ++s) {
        std::uint32_t bRow[2][2];
        taps.rowB(s, bRow);
        const std::uint32_t a[4] = {
            channelPair<C>(grouped.v[s][0][0], exponentBytes), channelPair<C>(grouped.v[s][1][0], exponentBytes),
            channelPair<C>(grouped.v[s][0][1], exponentBytes), channelPair<C>(grouped.v[s][1][1], exponentBytes)};
        mma(d[0], a, bRow[0]);
        mma(d[1], a, bRow[1]);
    }
#pragma unroll
    for (int t = 0; t < 2; ++t) {
        out.b[t][C][0] = transpose8x8(half2Bits(d[t][0], d[t][1]));
        out.b[t][C][1] = transpose8x8(half2Bits(d[t][2], d[t][3]));
    }
}

/// Row pass of one band: pixels -> B fragments of the column pass.
__device__ __forceinline__ void rowPass(const BandPixels& px, const TapFragments& taps, float bias,
                                        unsigned exponentBytes, BandFragments& out)
{
    BandPixels grouped;
#pragma unroll
    for (int s = 0; s < kChunks; ++s) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                grouped.v[s][h][e] = byChannel(px.v[s][h][e]);
            }
        }
    }
    rowPassChannel<0>(grouped, taps, bias, exponentBytes, out);
    rowPassChannel<1>(grouped, taps, bias, exponentBytes, out);
    rowPassChannel<2>(grouped, taps, bias, exponentBytes, out);
    rowPassChannel<3>(grouped, taps, bias, exponentBytes, out);
}

/// Column pass of one output band from three consecutive bands; stores rows y0 + g, y0 + g + 8.
__device__ __forceinline__ void columnPass(const ConvParams& p, const BandFragments& b0, const BandFragments& b1,
                                           const BandFragments& b2, const TapFragments& taps, Lane l, int x, int y0,
                                           int yEnd)
{
    // Each group's 8 columns are stored as soon as they are done: their words hold no registers
    // while the other group's products run.
#pragma unroll
    for (int t = 0; t < 2; ++t) {
        float acc[4][4];
#pragma unroll
        for (int c = 0; c < 4; ++c) {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                acc[c][e] = p.offset;
            }
#pragma unroll
            for (int s = 0; s < kChunks; ++s) {
                const BandFragments& band = s == 0 ? b0 : s == 1 ? b1 : b2;
                std::uint32_t aCol[4];
                taps.colA(s, aCol);
                mma(acc[c], aCol, band.b[t][c]);
            }
        }
        // acc[c][2h + j]: row g + 8h, column 8t + 2q + j.
        const int xx = x + 8 * t + 2 * l.q;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            unsigned words[2];
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                const unsigned r = Saturate<std::uint8_t>::from(acc[0][2 * h + j]);
                const unsigned g = Saturate<std::uint8_t>::from(acc[1][2 * h + j]);
                const unsigned b = Saturate<std::uint8_t>::from(acc[2][2 * h + j]);
                const unsigned a = Saturate<std::uint8_t>::from(acc[3][2 * h + j]);
                words[j] = __byte_perm(__byte_perm(r, g, 0x0040), __byte_perm(b, a, 0x0040), 0x5410);
            }
            const int y = y0 + l.g + 8 * h;
            if (y >= yEnd) {
                continue;
            }
            unsigned* at = rowPtr<unsigned>(p.dst, p.dstPitch, y) + xx;
            if (xx + 2 <= p.width && reinterpret_cast<std::uintptr_t>(at) % 8 == 0) {
                *reinterpret_cast<uint2*>(at) = make_uint2(words[0], words[1]);
            } else {
                if (xx < p.width) {
                    at[0] = words[0];
                }
                if (xx + 1 < p.width) {
                    at[1] = words[1];
                }
            }
        }
    }
}

/// p.anchorX is even (the row taps were padded on the left to make it so); bias is -1024 times
/// the sum of the fp16 row taps (see channelPair).
__global__ void __launch_bounds__(kThreads, 4)
    tensorWalkKernel(const ConvParams p, const __grid_constant__ WalkTaps taps, int segmentRows, unsigned borderPixel,
                     unsigned exponentBytes, float bias)
{
    __shared__ alignas(16) std::uint32_t sharedTaps[kTapWords];
    const int warp = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    const Lane l{lane >> 2, lane & 3};
    const int x = blockIdx.x * kStripW + 16 * warp;  // the warp's first output column
    const int yBegin = blockIdx.y * segmentRows;
    const int yEnd = min(yBegin + segmentRows, p.height);
    if (yBegin >= yEnd) {
        return;  // the whole block: every warp that stays reaches the barrier below
    }

    // Toeplitz fragments, built once by the first warp: row pass B[s][t], column pass A[s].
    if (warp == 0) {
#pragma unroll
        for (int s = 0; s < kChunks; ++s) {
            std::uint32_t* b = sharedTaps + (s * 32 + lane) * 4;
#pragma unroll
            for (int t = 0; t < 2; ++t) {
                const int d = 16 * s - 8 * t - l.g + 2 * l.q;
                b[2 * t] = half2Bits(tapAt(taps.row, d), tapAt(taps.row, d + 1));
                b[2 * t + 1] = half2Bits(tapAt(taps.row, d + 8), tapAt(taps.row, d + 9));
            }
            std::uint32_t* a = sharedTaps + ((kChunks + s) * 32 + lane) * 4;
            const int d = 16 * s + 2 * l.q - l.g;
            a[0] = half2Bits(tapAt(taps.col, d), tapAt(taps.col, d + 1));
            a[1] = half2Bits(tapAt(taps.col, d - 8), tapAt(taps.col, d - 7));
            a[2] = half2Bits(tapAt(taps.col, d + 8), tapAt(taps.col, d + 9));
            a[3] = half2Bits(tapAt(taps.col, d), tapAt(taps.col, d + 1));
        }
    }
    __syncthreads();
    if (x >= p.width) {
        return;
    }
    const TapFragments source{sharedTaps, lane};
    const bool vectors = ((reinterpret_cast<std::uintptr_t>(p.src) | p.srcPitch) % 8) == 0;
    const int xw = x - p.anchorX;
    const int yw = yBegin - p.anchorY;  // window row of band 0
    const int bands = (yEnd - yBegin + kBand - 1) / kBand;

    BandPixels px;
    BandFragments ring[3];
    loadBand(p, px, l, xw, yw, vectors, borderPixel);
    rowPass(px, source, bias, exponentBytes, ring[0]);
    loadBand(p, px, l, xw, yw + kBand, vectors, borderPixel);
    rowPass(px, source, bias, exponentBytes, ring[1]);
    loadBand(p, px, l, xw, yw + 2 * kBand, vectors, borderPixel);
    // Step i: row pass of band i + 2 (its pixels already loaded), request band i + 3, column
    // pass of output band i, then the ring moves on by one (32 register moves; unrolling the
    // loop by three instead triples the code, and instruction-cache misses cost more).
    for (int i = 0; i < bands; ++i) {
        rowPass(px, source, bias, exponentBytes, ring[2]);
        loadBand(p, px, l, xw, yw + (i + 3) * kBand, vectors, borderPixel);
        columnPass(p, ring[0], ring[1], ring[2], source, l, x, yBegin + i * kBand, yEnd);
        ring[0] = ring[1];
        ring[1] = ring[2];
    }
}

int padFor(int anchorX)
{
    return anchorX % 2;
}

}  // namespace

bool hasTensorWalk(const filters::FilterSpec& spec, int channels)
{
    if (channels != 4 || !spec.separable) {
        return false;
    }
    const int kw = spec.kernel.width + padFor(spec.effectiveAnchor().x);
    if (kw > kMaxTaps || spec.kernel.height > kMaxTaps) {
        return false;
    }
    return borderFitsByte(spec.border, spec.borderValue);
}

LaunchShape tensorWalkShape(int width, int height)
{
    LaunchShape s;
    s.blockX = kThreads;
    s.blockY = 1;
    s.tileWidth = kStripW;
    s.tileHeight = kSegmentRows;
    s.gridX = (width + kStripW - 1) / kStripW;
    s.gridY = (height + s.tileHeight - 1) / s.tileHeight;
    s.sharedBytes = kTapWords * sizeof(std::uint32_t);  // static: the taps' fragments
    s.variant = KernelVariant::SeparableTensorWalk;
    return s;
}

void launchTensorWalk(const ConvParams& params, const std::vector<float>& rowTaps, const std::vector<float>& colTaps,
                      const LaunchShape& shape, StreamView stream)
{
    ConvParams p = params;
    const int pad = padFor(p.anchorX);
    WalkTaps taps{};
    if (rowTaps.size() + static_cast<std::size_t>(pad) > static_cast<std::size_t>(kMaxTaps) ||
        colTaps.size() > static_cast<std::size_t>(kMaxTaps)) {
        throw PreconditionError("walking tensor-core kernel: more than 33 taps per side");
    }
    std::copy(rowTaps.begin(), rowTaps.end(), taps.row + pad);
    std::copy(colTaps.begin(), colTaps.end(), taps.col);
    p.anchorX += pad;
    p.kw += pad;
    // Every output of the row pass meets every tap once, so its sum carries 1024 * sum(fp16 taps).
    float tapSum = 0.0f;
    for (const float t : taps.row) {
        tapSum += __half2float(__float2half_rn(t));
    }
    const dim3 grid(static_cast<unsigned>(shape.gridX), static_cast<unsigned>(shape.gridY));
    tensorWalkKernel<<<grid, kThreads, 0, cudaStreamOf(stream)>>>(
        p, taps, shape.tileHeight, borderPixelRgba8(p.borderValue), 0x64646464u, -1024.0f * tapSum);
    TESSERA_LAUNCH_CHECK("tensorWalkKernel");
}

Support canSeparableTensorWalk(const ShapeQuery& q)
{
    if (Support s = tensorSupport(q, true); !s) {
        return s;
    }
    if (!hasTensorWalk(*q.spec, q.input.channels)) {
        return Support::no("the walking tensor-core kernel takes RGBA8 with at most 33 taps per side (row taps "
                           "counted after aligning the anchor) and a constant border only of a whole byte value");
    }
    return Support::yes();
}

LaunchShape separableTensorWalkShape(const ShapeQuery& q)
{
    return tensorWalkShape(q.width, q.height);
}

void runSeparableTensorWalk(const LaunchArgs& a)
{
    const Plan& plan = a.plan;
    launchTensorWalk(makeConvParams(plan.spec, a.src, a.dst), plan.data->rowTaps, plan.data->colTaps, plan.shape,
                     a.stream);
}

}  // namespace tessera::gpu::detail
