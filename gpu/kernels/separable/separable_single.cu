// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/plan/plan_data.h"
#include "gpu/kernels/separable/separable_single.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

// Fused separable correlation for one-channel images, tuned for long taps. A block owns 128 x 64
// outputs. Its window (64 + kh' rows of 128 + kw' values, taps padded with zeros to whole groups
// of 8 and the row taps shifted so the window starts on a 4-pixel boundary) is loaded with
// vector loads. The row pass gives each thread 8 adjacent outputs of a window row: a register
// window slides over the row 8 taps at a time, so 16 shared-memory values feed 64 FMAs. Its
// results replace the window in place (all rows are read before any is written), and the
// column pass does the same down 8 rows of one column.

namespace tessera::gpu::detail {

namespace {

constexpr int kTileW = 128;
constexpr int kTileH = 64;
constexpr int kThreads = 256;
constexpr int kGroup = 8;     // outputs per work item, taps per step
constexpr int kMaxItems = 8;  // row-pass items per thread (window rows <= 128)
constexpr int kMaxSide = 64;

constexpr int roundUp(int v, int m)
{
    return (v + m - 1) / m * m;
}

/// Row stride in floats: a multiple of 4 that is 4 more than a multiple of 32, so that the
/// 16-byte accesses of lanes on consecutive rows fall in distinct banks.
constexpr int strideFor(int cols)
{
    return roundUp(cols - 4, 32) + 4;
}

int leftPad(int anchorX)
{
    return (4 - anchorX % 4) % 4;
}

struct Geometry {
    int kwp = 0;  ///< padded row-tap count (shift + taps, rounded to 8)
    int khp = 0;  ///< padded column-tap count
    int rows = 0;
    int cols = 0;
    int stride = 0;
};

Geometry geometry(int kw, int kh, int anchorX)
{
    Geometry g;
    g.kwp = roundUp(kw + leftPad(anchorX), kGroup);
    g.khp = roundUp(kh, kGroup);
    g.rows = kTileH + g.khp;
    g.cols = kTileW + g.kwp;
    g.stride = strideFor(g.cols);
    return g;
}

struct Taps {
    float row[kMaxSide + kGroup];
    float col[kMaxSide + kGroup];
};

template <typename T>
struct Vec4;
template <>
struct Vec4<float> {
    using type = float4;
};
template <>
struct Vec4<std::uint16_t> {
    using type = ushort4;
};
template <>
struct Vec4<std::uint8_t> {
    using type = uchar4;
};

/// Loads rows x cols pixels at (ox, oy) as floats, s[r * stride + x]; whole-inside windows of
/// aligned rows go four pixels per load.
template <typename Tin>
__device__ __forceinline__ void loadWindow(const ConvParams& p, float* s, int ox, int oy, int rows, int cols,
                                           int stride)
{
    using V = typename Vec4<Tin>::type;
    const bool inside = ox >= 0 && oy >= 0 && ox + cols <= p.width && oy + rows <= p.height;
    const bool aligned =
        ((reinterpret_cast<std::uintptr_t>(p.src) | p.srcPitch | static_cast<std::uintptr_t>(ox) * sizeof(Tin)) %
         sizeof(V)) == 0;
    if (inside && aligned) {
        const int quads = cols / 4;
        const int n = rows * quads;
        constexpr int kUnroll = 4;
        for (int first = threadIdx.x; first < n; first += kUnroll * kThreads) {
            V v[kUnroll];
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) {
                const int i = first + u * kThreads;
                if (i < n) {
                    const int r = i / quads;
                    const int q = i - r * quads;
                    v[u] = reinterpret_cast<const V*>(rowPtr<Tin>(p.src, p.srcPitch, oy + r) + ox)[q];
                }
            }
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) {
                const int i = first + u * kThreads;
                if (i < n) {
                    const int r = i / quads;
                    const int q = i - r * quads;
                    *reinterpret_cast<float4*>(s + r * stride + 4 * q) =
                        make_float4(static_cast<float>(v[u].x), static_cast<float>(v[u].y), static_cast<float>(v[u].z),
                                    static_cast<float>(v[u].w));
                }
            }
        }
        return;
    }
    const int n = rows * cols;
    for (int i = threadIdx.x; i < n; i += kThreads) {
        const int r = i / cols;
        const int x = i - r * cols;
        float v[1];
        fetchPixel<Tin, 1>(p, ox + x, oy + r, false, v);
        s[r * stride + x] = v[0];
    }
}

