// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the arithmetic of the walking RGBA8 kernel's one-instruction byte conversion
// (direct_rgba8.cu), CUDA-free so that host tests can follow it.
//
// A byte b written to bits 8..15 of the mantissa under the exponent of 1 is the float
// 1 + b / 2^15, exactly, in one byte permute. Against taps scaled by 2^15, with the sums started
// at offset - 2^15 x (sum of taps), the products add up to offset + sum(w b). The sums are larger
// than the result by about 2^15 x sum|w|, so their rounding costs low bits: the kernel takes this
// route only where the bound below is under kRgba8BiasedErrorLimit output steps.
//
// Where the taps are mild enough it sums in fp16 instead, two channels per instruction. A byte
// b under a zero exponent is the fp16 subnormal b x 2^-24, exactly, in one byte permute; against
// taps scaled by 2^k (their largest to [2^14, 2^15)) the sums come out scaled by 2^(k - 24), and
// fp16 spacing is relative, so a sum of bytes that stays under a few hundred still rounds by a
// sixteenth or an eighth of an output step per tap. rgba8HalfErrorBound follows that rounding
// tap by tap, in the scaled units the kernel computes in.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tessera::gpu::detail {

/// The tap scale that matches values of 1 + b / 2^15.
inline constexpr float kRgba8BiasedScale = 32768.0f;
/// Largest error bound, in output steps, for which the one-instruction conversion is taken. Below
/// half a step the rounded byte stays within 1 of the exactly computed one.
inline constexpr double kRgba8BiasedErrorLimit = 0.25;

/// The float the byte permute makes of byte b: 1 + b / 2^15.
inline float rgba8BiasedValue(std::uint8_t b)
{
    return std::bit_cast<float>(0x3F800000u | (static_cast<std::uint32_t>(b) << 8));
}

/// A bound on |computed - exact| for one output of the biased route. Every partial sum lies within
/// |offset| + 2^15 sum|w| (the start) + 2^15 sum|w| (1 + 255 / 2^15) (the products); the start and
/// each of the n FMAs round once, by at most 2^-24 of that.
inline double rgba8BiasedErrorBound(const std::vector<float>& taps, float offset)
{
    double absSum = 0.0;
    for (float t : taps) {
        absSum += std::abs(static_cast<double>(t));
    }
    const double scale = kRgba8BiasedScale;
    const double largest = std::abs(static_cast<double>(offset)) + scale * absSum * (2.0 + 255.0 / scale);
    return static_cast<double>(taps.size() + 1) * largest * 0x1p-24;
}

/// Whether the walking RGBA8 kernel takes the one-instruction conversion for these taps (scale
/// folded in) and offset: the launch and the plan's description both ask this.
inline bool rgba8TakesBiasedBytes(const std::vector<float>& taps, float offset)
{
    return rgba8BiasedErrorBound(taps, offset) <= kRgba8BiasedErrorLimit;
}

/// The fp16 value nearest to v (ties to even), as the device's conversion makes it; infinite from
/// 65520 on.
inline double roundToHalf(double v)
{
    const double a = std::abs(v);
    if (a >= 65520.0) {
        return std::copysign(HUGE_VAL, v);
    }
    int e = 0;
    std::frexp(a, &e);  // a = m 2^e with m in [0.5, 1)
    const double spacing = std::ldexp(1.0, std::max(e - 1, -14) - 10);
    return std::nearbyint(v / spacing) * spacing;
}

/// The bits of an fp16 value (one that roundToHalf returned).
inline std::uint16_t halfBits(double h)
{
    const std::uint16_t sign = std::signbit(h) ? 0x8000u : 0u;
    const double a = std::abs(h);
    if (std::isinf(a)) {
        return static_cast<std::uint16_t>(sign | 0x7C00u);
    }
    if (a < 0x1p-14) {
        return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(a * 0x1p24));
    }
    int e = 0;
    const double m = std::frexp(a, &e);  // a = m 2^e, m in [0.5, 1): exponent e - 1
    const auto mantissa = static_cast<std::uint16_t>((m * 2.0 - 1.0) * 1024.0);
    return static_cast<std::uint16_t>(sign | ((e - 1 + 15) << 10) | mantissa);
}

