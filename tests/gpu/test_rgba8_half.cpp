// SPDX-License-Identifier: Apache-2.0
// The walking RGBA8 kernel's fp16 form (gpu/kernels/direct/direct_rgba8_bound.h), followed on the host: the byte
// permutes that make fp16 pairs of the channels (subnormals b x 2^-24) and pack the results (a
// host prmt), the taps scaled by 2^k, one correctly rounded fp16 FMA per tap in window order, the
// store's one FMA that scales back and adds 1024, and the clamp.
// Results must lie within the stated bound of the exact correlation, bytes within 1 of the exact
// rounding, and the bound must take mild kernels and refuse strong ones.

#include "gpu/kernels/direct/direct_rgba8_bound.h"
#include "rgba8_taps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace tessera::gpu {
namespace {

using detail::halfBits;
using detail::kRgba8HalfErrorLimit;
using detail::rgba8HalfErrorBound;
using detail::rgba8HalfTapExponent;
using detail::rgba8TakesHalfSums;
using detail::roundToHalf;

/// prmt.b32 in its default mode: byte n of the result is byte (select >> 4n) & 7 of b:a.
std::uint32_t prmt(std::uint32_t a, std::uint32_t b, std::uint32_t select)
{
    const std::uint64_t both = (static_cast<std::uint64_t>(b) << 32) | a;
    std::uint32_t d = 0;
    for (int n = 0; n < 4; ++n) {
        const unsigned byte = (select >> (4 * n)) & 7u;
        d |= static_cast<std::uint32_t>((both >> (8 * byte)) & 0xFFu) << (8 * n);
    }
    return d;
}

double halfValue(std::uint16_t bits)
{
    _Float16 h;
    std::memcpy(&h, &bits, sizeof h);
    return static_cast<double>(h);
}

std::uint16_t bitsOf(_Float16 h)
{
    std::uint16_t bits;
    std::memcpy(&bits, &h, sizeof bits);
    return bits;
}

/// One fp16 FMA as the device does it: the exact a b + c (long double holds it: an 11-bit tap
/// times a byte plus an fp16 sum), rounded once.
_Float16 fmaHalf(_Float16 a, _Float16 b, _Float16 c)
{
    return static_cast<_Float16>(static_cast<long double>(a) * static_cast<long double>(b) +
                                 static_cast<long double>(c));
}

/// The kernel's store of one scaled fp16 sum: x 2^(24 - k) + 1024 in one FMA, clamp to 1024 ..
/// 1279, the low byte.
std::uint8_t storedByte(_Float16 sum, int k)
{
    _Float16 v = fmaHalf(sum, static_cast<_Float16>(std::ldexp(1.0f, 24 - k)), static_cast<_Float16>(1024.0f));
    v = std::max(v, static_cast<_Float16>(1024.0f));
    v = std::min(v, static_cast<_Float16>(1279.0f));
    return static_cast<std::uint8_t>(bitsOf(v) & 0xFFu);
}

std::uint8_t exactByte(double v)
{
    return static_cast<std::uint8_t>(std::clamp(std::nearbyint(v), 0.0, 255.0));
}

TEST(Rgba8Half, RoundingAndBitsMatchTheCompilersFp16)
{
    std::mt19937 rng(20261203);
    std::uniform_real_distribution<float> wide(-70000.0f, 70000.0f);
    for (int i = 0; i < 200000; ++i) {
        const float f = wide(rng) * (i % 3 == 0 ? 1.0f : i % 3 == 1 ? 1e-4f : 1e-9f);
        const _Float16 h = static_cast<_Float16>(f);
        const double r = roundToHalf(f);
        ASSERT_EQ(std::isinf(r), std::isinf(static_cast<double>(h))) << f;
        if (!std::isinf(r)) {
            ASSERT_EQ(r, static_cast<double>(h)) << f;
            ASSERT_EQ(halfBits(r), bitsOf(h)) << f;
        }
    }
}

TEST(Rgba8Half, PermutesMakeExactChannelPairsAndPackTheResults)
{
    std::mt19937 rng(7);
    for (int n = 0; n < 20000; ++n) {
        const std::uint32_t px =
            n < 256 ? 0x01010101u * static_cast<std::uint32_t>(n) : static_cast<std::uint32_t>(rng());
        const std::uint32_t even = prmt(px, 0u, detail::kRgba8HalfEvenSelect);
        const std::uint32_t odd = prmt(px, 0u, detail::kRgba8HalfOddSelect);
        const std::array<double, 4> c{
            halfValue(static_cast<std::uint16_t>(even)), halfValue(static_cast<std::uint16_t>(odd)),
            halfValue(static_cast<std::uint16_t>(even >> 16)), halfValue(static_cast<std::uint16_t>(odd >> 16))};
        std::array<std::uint16_t, 4> stored{};
        for (int ch = 0; ch < 4; ++ch) {
            const auto byte = static_cast<std::uint16_t>((px >> (8 * ch)) & 0xFFu);
            ASSERT_EQ(c[static_cast<std::size_t>(ch)], std::ldexp(static_cast<double>(byte), -24))
                << std::hex << px << " channel " << ch;
            stored[static_cast<std::size_t>(ch)] = halfBits(1024.0 + byte);
        }
        // The results, as the store leaves them (1024 + byte), pack back into the same pixel.
        const std::uint32_t evenResults = stored[0] | (static_cast<std::uint32_t>(stored[2]) << 16);
        const std::uint32_t oddResults = stored[1] | (static_cast<std::uint32_t>(stored[3]) << 16);
        ASSERT_EQ(prmt(evenResults, oddResults, detail::kRgba8HalfPackSelect), px) << std::hex << px;
    }
}

/// The largest |fp16 result - exact result| over `windows` random byte windows (plus all-0 and
/// all-255), and whether every stored byte stayed within 1 of the exactly rounded one.
struct Worst {
    double error = 0.0;
    bool bytesWithinOne = true;
};

Worst worstError(const std::vector<float>& taps, float offset, int windows, std::mt19937& rng)
{
    const int k = rgba8HalfTapExponent(taps);
    std::vector<_Float16> th;
    for (const float t : taps) {
        th.push_back(static_cast<_Float16>(std::ldexp(t, k)));
    }
    std::uniform_int_distribution<int> byte(0, 255);
    std::vector<int> b(taps.size());
    Worst w;
    for (int n = 0; n < windows + 2; ++n) {
        for (int& v : b) {
            v = n == 0 ? 0 : n == 1 ? 255 : byte(rng);
        }
        _Float16 acc = static_cast<_Float16>(std::ldexp(offset, k - 24));
        double exact = offset;
        for (std::size_t i = 0; i < taps.size(); ++i) {
            acc = fmaHalf(th[i], static_cast<_Float16>(std::ldexp(static_cast<float>(b[i]), -24)), acc);
            exact += static_cast<double>(taps[i]) * b[i];
        }
        w.error = std::max(w.error, std::abs(std::ldexp(static_cast<double>(acc), 24 - k) - exact));
        if (std::abs(static_cast<int>(storedByte(acc, k)) - static_cast<int>(exactByte(exact))) > 1) {
            w.bytesWithinOne = false;
        }
    }
    return w;
}

TEST(Rgba8Half, ResultsStayWithinTheBoundAndMildKernelsTakeTheRoute)
{
    std::mt19937 rng(20261203);
    int taken = 0;
    int drawn = 0;
    for (const float offset : {0.0f, 3.5f, -7.25f}) {
        for (int k = 0; k < 60; ++k) {
            const std::vector<float> taps = test::randomNormalisedTaps(3, rng);
            const double bound = rgba8HalfErrorBound(taps, offset);
            ++drawn;
            if (bound > kRgba8HalfErrorLimit) {
                continue;
            }
            ++taken;
            const Worst w = worstError(taps, offset, 3000, rng);
            EXPECT_LE(w.error, bound) << "offset " << offset;
            EXPECT_TRUE(w.bytesWithinOne) << "offset " << offset;
        }
    }
    // Most of the benchmark's kind of kernel (unit sum, a few small negative weights) qualify.
    EXPECT_GE(taken, drawn * 9 / 10) << taken << " of " << drawn;
    const std::vector<float> box(9, 1.0f / 9.0f);
    const std::vector<float> gauss{1 / 16.f, 2 / 16.f, 1 / 16.f, 2 / 16.f, 4 / 16.f,
                                   2 / 16.f, 1 / 16.f, 2 / 16.f, 1 / 16.f};
    for (const auto* taps : {&box, &gauss}) {
        ASSERT_TRUE(rgba8TakesHalfSums(*taps, 0.0f));
        const Worst w = worstError(*taps, 0.0f, 20000, rng);
        EXPECT_LE(w.error, rgba8HalfErrorBound(*taps, 0.0f));
        EXPECT_TRUE(w.bytesWithinOne);
    }
}

TEST(Rgba8Half, TapScaleTakesTheLargestTapToTheTopBinade)
{
    for (const float m : {1.0f / 9.0f, 0.25f, 1.0f, 3.0f, 1e-3f, -0.7f}) {
        const int k = rgba8HalfTapExponent({m / 2.0f, m, 0.0f});
        const double scaled = std::abs(std::ldexp(static_cast<double>(m), k));
        EXPECT_GE(scaled, 16384.0) << m;
        EXPECT_LT(scaled, 32768.0) << m;
    }
    EXPECT_EQ(rgba8HalfTapExponent({1.0f / 9.0f}), 18);
    EXPECT_EQ(rgba8HalfTapExponent(std::vector<float>(9, 0.0f)), 24);
    // Tiny taps: the sums' scale stays at most 1; large ones: the store's factor stays in fp16.
    EXPECT_EQ(rgba8HalfTapExponent({1e-6f}), 24);
    EXPECT_EQ(rgba8HalfTapExponent({60.0f}), 10);
    EXPECT_EQ(rgba8HalfTapExponent({1000.0f}), 10);
    EXPECT_FALSE(rgba8TakesHalfSums({1000.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f}, 0.0f));
}

TEST(Rgba8Half, SumsThatReachFarKeepTheFloatForms)
{
    // Sharpening (sum |w| = 5): partial sums reach 1275, where fp16 values lie 1 apart.
    const std::vector<float> sharpen{0, -1, 0, -1, 5, -1, 0, -1, 0};
    EXPECT_FALSE(rgba8TakesHalfSums(sharpen, 0.0f));
    // Taps that fp16 cannot hold closely enough (scale folded in: 201.37 / 9 each), and a large offset.
    EXPECT_FALSE(rgba8TakesHalfSums(std::vector<float>(9, 201.37f / 9.0f), 0.0f));
    EXPECT_FALSE(rgba8TakesHalfSums(std::vector<float>(9, 1.0f / 9.0f), 700.0f));
    // 25 roundings of a 5 x 5 box add up past the limit even at unit sum.
    EXPECT_FALSE(rgba8TakesHalfSums(std::vector<float>(25, 1.0f / 25.0f), 0.0f));
}

}  // namespace
}  // namespace tessera::gpu
