// SPDX-License-Identifier: Apache-2.0
#include "gpu/async_copy.cuh"
#include "gpu/window_loader.cuh"
#include "gpu/cuda_check.cuh"
#include "gpu/direct_rgba8.h"
#include "gpu/direct_rgba8_bound.h"
#include "gpu/kernel_common.cuh"
#include "gpu/launch_common.cuh"

#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

// Direct correlation of 8-bit RGBA images with a small centred kernel (3 x 3, 5 x 5), where the
// work per pixel is so small that instruction count, not bandwidth, decides. The window stays in
// bytes: cp.async copies it to shared memory untouched (no registers, no conversion on the way)
// and a byte becomes a float at use in two full-rate instructions (a logic op writes it under the
// exponent of 2^23, a subtraction removes 2^23) where an integer-to-float conversion runs at an
// eighth of the FMA rate. Where the kernel's weights allow, it takes one instruction: a byte
// permute writes 1 + b / 2^15 and the taps and the sums' start make up for the 1 and the scale
// (direct_rgba8_bound.h has the arithmetic and its error bound). Each thread owns 4 x 4 pixels,
// so each window row it reads (three 16-byte loads) feeds up to 4 x 4 x K x 4 FMAs whose taps
// are uniform operands. A block walks down a 128-pixel column strip 32 rows at a time with two
// window buffers: the next step's rows are in flight while the current one is computed. The
// offset starts the sums; stores round, saturate and pack four pixels into one 16-byte write.
//
// 3 x 3 kernels whose fp16 error bound allows it (direct_rgba8_bound.h: mild taps such as a box
// or a unit-sum blur) sum in fp16 instead, two channels per instruction: one byte permute writes
// two bytes as 1024 + b in fp16 and one subtraction leaves b, exactly; 18 half2 FMAs per pixel
// where the float form takes 36; and the stores round by adding 1024 (whose fp16 spacing is 1),
// clamp to 1024 .. 1279 and keep the low bytes, with no float-to-integer conversion.

