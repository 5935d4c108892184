// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: device helpers shared by the convolution kernels.

#include <cuda_runtime.h>

#include <cstdint>

namespace tessera::gpu::detail {

/// Border codes as passed to kernels (same order as filters::Border).
enum BorderCode : int { kReflect101 = 0, kReflect = 1, kReplicate = 2, kConstant = 3, kWrap = 4 };

/// Maps a coordinate outside [0, len) into it as OpenCV's borderInterpolate does, also when
/// the reach exceeds the image (reflections repeat). Returns -1 for the constant border.
__device__ __forceinline__ int mapBorder(int p, int len, int border)
{
    if (static_cast<unsigned>(p) < static_cast<unsigned>(len)) {
        return p;
    }
    switch (border) {
    case kReplicate: return p < 0 ? 0 : len - 1;
    case kReflect:
    case kReflect101: {
        if (len == 1) {
            return 0;
        }
        const int delta = border == kReflect101 ? 1 : 0;
        do {
            p = p < 0 ? -p - 1 + delta : 2 * len - 1 - p - delta;
        } while (static_cast<unsigned>(p) >= static_cast<unsigned>(len));
        return p;
    }
    case kWrap: {
        p %= len;
        return p < 0 ? p + len : p;
    }
    default: return -1;
    }
}

template <typename T>
struct Saturate;

template <>
struct Saturate<std::uint8_t> {
    /// Round half to even (as cvRound), saturate; NaN gives 0. One instruction.
    __device__ __forceinline__ static std::uint8_t from(float v)
    {
        unsigned short r;
        asm("cvt.rni.sat.u8.f32 %0, %1;" : "=h"(r) : "f"(v));
        return static_cast<std::uint8_t>(r);
    }
};

template <>
struct Saturate<std::uint16_t> {
    __device__ __forceinline__ static std::uint16_t from(float v)
    {
        unsigned short r;
        asm("cvt.rni.sat.u16.f32 %0, %1;" : "=h"(r) : "f"(v));
        return r;
    }
};

template <>
struct Saturate<float> {
    __device__ __forceinline__ static float from(float v) { return v; }
};

/// Reads the C channels of pixel x of `row` as floats (vector loads where alignment allows).
template <typename T, int C>
__device__ __forceinline__ void loadPixel(const T* row, int x, float (&v)[C])
{
    if constexpr (C == 4 && sizeof(T) == 1) {
        const uchar4 p = reinterpret_cast<const uchar4*>(row)[x];
        v[0] = p.x;
        v[1] = p.y;
        v[2] = p.z;
        v[3] = p.w;
    } else if constexpr (C == 4 && sizeof(T) == 2) {
        const ushort4 p = reinterpret_cast<const ushort4*>(row)[x];
        v[0] = p.x;
        v[1] = p.y;
        v[2] = p.z;
        v[3] = p.w;
    } else if constexpr (C == 4 && sizeof(T) == 4) {
        const float4 p = reinterpret_cast<const float4*>(row)[x];
        v[0] = p.x;
        v[1] = p.y;
        v[2] = p.z;
        v[3] = p.w;
    } else {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            v[c] = static_cast<float>(row[x * C + c]);
        }
    }
}

/// Writes C channels of pixel x of `row`, rounding and saturating into T.
template <typename T, int C>
__device__ __forceinline__ void storePixel(T* row, int x, const float (&v)[C])
{
    if constexpr (C == 4 && sizeof(T) == 1) {
        reinterpret_cast<uchar4*>(row)[x] = make_uchar4(Saturate<T>::from(v[0]), Saturate<T>::from(v[1]),
                                                        Saturate<T>::from(v[2]), Saturate<T>::from(v[3]));
    } else if constexpr (C == 4 && sizeof(T) == 2) {
        reinterpret_cast<ushort4*>(row)[x] = make_ushort4(Saturate<T>::from(v[0]), Saturate<T>::from(v[1]),
                                                          Saturate<T>::from(v[2]), Saturate<T>::from(v[3]));
    } else if constexpr (C == 4 && sizeof(T) == 4) {
        reinterpret_cast<float4*>(row)[x] = make_float4(v[0], v[1], v[2], v[3]);
    } else {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            row[x * C + c] = Saturate<T>::from(v[c]);
        }
    }
}

template <typename T>
__device__ __forceinline__ const T* rowPtr(const void* base, std::size_t pitch, int y)
{
    return reinterpret_cast<const T*>(static_cast<const char*>(base) + static_cast<std::size_t>(y) * pitch);
}

template <typename T>
__device__ __forceinline__ T* rowPtr(void* base, std::size_t pitch, int y)
{
    return reinterpret_cast<T*>(static_cast<char*>(base) + static_cast<std::size_t>(y) * pitch);
}

/// Geometry and border of one launch; taps travel separately.
struct ConvParams {
    const void* src = nullptr;
    std::size_t srcPitch = 0;
    void* dst = nullptr;
    std::size_t dstPitch = 0;
    int width = 0;
    int height = 0;
    int kw = 1;
    int kh = 1;
    int anchorX = 0;
    int anchorY = 0;
    int border = kReflect101;
    float borderValue = 0.0f;
    float offset = 0.0f;
    const float* globalTaps = nullptr;  ///< set when the taps do not fit in the launch parameters
    float* scratch = nullptr;           ///< workspace for multi-pass methods
};

