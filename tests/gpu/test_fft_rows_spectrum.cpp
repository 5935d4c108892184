// SPDX-License-Identifier: Apache-2.0
// The kernel-row spectra of the row-spectrum FFT (gpu/kernels/fft/fft_rows.cu), checked on the host: the
// device kernel's steps are followed here in double precision with plain DFTs (forward bins
// doubled and bins 0 and 64 packed in slot 0, kh products summed per slot, the even/odd split
// and the 64-point inverse), and the columns that do not wrap must equal the direct
// correlation. A wrong scale, sign or packing in fftRowsSpectrum fails here without a GPU.

#include "gpu/kernels/fft/fft_rows.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

namespace tessera::gpu {
namespace {

using cd = std::complex<double>;
constexpr int kLen = detail::kFftRowsLength;
constexpr int kSlots = kLen / 2;
constexpr double kPi = 3.14159265358979323846;

cd unit(double turns)
{
    return {std::cos(2.0 * kPi * turns), std::sin(2.0 * kPi * turns)};
}

/// The forward step: slot k holds 2 X[k], slot 0 holds (2 X[0], 2 X[64]).
std::vector<cd> forwardSlots(const std::vector<double>& x)
{
    std::vector<cd> slots(kSlots);
    for (int k = 0; k <= kSlots; ++k) {
        cd sum = 0.0;
        for (int n = 0; n < kLen; ++n) {
            sum += x[static_cast<std::size_t>(n)] * unit(-static_cast<double>(k * n % kLen) / kLen);
        }
        if (k == 0) {
            slots[0] = {2.0 * sum.real(), slots[0].imag()};
        } else if (k == kSlots) {
            slots[0] = {slots[0].real(), 2.0 * sum.real()};
        } else {
            slots[static_cast<std::size_t>(k)] = 2.0 * sum;
        }
    }
    return slots;
}

/// The inverse step: 128 samples from product slots.
std::vector<double> inverseSlots(const std::vector<cd>& c)
{
    std::vector<cd> z(kSlots);
    for (int k = 0; k < kSlots; ++k) {
        const cd ck = c[static_cast<std::size_t>(k)];
        cd e, o;
        if (k == 0) {
            e = ck.real() + ck.imag();
            o = ck.real() - ck.imag();
        } else {
            const cd partner = std::conj(c[static_cast<std::size_t>(kSlots - k)]);
            e = ck + partner;
            o = (ck - partner) * unit(static_cast<double>(k) / kLen);
        }
        z[static_cast<std::size_t>(k)] = e + cd(0.0, 1.0) * o;
    }
    std::vector<double> out(kLen);
    for (int m = 0; m < kSlots; ++m) {
        cd sum = 0.0;
        for (int k = 0; k < kSlots; ++k) {
            sum += z[static_cast<std::size_t>(k)] * unit(static_cast<double>(k * m % kSlots) / kSlots);
        }
        out[static_cast<std::size_t>(2 * m)] = sum.real();
        out[static_cast<std::size_t>(2 * m + 1)] = sum.imag();
    }
    return out;
}

void checkSize(int kw, int kh, std::mt19937_64& rng)
{
    SCOPED_TRACE(std::to_string(kw) + " x " + std::to_string(kh));
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<float> taps(static_cast<std::size_t>(kw) * static_cast<std::size_t>(kh));
    for (float& t : taps) {
        t = static_cast<float>(dist(rng));
    }
    std::vector<std::vector<double>> rows(static_cast<std::size_t>(kh), std::vector<double>(kLen));
    for (auto& r : rows) {
        for (double& v : r) {
            v = dist(rng);
        }
    }
    const std::vector<float> spectrum = detail::fftRowsSpectrum(taps, kw, kh);
    ASSERT_EQ(spectrum.size(), static_cast<std::size_t>(kh) * kSlots * 2);

    std::vector<cd> acc(kSlots);
    for (int ky = 0; ky < kh; ++ky) {
        const std::vector<cd> x = forwardSlots(rows[static_cast<std::size_t>(ky)]);
        const float* factors = spectrum.data() + static_cast<std::size_t>(ky) * kSlots * 2;
        for (int s = 0; s < kSlots; ++s) {
            const double a = factors[2 * s];
            const double b = factors[2 * s + 1];
            const cd v = x[static_cast<std::size_t>(s)];
            acc[static_cast<std::size_t>(s)] += s == 0 ? cd(v.real() * a, v.imag() * b) : v * cd(a, b);
        }
    }
    const std::vector<double> out = inverseSlots(acc);
    double worst = 0.0;
    for (int m = 0; m + kw <= kLen; ++m) {
        double direct = 0.0;
        for (int ky = 0; ky < kh; ++ky) {
            for (int n = 0; n < kw; ++n) {
                direct += rows[static_cast<std::size_t>(ky)][static_cast<std::size_t>(m + n)] *
                          static_cast<double>(taps[static_cast<std::size_t>(ky * kw + n)]);
            }
        }
        worst = std::max(worst, std::abs(out[static_cast<std::size_t>(m)] - direct));
    }
    // The spectra are rounded to float: about 1e-7 of sum |k| x max |x| (at most kw kh here).
    EXPECT_LT(worst, 1e-6 * kw * kh);
}

TEST(FftRowsSpectrum, FollowingTheKernelsStepsGivesTheDirectCorrelation)
{
    std::mt19937_64 rng(20261202);
    for (const auto& [kw, kh] : {std::pair{1, 1}, {2, 1}, {3, 3}, {8, 5}, {15, 15}, {31, 2}, {64, 3}}) {
        checkSize(kw, kh, rng);
    }
}

TEST(FftRowsSpectrum, SlotZeroHoldsTheRealFactorsOfBinsZeroAndSixtyFour)
{
    // One tap of weight w at column n: bin 0's factor is w / 256, bin 64's is (-1)^n w / 256.
    for (const int n : {0, 1, 6}) {
        std::vector<float> taps(8, 0.0f);
        taps[static_cast<std::size_t>(n)] = 3.0f;
        const std::vector<float> spectrum = detail::fftRowsSpectrum(taps, 8, 1);
        EXPECT_FLOAT_EQ(spectrum[0], 3.0f / 256.0f);
        EXPECT_FLOAT_EQ(spectrum[1], (n % 2 == 0 ? 3.0f : -3.0f) / 256.0f);
        // Slot 1 is conj(G[1]) / 256 with G[1] = w exp(-2 pi i n / 128).
        EXPECT_NEAR(spectrum[2], 3.0 * std::cos(2.0 * kPi * n / kLen) / 256.0, 1e-7);
        EXPECT_NEAR(spectrum[3], 3.0 * std::sin(2.0 * kPi * n / kLen) / 256.0, 1e-7);
    }
}

TEST(FftRowsSpectrum, SharedMemoryGrowsWithTheKernelHeight)
{
    EXPECT_LT(detail::fftRowsSharedBytes(1), detail::fftRowsSharedBytes(31));
    EXPECT_LT(detail::fftRowsSharedBytes(31), detail::fftRowsSharedBytes(detail::kFftRowsMaxSide));
    // 64 kernel rows must still fit the 227 KiB an H200 block may opt in to.
    EXPECT_LE(detail::fftRowsSharedBytes(detail::kFftRowsMaxSide), 227u * 1024u);
}

}  // namespace
}  // namespace tessera::gpu