namespace tessera::gpu::detail {

namespace {

constexpr int kStripW = 128;   // output pixels per block, horizontally
constexpr int kOX = 4;         // outputs per thread, horizontally
constexpr int kOY = 4;         // and vertically
constexpr int kStep = 8 * kOY; // output rows per step (blocks are 32 x 8 threads)
constexpr int kThreads = 256;
/// Resident blocks per SM the registers are budgeted for (3 x 3: 80 registers, three blocks).
constexpr int blocksPerSm(int k) { return k == 3 ? 3 : 2; }
constexpr int kLead = 4;                       // window starts 4 pixels left of the strip
constexpr int kRawCols = kStripW + 2 * kLead;  // 136 pixels, 34 quads
// Rows per block. Long segments leave the blocks' finishing times far apart (with about one
// block per SM slot, none is left to take over an SM that finishes early). 8192^2, 3 x 3:
// 0.23 ms at 128 rows, 0.224 at 64; an earlier build took 0.49 at 2048 and 0.29 at 512.
constexpr int kSegmentRows = 64;

template <int K>
struct Rgba8Taps {
    float w[K * K];
    float w256[K * K];  ///< w / 256, for channels 1 and 3 (held as 256 b)
};

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

/// Channel C of a packed RGBA8 pixel as a float, exactly, in two full-rate instructions: one
/// logic op puts the byte under the exponent of 2^23 (0x4B0000bb), a subtraction removes 2^23.
/// Channels 1 and 3 stay where they are, as 256 b, and use taps divided by 256 (exact); `high`
/// is the pixel shifted down 16 bits, shared by channels 2 and 3. The exponent word (0x4B000000)
/// comes from a register, as the logic op has room for only one immediate (the mask).
template <int C>
__device__ __forceinline__ float channel(unsigned px, unsigned high, unsigned exponentWord)
{
    constexpr unsigned kMask = C % 2 == 0 ? 0xFFu : 0xFF00u;
    const unsigned bits = ((C < 2 ? px : high) & kMask) | exponentWord;
    return __uint_as_float(bits) - 8388608.0f;
}

/// Channel C of a packed RGBA8 pixel as 1 + b / 2^15, exactly, in one byte permute: the byte goes
/// to bits 8..15 of the mantissa under the exponent of 1 (`unitWord` = 0x3F800000, whose bytes
/// fill the rest).
template <int C>
__device__ __forceinline__ float biasedChannel(unsigned px, unsigned unitWord)
{
    constexpr unsigned kSelect = 0x7604u | (static_cast<unsigned>(C) << 4);
    unsigned bits;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(bits) : "r"(px), "r"(unitWord), "n"(kSelect));
    return __uint_as_float(bits);
}

/// Bytes a, b, c, d (each in the low byte of its word) packed into one word, a lowest.
__device__ __forceinline__ unsigned packBytes(unsigned a, unsigned b, unsigned c, unsigned d)
{
    unsigned lo;
    unsigned hi;
    unsigned word;
    asm("prmt.b32 %0, %1, %2, 0x0040;" : "=r"(lo) : "r"(a), "r"(b));
    asm("prmt.b32 %0, %1, %2, 0x0040;" : "=r"(hi) : "r"(c), "r"(d));
    asm("prmt.b32 %0, %1, %2, 0x5410;" : "=r"(word) : "r"(lo), "r"(hi));
    return word;
}

__device__ __forceinline__ unsigned toByte(float v)
{
    return Saturate<std::uint8_t>::from(v);
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
/// (loadWindowRows; constant border: the border byte in every channel). Where the window lies
/// inside the image, each thread copies one column of quads every kThreads / quads rows, stepping
/// its two addresses, with no division per quad (8192^2, 3 x 3, fp16 form: 0.166 ms against
/// 0.168 with the shared loader).
template <int K>
__device__ __forceinline__ void loadWindow(const ConvParams& p, unsigned* raw, int ox, int oy, bool vectors,
                                           unsigned borderPixel)
{
    constexpr int kRows = rawRows<K>();
    constexpr int kQuads = kRawCols / 4;
    constexpr int kRowsPerPass = kThreads / kQuads;
    const int tid = threadIdx.y * 32 + threadIdx.x;
    if (vectors && ox >= 0 && oy >= 0 && ox + kRawCols <= p.width && oy + kRows <= p.height) {
        const int r0 = tid / kQuads;
        if (r0 >= kRowsPerPass) {
            return;
        }
        const int q = tid - r0 * kQuads;
        const char* from = reinterpret_cast<const char*>(rowPtr<unsigned>(p.src, p.srcPitch, oy + r0) + ox + 4 * q);
        unsigned* to = raw + r0 * kRawCols + 4 * q;
        const std::size_t pass = static_cast<std::size_t>(p.srcPitch) * kRowsPerPass;
#pragma unroll
        for (int i = 0; i < (kRows + kRowsPerPass - 1) / kRowsPerPass; ++i) {
            if (i * kRowsPerPass + r0 < kRows) {
                copyAsync16(to, from);
            }
            to += kRowsPerPass * kRawCols;
            from += pass;
        }
        return;
    }
    loadWindowRows<unsigned, kRawCols, kRawCols, kRows, kThreads>(p, raw, ox, oy, vectors, borderPixel, tid);
}

/// Adds one window row's contribution to the accumulators of channel C. BIASED: the values are
/// 1 + b / 2^15 and the taps scaled to match (one instruction per byte); otherwise b exactly.
template <int K, int C, bool BIASED>
__device__ __forceinline__ void addRow(const unsigned (&px)[12], const unsigned (&high)[12], unsigned exponentWord,
                                       const Rgba8Taps<K>& taps, int r, float (&acc)[kOY][kOX][4])
{
    constexpr int kHalf = K / 2;
    const float* w = C % 2 == 0 || BIASED ? taps.w : taps.w256;
    float f[kOX + K - 1];
#pragma unroll
    for (int i = 0; i < kOX + K - 1; ++i) {
        if constexpr (BIASED) {
            f[i] = biasedChannel<C>(px[kLead - kHalf + i], exponentWord);
        } else {
            f[i] = channel<C>(px[kLead - kHalf + i], high[kLead - kHalf + i], exponentWord);
        }
    }
#pragma unroll
    for (int o = 0; o < kOY; ++o) {
        const int ky = r - o;
        if (ky >= 0 && ky < K) {
#pragma unroll
            for (int kx = 0; kx < K; ++kx) {
#pragma unroll
                for (int j = 0; j < kOX; ++j) {
                    acc[o][j][C] = fmaf(w[ky * K + kx], f[j + kx], acc[o][j][C]);
                }
            }
        }
    }
}

template <int K, bool BIASED>
__device__ __forceinline__ void computeStep(const ConvParams& p, const unsigned* raw, const Rgba8Taps<K>& taps, int x0,
                                            int y, int yEnd, unsigned exponentWord)
{
    const int cx = threadIdx.x * kOX;
    const int ry = threadIdx.y * kOY;
    // The offset starts the sums, so the stores only round and saturate.
    float acc[kOY][kOX][4];
#pragma unroll
    for (int o = 0; o < kOY; ++o) {
#pragma unroll
        for (int j = 0; j < kOX; ++j) {
#pragma unroll
            for (int c = 0; c < 4; ++c) {
                acc[o][j][c] = p.offset;
            }
        }
    }
#pragma unroll
    for (int r = 0; r < kOY + K - 1; ++r) {
        unsigned px[12];
        windowRow(raw + (ry + r) * kRawCols + cx, px);
        unsigned high[12] = {};
        if constexpr (!BIASED) {
#pragma unroll
            for (int i = 0; i < 12; ++i) {
                high[i] = px[i] >> 16;
            }
        }
        addRow<K, 0, BIASED>(px, high, exponentWord, taps, r, acc);
        addRow<K, 1, BIASED>(px, high, exponentWord, taps, r, acc);
        addRow<K, 2, BIASED>(px, high, exponentWord, taps, r, acc);
        addRow<K, 3, BIASED>(px, high, exponentWord, taps, r, acc);
    }
    storeTile(p, x0 + cx, y + ry, yEnd, [&](int o, int j) {
        return packBytes(toByte(acc[o][j][0]), toByte(acc[o][j][1]), toByte(acc[o][j][2]), toByte(acc[o][j][3]));
    });
}

/// The fp16 pair a word holds.
__device__ __forceinline__ __half2 asHalf2(unsigned bits)
{
    __half2 h;
    memcpy(&h, &bits, sizeof h);
    return h;
}

__device__ __forceinline__ unsigned bitsOf(__half2 h)
{
    unsigned bits;
    memcpy(&bits, &h, sizeof bits);
    return bits;
}

/// Channels 0 and 2 of a pixel (kRgba8HalfEvenSelect) or 1 and 3 (kRgba8HalfOddSelect) as an
/// fp16 pair, exactly: the permute puts each byte under 0x64 (fp16 1024 + b), the subtraction of
/// `bias` (1024, 1024) removes the 1024. The bias word supplies the 0x64 bytes too.
template <unsigned SELECT>
__device__ __forceinline__ __half2 halfPair(unsigned px, unsigned biasBits, __half2 bias)
{
    unsigned bits;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(bits) : "r"(px), "r"(biasBits), "n"(SELECT));
    return __hsub2(asHalf2(bits), bias);
}

/// An fp16 pair of sums as two rounded, saturated bytes in bytes 0 and 2 of the word: adding 1024
/// rounds to an integer (the fp16 spacing from 1024 to 2048 is 1), the clamp to 1024 .. 1279
/// saturates, and the low byte of each half is the result.
__device__ __forceinline__ unsigned halfSumsToBytes(__half2 sums, __half2 bias, __half2 top)
{
    return bitsOf(__hmin2(__hmax2(__hadd2(sums, bias), bias), top));
}

/// The fp16 form's taps: each as a pair (w, w), for both channel pairs alike.
template <int K>
struct Rgba8HalfTaps {
    __half2 w[K * K];
};

/// One step of the fp16 form (3 x 3 only): as computeStep, with channels 0 and 2 and channels 1
/// and 3 of each pixel summed in fp16 pairs; the sums start at the offset (`start`, an fp16 pair).
template <int K>
__device__ __forceinline__ void computeStepHalf(const ConvParams& p, const unsigned* raw, const Rgba8HalfTaps<K>& taps,
                                                int x0, int y, int yEnd, unsigned startBits, unsigned biasBits,
                                                unsigned topBits)
{
    const __half2 start = asHalf2(startBits);
    const __half2 bias = asHalf2(biasBits);
    const __half2 top = asHalf2(topBits);
    constexpr int kHalf = K / 2;
    const int cx = threadIdx.x * kOX;
    const int ry = threadIdx.y * kOY;
    __half2 acc[kOY][kOX][2];
#pragma unroll
    for (int o = 0; o < kOY; ++o) {
#pragma unroll
        for (int j = 0; j < kOX; ++j) {
            acc[o][j][0] = start;
            acc[o][j][1] = start;
        }
    }
#pragma unroll
    for (int r = 0; r < kOY + K - 1; ++r) {
        unsigned px[12];
        windowRow(raw + (ry + r) * kRawCols + cx, px);
        __half2 lo[kOX + K - 1];
        __half2 hi[kOX + K - 1];
#pragma unroll
        for (int i = 0; i < kOX + K - 1; ++i) {
            lo[i] = halfPair<kRgba8HalfEvenSelect>(px[kLead - kHalf + i], biasBits, bias);
            hi[i] = halfPair<kRgba8HalfOddSelect>(px[kLead - kHalf + i], biasBits, bias);
        }
#pragma unroll
        for (int o = 0; o < kOY; ++o) {
            const int ky = r - o;
            if (ky >= 0 && ky < K) {
#pragma unroll
                for (int kx = 0; kx < K; ++kx) {
#pragma unroll
                    for (int j = 0; j < kOX; ++j) {
                        acc[o][j][0] = __hfma2(taps.w[ky * K + kx], lo[j + kx], acc[o][j][0]);
                        acc[o][j][1] = __hfma2(taps.w[ky * K + kx], hi[j + kx], acc[o][j][1]);
                    }
                }
            }
        }
    }
    storeTile(p, x0 + cx, y + ry, yEnd, [&](int o, int j) {
        const unsigned even = halfSumsToBytes(acc[o][j][0], bias, top);
        const unsigned odd = halfSumsToBytes(acc[o][j][1], bias, top);
        unsigned pixel;
        asm("prmt.b32 %0, %1, %2, %3;" : "=r"(pixel) : "r"(even), "r"(odd), "n"(kRgba8HalfPackSelect));
        return pixel;
    });
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

template <int K, bool BIASED>
__global__ void __launch_bounds__(kThreads, blocksPerSm(K))
    directRgba8Kernel(const ConvParams p, const __grid_constant__ Rgba8Taps<K> taps, int segmentRows,
                      unsigned borderPixel, unsigned exponentWord)
{
    walkSegment<K>(p, segmentRows, borderPixel, [&](const unsigned* raw, int x0, int y, int yEnd) {
        computeStep<K, BIASED>(p, raw, taps, x0, y, yEnd, exponentWord);
    });
}

/// The fp16 form. `start` is the offset as an fp16 pair; `bias` (1024, 1024) and `top` (1279,
/// 1279) come in as arguments so that they sit in registers, not in every instruction.
template <int K>
__global__ void __launch_bounds__(kThreads, blocksPerSm(K))
    directRgba8HalfKernel(const ConvParams p, const __grid_constant__ Rgba8HalfTaps<K> taps, int segmentRows,
                          unsigned borderPixel, unsigned start, unsigned bias, unsigned top)
{
    walkSegment<K>(p, segmentRows, borderPixel, [&](const unsigned* raw, int x0, int y, int yEnd) {
        computeStepHalf<K>(p, raw, taps, x0, y, yEnd, start, bias, top);
    });
}

/// Whether a launch of side K takes the fp16 form (3 x 3 only).
bool takesHalfSums(int k, const std::vector<float>& taps, float offset)
{
    return k == 3 && rgba8TakesHalfSums(taps, offset);
}

/// fp16 bits of v in both halves of a word.
unsigned halfPairBits(double v)
{
    const unsigned h = halfBits(roundToHalf(v));
    return h | (h << 16);
}

void launchHalf3(const Plan& plan, const ConvParams& p, cudaStream_t stream)
{
    Rgba8HalfTaps<3> taps{};
    for (int i = 0; i < 9; ++i) {
        __half2_raw raw;
        raw.x = halfBits(roundToHalf(plan.data->taps[static_cast<std::size_t>(i)]));
        raw.y = raw.x;
        taps.w[i] = __half2(raw);
    }
    auto kernel = directRgba8HalfKernel<3>;
    constexpr std::size_t shared = sharedBytes<3>();
    allowShared(kernel, shared);
    const dim3 grid(static_cast<unsigned>(plan.shape.gridX), static_cast<unsigned>(plan.shape.gridY));
    kernel<<<grid, dim3(32, 8), shared, stream>>>(p, taps, plan.shape.tileHeight, borderPixelRgba8(p.borderValue),
                                                  halfPairBits(p.offset), halfPairBits(1024.0), halfPairBits(1279.0));
    TESSERA_LAUNCH_CHECK("directRgba8HalfKernel");
}

template <int K>
void launchK(const Plan& plan, ConvParams p, cudaStream_t stream)
{
    const std::vector<float>& w = plan.data->taps;
    if (takesHalfSums(K, w, p.offset)) {
        return launchHalf3(plan, p, stream);
    }
    const bool biased = rgba8TakesBiasedBytes(w, p.offset);
    Rgba8Taps<K> taps{};
    double tapSum = 0.0;
    for (int i = 0; i < K * K; ++i) {
        const float t = w[static_cast<std::size_t>(i)];
        tapSum += t;
        taps.w[i] = biased ? t * kRgba8BiasedScale : t;  // a power of two: exact
        taps.w256[i] = t / 256.0f;
    }
    if (biased) {
        // Each value is 1 + b / 2^15 against taps scaled by 2^15: the sums start that much lower.
        p.offset = static_cast<float>(static_cast<double>(p.offset) - kRgba8BiasedScale * tapSum);
    }
    const unsigned borderPixel = borderPixelRgba8(p.borderValue);
    auto kernel = biased ? directRgba8Kernel<K, true> : directRgba8Kernel<K, false>;
    constexpr std::size_t shared = sharedBytes<K>();
    allowShared(kernel, shared);
    const dim3 grid(static_cast<unsigned>(plan.shape.gridX), static_cast<unsigned>(plan.shape.gridY));
    // The exponent word goes in as an argument: as a compile-time constant it would be folded
    // into a second logic op per channel value (one immediate per instruction).
    const unsigned exponentWord = biased ? 0x3F800000u : 0x4B000000u;
    kernel<<<grid, dim3(32, 8), shared, stream>>>(p, taps, plan.shape.tileHeight, borderPixel, exponentWord);
    TESSERA_LAUNCH_CHECK("directRgba8Kernel");
}

}  // namespace

Support smallRgba8Support(const ShapeQuery& q, const std::string& kernel, std::size_t shared3, std::size_t shared5)
{
    const int k = q.kw;
    if (q.kh != k || (k != 3 && k != 5)) {
        return Support::no(kernel + " is compiled for 3 x 3 and 5 x 5 only, not " + std::to_string(q.kw) + " x " +
                           std::to_string(q.kh));
    }
    if (q.anchorX != k / 2 || q.anchorY != k / 2) {
        return Support::no(kernel + " needs the centred anchor");
    }
    if (q.input.depth != PixelDepth::U8 || q.input.channels != 4 || q.kernelOutput.depth != PixelDepth::U8) {
        return Support::no(kernel + " takes 8-bit RGBA in and 8-bit out only");
    }
    if (!borderFitsByte(q.border, q.borderValue)) {
        return Support::no(kernel + " fills a constant border with a whole byte value only");
    }
    const std::size_t bytes = k == 3 ? shared3 : shared5;
    if (bytes > q.sharedLimit) {
        return Support::no(kernel + " needs " + std::to_string(bytes) + " bytes of shared memory, the device has " +
                           std::to_string(q.sharedLimit));
    }
    return Support::yes();
}

Support canDirectRgba8Walk(const ShapeQuery& q)
{
    return smallRgba8Support(q, "the walking RGBA8 kernel", sharedBytes<3>(), sharedBytes<5>());
}

LaunchShape directRgba8WalkShape(const ShapeQuery& q)
{
    LaunchShape s;
    s.blockX = 32;
    s.blockY = 8;
    s.tileWidth = kStripW;
    s.gridX = (q.width + kStripW - 1) / kStripW;
    // Short segments: blocks finish close together and the block scheduler keeps SMs busy.
    s.tileHeight = kSegmentRows;
    s.gridY = (q.height + s.tileHeight - 1) / s.tileHeight;
    s.sharedBytes = q.kw == 3 ? sharedBytes<3>() : sharedBytes<5>();
    s.variant = KernelVariant::DirectRgba8Walk;
    s.compiledSize = q.kw;
    return s;
}

void launchDirectRgba8(const Plan& plan, const ConvParams& params, StreamView stream)
{
    const cudaStream_t s = cudaStreamOf(stream);
    switch (plan.shape.compiledSize) {
    case 3: return launchK<3>(plan, params, s);
    case 5: return launchK<5>(plan, params, s);
    default: throw PreconditionError("no walking RGBA8 kernel of side " + std::to_string(plan.shape.compiledSize));
    }
}

}  // namespace tessera::gpu::detail