/// Byte permutes of the fp16 form (prmt.b32 d, a, b, select: byte n of d is byte (select >> 4n)
/// & 7 of b:a). With a = the pixel and b = 0: channels 0 and 2, or 1 and 3, each under a zero
/// byte, i.e. as the fp16 pair of subnormals (c0, c2) x 2^-24 or (c1, c3) x 2^-24.
inline constexpr unsigned kRgba8HalfEvenSelect = 0x7250u;
inline constexpr unsigned kRgba8HalfOddSelect = 0x7351u;
/// With a = the (c0, c2) and b = the (c1, c3) fp16 pairs of results in 1024 .. 1279: the pixel.
inline constexpr unsigned kRgba8HalfPackSelect = 0x6240u;

/// Largest error bound, in output steps, for which the walking RGBA8 kernel sums in fp16. Under
/// one step, the rounded byte stays within 1 of the one rounded from the exact sum.
inline constexpr double kRgba8HalfErrorLimit = 0.9;

/// The exponent k of the fp16 form's tap scale 2^k: the largest tap magnitude m to [2^14, 2^15),
/// kept to 10 .. 24 so that the sums' scale 2^(k - 24) is at most 1 and its inverse (the store's
/// factor, at most 2^14) is an fp16 value. 24 for all-zero taps.
inline int rgba8HalfTapExponent(const std::vector<float>& taps)
{
    double m = 0.0;
    for (const float t : taps) {
        m = std::max(m, std::abs(static_cast<double>(t)));
    }
    if (!(m > 0.0) || !std::isfinite(m)) {
        return 24;
    }
    int e = 0;
    std::frexp(m, &e);  // m in [2^(e - 1), 2^e)
    return std::clamp(15 - e, 10, 24);
}

/// A bound on |computed - exact| for one output of the fp16 route, in output steps: the taps
/// scaled by 2^k and rounded to fp16, the offset scaled by 2^(k - 24) and rounded, then one fp16
/// FMA of a tap and an exact byte (b x 2^-24) per tap in window order (row by row), each rounding
/// by at most half the fp16 spacing at the largest magnitude its partial sum can reach (in the
/// scaled units, subnormal spacing included); the store's factor 2^(24 - k) is exact. A partial
/// sum of bytes lies between offset - 255 (negative taps so far) and offset + 255 (positive taps
/// so far), give or take the error already made.
inline double rgba8HalfErrorBound(const std::vector<float>& taps, float offset)
{
    const int k = rgba8HalfTapExponent(taps);
    const double tapScale = std::ldexp(1.0, k);
    const double sumScale = std::ldexp(1.0, k - 24);
    const double start = roundToHalf(static_cast<double>(offset) * sumScale);
    double inputError = std::abs(start / sumScale - static_cast<double>(offset));  // rounded taps and offset
    double sumError = 0.0;                                                         // the FMAs' roundings, scaled
    double positive = 0.0;
    double negative = 0.0;
    for (const float t : taps) {
        const double th = roundToHalf(static_cast<double>(t) * tapScale);
        inputError += 255.0 * std::abs(th / tapScale - static_cast<double>(t));
        positive += std::max(th, 0.0);
        negative += std::max(-th, 0.0);
        const double reach = std::abs(start) + 255.0 * 0x1p-24 * std::max(positive, negative) + sumError;
        int e = 0;
        std::frexp(reach, &e);
        sumError += std::ldexp(1.0, std::max(e - 1, -14) - 11);  // half the spacing at `reach`
    }
    return inputError + sumError / sumScale;
}

/// Whether these taps (scale folded in) and offset are mild enough for fp16 sums.
inline bool rgba8TakesHalfSums(const std::vector<float>& taps, float offset)
{
    return rgba8HalfErrorBound(taps, offset) <= kRgba8HalfErrorLimit;
}

/// Whether the walking RGBA8 kernel of side `side` takes its fp16 form (3 x 3 only): the launch,
/// the plan's description and the cost estimate all ask this.
inline bool rgba8WalkTakesHalfSums(int side, const std::vector<float>& taps, float offset)
{
    return side == 3 && rgba8TakesHalfSums(taps, offset);
}

}  // namespace tessera::gpu::detail