/// Eight consecutive floats (taps or window values) from shared memory in two 16-byte loads.
__device__ __forceinline__ void loadEight(const float* from, float (&t)[kGroup])
{
    const float4 a = *reinterpret_cast<const float4*>(from);
    const float4 b = *reinterpret_cast<const float4*>(from + 4);
    t[0] = a.x;
    t[1] = a.y;
    t[2] = a.z;
    t[3] = a.w;
    t[4] = b.x;
    t[5] = b.y;
    t[6] = b.z;
    t[7] = b.w;
}

/// acc[j] += taps[k] * v[(first + j + k) % 16] for one block of 8 taps: v is a ring of 16 window
/// values whose block starts at `first` (0 or 8), so the window never moves between registers.
template <int FIRST, typename V, typename Fma>
__device__ __forceinline__ void tapBlock(const float (&t)[kGroup], const V (&v)[2 * kGroup], Fma&& fma)
{
#pragma unroll
    for (int k = 0; k < kGroup; ++k) {
#pragma unroll
        for (int j = 0; j < kGroup; ++j) {
            fma(j, t[k], v[(FIRST + j + k) % (2 * kGroup)]);
        }
    }
}

/// Slides a 16-value ring over count taps (a multiple of 8), 8 at a time: load(at, half) fills
/// ring half `half` with the values at offset `at`; two blocks per loop turn, the halves taking
/// turns as the front, so no value is copied.
template <typename V, typename Load, typename Fma>
__device__ __forceinline__ void slide(const float* taps, int count, V (&v)[2 * kGroup], Load&& load, Fma&& fma)
{
    load(0, 0);
    for (int base = 0; base < count; base += 2 * kGroup) {
        float t[kGroup];
        load(base + kGroup, 1);
        loadEight(taps + base, t);
        tapBlock<0>(t, v, fma);
        if (base + kGroup >= count) {
            break;
        }
        load(base + 2 * kGroup, 0);
        loadEight(taps + base + kGroup, t);
        tapBlock<kGroup>(t, v, fma);
    }
}

/// The row pass for 8 adjacent outputs: acc[j] += sum over t < count of taps[t] * values[j + t].
__device__ __forceinline__ void slideRow(const float* values, const float* taps, int count, float (&acc)[kGroup])
{
    float v[2 * kGroup];
    slide(
        taps, count, v,
        [&](int at, int half) {
            float part[kGroup];
            loadEight(values + at, part);
#pragma unroll
            for (int k = 0; k < kGroup; ++k) {
                v[half * kGroup + k] = part[k];
            }
        },
        [&](int j, float t, float x) { acc[j] = fmaf(t, x, acc[j]); });
}

/// The column pass for four adjacent columns at once: acc[j] (rows j of the group, 4 columns)
/// += sum over t of taps[t] * rows[(j + t) * stride]; 16-byte loads feed 32 FMAs each.
__device__ __forceinline__ void slideColumns(const float* values, int stride, const float* taps, int count,
                                             float4 (&acc)[kGroup])
{
    float4 v[2 * kGroup];
    slide(
        taps, count, v,
        [&](int at, int half) {
#pragma unroll
            for (int k = 0; k < kGroup; ++k) {
                v[half * kGroup + k] = *reinterpret_cast<const float4*>(values + (at + k) * stride);
            }
        },
        [&](int j, float t, const float4& x) {
            acc[j].x = fmaf(t, x.x, acc[j].x);
            acc[j].y = fmaf(t, x.y, acc[j].y);
            acc[j].z = fmaf(t, x.z, acc[j].z);
            acc[j].w = fmaf(t, x.w, acc[j].w);
        });
}

