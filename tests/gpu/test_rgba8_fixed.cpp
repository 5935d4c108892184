// SPDX-License-Identifier: Apache-2.0
// The integer RGBA8 kernel's fixed-point taps (gpu/kernels/tensor/direct_rgba8_fixed.h), followed on the host in
// the kernel's own integer arithmetic: 32-bit sums of bytes times the high and the low tap bytes,
// (256 high + low + bias) >> shift, saturated to a byte. Before rounding the result must lie
// within the stated bound of the exact correlation, the rounded byte within 1 of the exactly
// rounded one, and the bound must keep usual kernels on this route and refuse what it cannot hold.

#include "gpu/kernels/tensor/direct_rgba8_fixed.h"
#include "rgba8_taps.h"

#include "filters/factories.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace tessera::gpu {
namespace {

using detail::kRgba8FixedErrorLimit;
using detail::Rgba8FixedTaps;
using detail::rgba8FixedTaps;

struct Worst {
    double beforeRounding = 0.0;  ///< largest |(sum + bias - half) / 2^s - exact|
    int byteDifference = 0;       ///< largest |kernel byte - exactly rounded byte|
};

/// Runs `windows` random byte windows (and the all-0 and all-255 ones) through the kernel's
/// arithmetic.
Worst follow(const std::vector<float>& taps, float offset, const Rgba8FixedTaps& f, int windows, std::mt19937& rng)
{
    std::uniform_int_distribution<int> byte(0, 255);
    std::vector<int> b(taps.size());
    Worst worst;
    for (int n = 0; n < windows + 2; ++n) {
        for (int& v : b) {
            v = n == 0 ? 0 : n == 1 ? 255 : byte(rng);
        }
        std::int32_t high = 0;
        std::int32_t low = f.bias;
        double exact = offset;
        for (std::size_t i = 0; i < taps.size(); ++i) {
            high += f.hi[i] * b[i];
            low += f.lo[i] * b[i];
            exact += static_cast<double>(taps[i]) * b[i];
        }
        const std::int32_t sum = high * 256 + low;
        const double unit = std::ldexp(1.0, f.shift);
        const double value = (static_cast<double>(sum) - unit / 2) / unit;
        worst.beforeRounding = std::max(worst.beforeRounding, std::abs(value - exact));
        const int kernelByte = std::clamp(sum >> f.shift, 0, 255);
        const int exactByte = static_cast<int>(std::clamp(std::nearbyint(exact), 0.0, 255.0));
        worst.byteDifference = std::max(worst.byteDifference, std::abs(kernelByte - exactByte));
    }
    return worst;
}

using test::randomNormalisedTaps;

void expectHolds(const std::vector<float>& taps, float offset, std::mt19937& rng)
{
    const Rgba8FixedTaps f = rgba8FixedTaps(taps, offset);
    ASSERT_TRUE(f.ok);
    ASSERT_EQ(f.hi.size(), taps.size());
    ASSERT_EQ(f.lo.size(), taps.size());
    const double unit = std::ldexp(1.0, f.shift);
    for (std::size_t i = 0; i < taps.size(); ++i) {
        // The two bytes make the rounded tap.
        EXPECT_EQ(256 * f.hi[i] + f.lo[i], static_cast<int>(std::nearbyint(taps[i] * unit))) << "tap " << i;
    }
    EXPECT_LE(f.errorBound, kRgba8FixedErrorLimit);
    const Worst w = follow(taps, offset, f, 20000, rng);
    EXPECT_LE(w.beforeRounding, f.errorBound + 1e-9) << "shift " << f.shift;
    EXPECT_LE(w.byteDifference, 1);
}

TEST(Rgba8Fixed, RandomKernelsHoldTheirBound)
{
    std::mt19937 rng(7);
    for (const int side : {3, 5}) {
        for (int n = 0; n < 20; ++n) {
            SCOPED_TRACE("side " + std::to_string(side) + ", kernel " + std::to_string(n));
            const std::vector<float> taps = randomNormalisedTaps(side, rng);
            expectHolds(taps, n % 3 == 0 ? 0.0f : n % 3 == 1 ? 3.5f : -20.25f, rng);
            const Rgba8FixedTaps f = rgba8FixedTaps(taps, 0.0f);
            // Unit-sum taps under 1 in magnitude take at least 15 bits.
            EXPECT_GE(f.shift, 15);
        }
    }
}

TEST(Rgba8Fixed, IntegerAndDyadicKernelsAreExact)
{
    std::mt19937 rng(11);
    // Centre 41, the rest -5: sums far outside 0..255 saturate, and the taps are exact.
    std::vector<float> strong(9, -5.0f);
    strong[4] = 41.0f;
    const Rgba8FixedTaps f = rgba8FixedTaps(strong, 0.0f);
    ASSERT_TRUE(f.ok);
    EXPECT_EQ(f.errorBound, 0.0);
    expectHolds(strong, 0.0f, rng);
    // 1 2 1 / 16 in both directions.
    std::vector<float> binomial;
    for (const float a : {1.0f, 2.0f, 1.0f}) {
        for (const float b : {1.0f, 2.0f, 1.0f}) {
            binomial.push_back(a * b / 16.0f);
        }
    }
    EXPECT_EQ(rgba8FixedTaps(binomial, 0.5f).errorBound, 0.0);
    expectHolds(binomial, 0.5f, rng);
}

TEST(Rgba8Fixed, BuiltinSmallKernelsTakeIt)
{
    std::mt19937 rng(13);
    for (const auto& spec :
         {filters::makeBox(3), filters::makeBox(5), filters::makeSharpen(1.0), filters::makeGaussian(1.0, 5)}) {
        SCOPED_TRACE(spec.id);
        const Rgba8FixedTaps f = rgba8FixedTaps(spec);
        EXPECT_TRUE(f.ok) << "bound " << f.errorBound;
        std::vector<float> taps;
        for (double w : spec.kernel.weights) {
            taps.push_back(static_cast<float>(w * spec.scale));
        }
        expectHolds(taps, static_cast<float>(spec.offset), rng);
    }
}

TEST(Rgba8Fixed, RefusesWhatItCannotHold)
{
    std::mt19937 rng(17);
    // Large non-integer taps leave too few bits below the point: 255 x 9 x 2^-11 is over 1.
    std::uniform_real_distribution<double> wide(-60.0, 60.0);
    std::vector<float> coarse;
    for (int i = 0; i < 9; ++i) {
        coarse.push_back(static_cast<float>(wide(rng)) + 0.3f);
    }
    const Rgba8FixedTaps f = rgba8FixedTaps(coarse, 0.0f);
    EXPECT_FALSE(f.ok);
    EXPECT_GT(f.errorBound, kRgba8FixedErrorLimit);

    std::vector<float> nan(9, 0.1f);
    nan[3] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(rgba8FixedTaps(nan, 0.0f).ok);
    EXPECT_FALSE(rgba8FixedTaps(std::vector<float>(9, 0.1f), std::numeric_limits<float>::infinity()).ok);
    // An offset too large for 32-bit sums at any useful shift.
    EXPECT_FALSE(rgba8FixedTaps(std::vector<float>(9, 0.1f), 3e9f).ok);
    // Taps beyond two signed bytes at every shift.
    EXPECT_FALSE(rgba8FixedTaps(std::vector<float>(9, 40000.0f), 0.0f).ok);
}

TEST(Rgba8Fixed, SumsStayWithin32Bits)
{
    std::mt19937 rng(19);
    for (int n = 0; n < 50; ++n) {
        std::uniform_real_distribution<double> magnitude(0.01, 100.0);
        const double m = magnitude(rng);
        std::uniform_real_distribution<double> dist(-m, m);
        std::vector<float> taps;
        for (int i = 0; i < 25; ++i) {
            taps.push_back(static_cast<float>(std::nearbyint(dist(rng) * 4.0) / 4.0));
        }
        const float offset = static_cast<float>(dist(rng) * 100.0);
        const Rgba8FixedTaps f = rgba8FixedTaps(taps, offset);
        if (!f.ok) {
            continue;
        }
        double high = 0.0;
        double low = 0.0;
        for (std::size_t i = 0; i < taps.size(); ++i) {
            high += 255.0 * std::abs(f.hi[i]);
            low += 255.0 * std::abs(f.lo[i]);
        }
        EXPECT_LT(256.0 * high + low + std::abs(static_cast<double>(f.bias)), 0x1p31) << "kernel " << n;
        expectHolds(taps, offset, rng);
    }
}

}  // namespace
}  // namespace tessera::gpu
