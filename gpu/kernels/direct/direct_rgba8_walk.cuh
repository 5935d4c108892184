// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the walk that the byte-window RGBA8 kernel's forms share (direct_rgba8.cu: the
// float forms; direct_rgba8_half.cu: the fp16 form). A block of 32 x 8 threads walks down a
// 128-pixel column strip 32 rows at a time with two window buffers, the next step's rows in
// flight while the current one is computed; each thread owns 4 x 4 output pixels.

#include "gpu/kernels/arch/async_copy.cuh"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/window_loader.cuh"

#include <cstddef>
#include <cstdint>

namespace tessera::gpu::detail::rgba8_walk {

constexpr int kStripW = 128;    // output pixels per block, horizontally
constexpr int kOX = 4;          // outputs per thread, horizontally
constexpr int kOY = 4;          // and vertically
constexpr int kStep = 8 * kOY;  // output rows per step (blocks are 32 x 8 threads)
constexpr int kThreads = 256;
/// Resident blocks per SM the registers are budgeted for (3 x 3: 80 registers, three blocks).
constexpr int blocksPerSm(int k)
{
    return k == 3 ? 3 : 2;
}
constexpr int kLead = 4;                       // window starts 4 pixels left of the strip
constexpr int kRawCols = kStripW + 2 * kLead;  // 136 pixels, 34 quads
// Rows per block. Long segments leave the blocks' finishing times far apart (with about one
// block per SM slot, none is left to take over an SM that finishes early). 8192^2, 3 x 3:
// 0.23 ms at 128 rows, 0.224 at 64; an earlier build took 0.49 at 2048 and 0.29 at 512.
constexpr int kSegmentRows = 64;

template <int K>
constexpr int rawRows()
{
    return kStep + K - 1;
}

template <int K>
constexpr std::size_t sharedBytes()
{
    return 2u * static_cast<std::size_t>(rawRows<K>()) * kRawCols * sizeof(unsigned);
}

/// The 12 pixels of a window row from `from` on (16-byte aligned), in three 16-byte loads.
__device__ __forceinline__ void windowRow(const unsigned* from, unsigned (&px)[12])
{
    const uint4* row = reinterpret_cast<const uint4*>(from);
    const uint4 a = row[0];
    const uint4 b = row[1];
    const uint4 d = row[2];
    px[0] = a.x, px[1] = a.y, px[2] = a.z, px[3] = a.w;
    px[4] = b.x, px[5] = b.y, px[6] = b.z, px[7] = b.w;
    px[8] = d.x, px[9] = d.y, px[10] = d.z, px[11] = d.w;
}

/// Every product that window row r (of the thread's kOY + K - 1) feeds, in the order both forms
/// sum them: product(o, j, t, i) for output row o and column j of the thread's tile, tap t = ky K
/// + kx (ky = r - o) and the row's converted value i = j + kx.
template <int K, class Product>
__device__ __forceinline__ void forEachRowProduct(int r, Product product)
{
#pragma unroll
    for (int o = 0; o < kOY; ++o) {
        const int ky = r - o;
        if (ky >= 0 && ky < K) {
#pragma unroll
            for (int kx = 0; kx < K; ++kx) {
#pragma unroll
                for (int j = 0; j < kOX; ++j) {
                    product(o, j, ky * K + kx, j + kx);
                }
            }
        }
    }
}

/// A thread's kOY x kOX output pixels from (x, y) on, rows from yEnd on left out: pixel(o, j)
/// gives the packed pixel of row o, column j; one 16-byte store per row where the row allows it.
template <class Pixel>
__device__ __forceinline__ void storeTile(const ConvParams& p, int x, int y, int yEnd, Pixel pixel)
{
#pragma unroll
    for (int o = 0; o < kOY; ++o) {
        if (y + o >= yEnd) {
            break;
        }
        unsigned words[kOX];
#pragma unroll
        for (int j = 0; j < kOX; ++j) {
            words[j] = pixel(o, j);
        }
        unsigned* out = rowPtr<unsigned>(p.dst, p.dstPitch, y + o) + x;
        if (x + kOX <= p.width && reinterpret_cast<std::uintptr_t>(out) % 16 == 0) {
            *reinterpret_cast<uint4*>(out) = make_uint4(words[0], words[1], words[2], words[3]);
        } else {
#pragma unroll
            for (int j = 0; j < kOX; ++j) {
                if (x + j < p.width) {
                    out[j] = words[j];
                }
            }
        }
    }
}

/// Starts loading window rows oy .. oy + rawRows - 1, pixels ox .. ox + kRawCols - 1, into raw
/// (loadWindowRows; constant border: the border byte in every channel).
template <int K>
__device__ __forceinline__ void loadWindow(const ConvParams& p, unsigned* raw, int ox, int oy, bool vectors,
                                           unsigned borderPixel)
{
    const int tid = threadIdx.y * 32 + threadIdx.x;
    loadWindowRows<unsigned, kRawCols, kRawCols, rawRows<K>(), kThreads>(p, raw, ox, oy, vectors, borderPixel, tid);
}

/// The walk of one block down its segment of the strip, with two window buffers: the next step's
/// rows are in flight while step(window, y) computes output rows y .. y + kStep - 1.
template <int K, class Step>
__device__ __forceinline__ void walkSegment(const ConvParams& p, int segmentRows, unsigned borderPixel, Step step)
{
    constexpr int kRows = rawRows<K>();
    extern __shared__ uint4 rgbaShared[];
    unsigned* buffers = reinterpret_cast<unsigned*>(rgbaShared);

    const int x0 = blockIdx.x * kStripW;
    const int yBegin = blockIdx.y * segmentRows;
    const int yEnd = min(yBegin + segmentRows, p.height);
    if (yBegin >= yEnd) {
        return;
    }
    const int ox = x0 - kLead;
    const bool vectors = ((reinterpret_cast<std::uintptr_t>(p.src) | p.srcPitch) % 16) == 0;

    loadWindow<K>(p, buffers, ox, yBegin - K / 2, vectors, borderPixel);
    commitAsync();
    int current = 0;
    for (int y = yBegin; y < yEnd; y += kStep) {
        waitAsync();
        __syncthreads();
        if (y + kStep < yEnd) {
            loadWindow<K>(p, buffers + (1 - current) * kRows * kRawCols, ox, y + kStep - K / 2, vectors, borderPixel);
            commitAsync();
        }
        step(buffers + current * kRows * kRawCols, x0, y, yEnd);
        // The next turn's barrier comes before its load into the buffer just read.
        current = 1 - current;
    }
}

}  // namespace tessera::gpu::detail::rgba8_walk