template <typename Tin, typename Tout>
__global__ void __launch_bounds__(kThreads, 2)
    separableSingleKernel(const ConvParams p, const __grid_constant__ Taps taps, int kwp, int khp, int stride,
                          const __grid_constant__ DirectTaps direct)
{
    extern __shared__ float4 singleShared[];
    float* win = reinterpret_cast<float*>(singleShared);
    const int rows = kTileH + khp;
    const int cols = kTileW + kwp;
    float* rowTaps = win + rows * stride;
    float* colTaps = rowTaps + kMaxSide + kGroup;
    const int x0 = blockIdx.x * kTileW;
    const int y0 = blockIdx.y * kTileH;
    loadWindow<Tin>(p, win, x0 - p.anchorX, y0 - p.anchorY, rows, cols, stride);
    for (int i = threadIdx.x; i < kMaxSide + kGroup; i += kThreads) {
        rowTaps[i] = i < kwp ? taps.row[i] : 0.0f;
        colTaps[i] = i < khp ? taps.col[i] : 0.0f;
    }
    __syncthreads();

    // Row pass: item i is window row i % rows, output columns 8 (i / rows) .. + 7; lanes take
    // consecutive rows. Results stay in registers until every thread has read its rows.
    constexpr int kColumnGroups = kTileW / kGroup;
    const int items = rows * kColumnGroups;
    float h[kMaxItems][kGroup];
#pragma unroll
    for (int it = 0; it < kMaxItems; ++it) {
        const int i = threadIdx.x + it * kThreads;
#pragma unroll
        for (int j = 0; j < kGroup; ++j) {
            h[it][j] = 0.0f;
        }
        if (i < items) {
            const int r = i % rows;
            const int g = i / rows;
            slideRow(win + r * stride + g * kGroup, rowTaps, kwp, h[it]);
        }
    }
    __syncthreads();
#pragma unroll
    for (int it = 0; it < kMaxItems; ++it) {
        const int i = threadIdx.x + it * kThreads;
        if (i < items) {
            const int r = i % rows;
            const int g = i / rows;
            float* out = win + r * stride + g * kGroup;
            *reinterpret_cast<float4*>(out) = make_float4(h[it][0], h[it][1], h[it][2], h[it][3]);
            *reinterpret_cast<float4*>(out + 4) = make_float4(h[it][4], h[it][5], h[it][6], h[it][7]);
        }
    }
    __syncthreads();

    // Column pass: thread t takes output columns 4 (t % 32) .. + 3 and rows 8 (t / 32) .. + 7.
    static_assert(kTileW / 4 * (kTileH / kGroup) == kThreads, "one column item per thread");
    const int quad = threadIdx.x % (kTileW / 4);
    const int g = threadIdx.x / (kTileW / 4);
    float4 acc[kGroup];
#pragma unroll
    for (int j = 0; j < kGroup; ++j) {
        acc[j] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
    slideColumns(win + g * kGroup * stride + 4 * quad, stride, colTaps, khp, acc);
    const int x = x0 + 4 * quad;
#pragma unroll
    for (int j = 0; j < kGroup; ++j) {
        const int y = y0 + g * kGroup + j;
        if (y < p.height) {
            if (!isfinite((acc[j].x + acc[j].y) + (acc[j].z + acc[j].w))) {
                // The float rule: the zero taps that pad the passes multiply pixels outside the window.
                for (int k = 0; k < 4 && x + k < p.width; ++k) {
                    storeDirectPixel<Tout>(direct, p.dst, p.dstPitch, x + k, y);
                }
                continue;
            }
            const float v[4][1] = {{acc[j].x}, {acc[j].y}, {acc[j].z}, {acc[j].w}};
            storeStrip<Tout, 1, 4>(rowPtr<Tout>(p.dst, p.dstPitch, y), x, p.width, p.offset, v);
        }
    }
}

/// Shared memory of the kernel: the window and both tap rows.
std::size_t singleSharedBytes(int kw, int kh, int anchorX)
{
    const Geometry g = geometry(kw, kh, anchorX);
    return (static_cast<std::size_t>(g.rows) * static_cast<std::size_t>(g.stride) + 2 * (kMaxSide + kGroup)) *
           sizeof(float);
}

}  // namespace