/// Writes R outputs of column x starting at row y0 (rows past the image skipped), adding the
/// offset, rounding and saturating.
template <typename Tout, int C, int R>
__device__ __forceinline__ void storeColumn(const ConvParams& p, int x, int y0, const float (&acc)[R][C])
{
    if (x >= p.width) {
        return;
    }
#pragma unroll
    for (int o = 0; o < R; ++o) {
        const int y = y0 + o;
        if (y < p.height) {
            float v[C];
#pragma unroll
            for (int c = 0; c < C; ++c) {
                v[c] = acc[o][c] + p.offset;
            }
            storePixel<Tout, C>(rowPtr<Tout>(p.dst, p.dstPitch, y), x, v);
        }
    }
}

/// Stores OX consecutive pixels. A whole, suitably aligned strip goes out as one 16-, 8- or
/// 4-byte store, so a warp writes contiguous memory; edges and odd sizes store pixel by pixel.
template <typename Tout, int C, int OX>
__device__ __forceinline__ void storeStrip(Tout* row, int x, int width, float offset, const float (&acc)[OX][C])
{
    constexpr int kBytes = OX * C * static_cast<int>(sizeof(Tout));
    constexpr int kVec = kBytes % 16 == 0 ? 16 : kBytes % 8 == 0 ? 8 : kBytes % 4 == 0 ? 4 : 0;
    Tout* first = row + static_cast<std::size_t>(x) * C;
    if constexpr (kVec > 0) {
        if (x + OX <= width && reinterpret_cast<std::uintptr_t>(first) % kVec == 0) {
            // Pack the saturated values into 32-bit words with shifts: every index is a
            // compile-time constant, so the words stay in registers.
            constexpr int kWords = kBytes / 4;
            constexpr int kSize = static_cast<int>(sizeof(Tout));
            unsigned words[kWords];
#pragma unroll
            for (int w = 0; w < kWords; ++w) {
                words[w] = 0u;
            }
#pragma unroll
            for (int j = 0; j < OX; ++j) {
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    const int e = j * C + c;
                    const Tout v = Saturate<Tout>::from(acc[j][c] + offset);
                    unsigned bits;
                    if constexpr (kSize == 4) {
                        bits = __float_as_uint(static_cast<float>(v));
                    } else {
                        bits = static_cast<unsigned>(v);
                    }
                    words[e * kSize / 4] |= bits << ((e * kSize % 4) * 8);
                }
            }
#pragma unroll
            for (int i = 0; i < kBytes / kVec; ++i) {
                if constexpr (kVec == 16) {
                    reinterpret_cast<uint4*>(first)[i] =
                        make_uint4(words[4 * i], words[4 * i + 1], words[4 * i + 2], words[4 * i + 3]);
                } else if constexpr (kVec == 8) {
                    reinterpret_cast<uint2*>(first)[i] = make_uint2(words[2 * i], words[2 * i + 1]);
                } else {
                    reinterpret_cast<unsigned*>(first)[i] = words[i];
                }
            }
            return;
        }
    }
#pragma unroll
    for (int j = 0; j < OX; ++j) {
        if (x + j < width) {
            float v[C];
#pragma unroll
            for (int c = 0; c < C; ++c) {
                v[c] = acc[j][c] + offset;
            }
            storePixel<Tout, C>(row, x + j, v);
        }
    }
}

/// Pixel (x, y) of the source, all C channels as floats. `inside` says (x, y) is known to lie in
/// the image; otherwise the border rule maps it (the constant border gives borderValue).
template <typename T, int C>
__device__ __forceinline__ void fetchPixel(const ConvParams& p, int x, int y, bool inside, float (&v)[C])
{
    const int gy = inside ? y : mapBorder(y, p.height, p.border);
    const int gx = inside ? x : mapBorder(x, p.width, p.border);
    if (gx < 0 || gy < 0) {
#pragma unroll
        for (int c = 0; c < C; ++c) {
            v[c] = p.borderValue;
        }
    } else {
        loadPixel<T, C>(rowPtr<T>(p.src, p.srcPitch, gy), gx, v);
    }
}

/// Loads the input window of a tile (origin ox, oy in image coordinates, sw x sh pixels) into
/// planar shared memory s[c][y][x], channels cBegin..cBegin+G-1, applying the border rule.
template <typename T, int C, int G>
__device__ __forceinline__ void loadTile(const ConvParams& p, float* s, int ox, int oy, int sw, int sh, int cBegin)
{
    const int n = sw * sh;
    const int plane = n;
    const bool inside = ox >= 0 && oy >= 0 && ox + sw <= p.width && oy + sh <= p.height;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int nthreads = blockDim.x * blockDim.y;
    for (int i = tid; i < n; i += nthreads) {
        const int sy = i / sw;
        const int sx = i - sy * sw;
        float v[C];
        fetchPixel<T, C>(p, ox + sx, oy + sy, inside, v);
        if constexpr (G == C) {
#pragma unroll
            for (int c = 0; c < C; ++c) {
                s[c * plane + i] = v[c];
            }
        } else {
            // One channel per pass: pick it without indexing the register array at run time.
            float val = v[0];
#pragma unroll
            for (int c = 1; c < C; ++c) {
                val = (c == cBegin) ? v[c] : val;
            }
            s[i] = val;
        }
    }
}

}  // namespace tessera::gpu::detail
