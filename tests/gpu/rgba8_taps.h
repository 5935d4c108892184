// SPDX-License-Identifier: Apache-2.0
#pragma once

// Random taps for the host tests of the RGBA8 kernels' arithmetic (test_rgba8_biased.cpp,
// test_rgba8_fixed.cpp).

#include <cstddef>
#include <random>
#include <vector>

namespace tessera::gpu::test {

/// A side x side kernel like the benchmark's: weights uniform in [-0.25, 1), normalised to unit sum.
inline std::vector<float> randomNormalisedTaps(int side, std::mt19937& rng)
{
    std::uniform_real_distribution<double> dist(-0.25, 1.0);
    std::vector<double> w(static_cast<std::size_t>(side) * side);
    double sum = 0.0;
    for (double& v : w) {
        v = dist(rng);
        sum += v;
    }
    std::vector<float> taps;
    for (double v : w) {
        taps.push_back(static_cast<float>(v / sum));
    }
    return taps;
}

}  // namespace tessera::gpu::test