Support canSeparableSingle(const ShapeQuery& q)
{
    if (Support spec = separableSpec(q); !spec) {
        return spec;
    }
    if (q.input.channels != 1) {
        return Support::no("the one-channel separable kernel takes one channel only");
    }
    if (q.kw < 2 || q.kh < 2 || q.kw + 3 > kMaxSide || q.kh > kMaxSide) {
        return Support::no("the one-channel separable kernel takes 2 to " + std::to_string(kMaxSide - 3) +
                           " row taps and 2 to " + std::to_string(kMaxSide) + " column taps");
    }
    const std::size_t bytes = singleSharedBytes(q.kw, q.kh, q.anchorX);
    if (bytes > q.sharedLimit) {
        return Support::no("the one-channel separable kernel needs " + std::to_string(bytes) +
                           " bytes of shared memory, the device has " + std::to_string(q.sharedLimit));
    }
    return Support::yes();
}

LaunchShape separableSingleShape(const ShapeQuery& q)
{
    LaunchShape s;
    s.blockX = kThreads;
    s.blockY = 1;
    s.tileWidth = kTileW;
    s.tileHeight = kTileH;
    s.gridX = (q.width + kTileW - 1) / kTileW;
    s.gridY = (q.height + kTileH - 1) / kTileH;
    s.sharedBytes = singleSharedBytes(q.kw, q.kh, q.anchorX);
    s.variant = KernelVariant::SeparableSingle;
    return s;
}

void launchSeparableSingle(const Plan& plan, const ConvParams& params, const DirectTaps& direct, StreamView stream)
{
    ConvParams p = params;
    const int pad = leftPad(p.anchorX);
    const Geometry g = geometry(p.kw, p.kh, p.anchorX);
    Taps taps{};
    for (std::size_t i = 0; i < plan.data->rowTaps.size(); ++i) {
        taps.row[static_cast<std::size_t>(pad) + i] = plan.data->rowTaps[i];
    }
    for (std::size_t i = 0; i < plan.data->colTaps.size(); ++i) {
        taps.col[i] = plan.data->colTaps[i];
    }
    p.anchorX += pad;
    p.kw = g.kwp;
    const cudaStream_t s = cudaStreamOf(stream);
    const dim3 grid(static_cast<unsigned>(plan.shape.gridX), static_cast<unsigned>(plan.shape.gridY));
    const std::size_t shared = plan.shape.sharedBytes;
    dispatchDepths(plan.input.depth, plan.data->kernelOutput.depth, "separable kernel",
                   [&]<typename Tin, typename Tout>() {
                       auto kernel = separableSingleKernel<Tin, Tout>;
                       allowShared(kernel, shared);
                       kernel<<<grid, kThreads, shared, s>>>(p, taps, g.kwp, g.khp, g.stride, direct);
                       TESSERA_LAUNCH_CHECK("separableSingleKernel");
                   });
}

void runSeparableSingle(const LaunchArgs& a)
{
    launchSeparableSingle(a.plan, makeConvParams(a.plan.spec, a.src, a.dst),
                          makeDirectTaps(a.plan.spec, a.src, uploadedDirectTaps(a.plan)), a.stream);
}

}  // namespace tessera::gpu::detail
