// SPDX-License-Identifier: Apache-2.0
// The walking RGBA8 kernel's one-instruction byte conversion (gpu/kernels/direct/direct_rgba8_bound.h), followed
// on the host in the kernel's own float arithmetic: values 1 + b / 2^15, taps scaled by 2^15, the
// sums started at offset - 2^15 x (sum of taps), one fmaf per tap in window order. The result
// must lie within the stated bound of the exact correlation, and the bound must keep usual
// kernels on this route and send strong ones to the exact conversion.

#include "gpu/kernels/direct/direct_rgba8_bound.h"
#include "rgba8_taps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace tessera::gpu {
namespace {

using detail::kRgba8BiasedErrorLimit;
using detail::kRgba8BiasedScale;
using detail::rgba8BiasedErrorBound;
using detail::rgba8BiasedValue;

/// The largest |biased result - exact result| over `windows` random byte windows (plus the all-0
/// and all-255 ones).
double worstError(const std::vector<float>& taps, float offset, int windows, std::mt19937& rng)
{
    double tapSum = 0.0;
    for (float t : taps) {
        tapSum += t;
    }
    const float start = static_cast<float>(static_cast<double>(offset) - kRgba8BiasedScale * tapSum);
    std::uniform_int_distribution<int> byte(0, 255);
    std::vector<std::uint8_t> b(taps.size());
    double worst = 0.0;
    for (int n = 0; n < windows + 2; ++n) {
        for (auto& v : b) {
            v = static_cast<std::uint8_t>(n == 0 ? 0 : n == 1 ? 255 : byte(rng));
        }
        float acc = start;
        double exact = offset;
        for (std::size_t i = 0; i < taps.size(); ++i) {
            acc = std::fmaf(taps[i] * kRgba8BiasedScale, rgba8BiasedValue(b[i]), acc);
            exact += static_cast<double>(taps[i]) * b[i];
        }
        worst = std::max(worst, std::abs(static_cast<double>(acc) - exact));
    }
    return worst;
}

using test::randomNormalisedTaps;

TEST(Rgba8Biased, ValueIsOnePlusTheByteOver32768)
{
    for (int b = 0; b < 256; ++b) {
        EXPECT_EQ(static_cast<double>(rgba8BiasedValue(static_cast<std::uint8_t>(b))), 1.0 + b / 32768.0) << b;
    }
}

TEST(Rgba8Biased, ResultsStayWithinTheBoundAndUsualKernelsTakeTheRoute)
{
    std::mt19937 rng(20261202);
    for (int side : {3, 5}) {
        for (float offset : {0.0f, 3.5f, -40.0f}) {
            for (int k = 0; k < 20; ++k) {
                const std::vector<float> taps = randomNormalisedTaps(side, rng);
                const double bound = rgba8BiasedErrorBound(taps, offset);
                EXPECT_LE(bound, kRgba8BiasedErrorLimit) << "side " << side << ": a usual kernel must take the route";
                const double worst = worstError(taps, offset, 4000, rng);
                EXPECT_LE(worst, bound) << "side " << side << " offset " << offset;
            }
        }
    }
    // A box and a sharpen kernel (sum |w| = 1 and 3) too.
    const std::vector<float> box(9, 1.0f / 9.0f);
    const std::vector<float> sharpen{0, -0.5f, 0, -0.5f, 3, -0.5f, 0, -0.5f, 0};
    for (const auto* taps : {&box, &sharpen}) {
        EXPECT_LE(rgba8BiasedErrorBound(*taps, 0.0f), kRgba8BiasedErrorLimit);
        EXPECT_LE(worstError(*taps, 0.0f, 20000, rng), rgba8BiasedErrorBound(*taps, 0.0f));
    }
}

TEST(Rgba8Biased, StrongKernelsKeepTheExactConversion)
{
    // sum |w| = 81: the sums would carry 2^15 x 81 x 2, and their rounding could move a result
    // by more than half a step. The bound says so, and the kernel takes the two-instruction route.
    std::vector<float> strong(9, -5.0f);
    strong[4] = 41.0f;
    EXPECT_GT(rgba8BiasedErrorBound(strong, 0.0f), kRgba8BiasedErrorLimit);
    // A large offset alone counts too.
    EXPECT_GT(rgba8BiasedErrorBound(std::vector<float>(9, 1.0f / 9.0f), 1.0e7f), kRgba8BiasedErrorLimit);
}

}  // namespace
}  // namespace tessera::gpu
