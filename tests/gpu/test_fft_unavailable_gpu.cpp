// SPDX-License-Identifier: Apache-2.0
// On a GPU, in a process where cuFFT cannot be opened (TESSERA_CUFFT_LIBRARY names a missing
// file, set before anything asks for cuFFT): a run forced onto the FFT refuses with the reason
// instead of failing over to the CPU, and an automatic run of a filter the FFT would take runs
// on the GPU with another method and matches the CPU path.

#include "gpu/runtime/cufft_loader.h"
#include "tessera/gpu/engine.h"
#include "gpu_test_util.h"
#include "values/errors.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace tessera::gpu {
namespace {

const std::string kMissing = "/nonexistent/" + detail::cufftSoname();
const bool kCufftDisabled = ::setenv(detail::kCufftLibraryVariable, kMissing.c_str(), 1) == 0;

class FftUnavailableGpu : public test::GpuTest {};

TEST_F(FftUnavailableGpu, AForcedFftRunRefusesWithTheReason)
{
    ASSERT_TRUE(kCufftDisabled);
    std::mt19937_64 rng = test::caseRng(seed_, 71, 0);
    const cv::Mat src = test::randomImage(96, 128, {PixelDepth::F32, 1}, rng);
    filters::FilterChain chain;
    chain.steps.push_back(test::randomDenseSpec(31, 31, rng));
    RunOptions options;
    options.deviceSlots = slotsFor({device_.id});
    options.method = Method::Fft;
    try {
        runStreamed(src, chain, options);
        ADD_FAILURE() << "expected NotSupported";
    } catch (const NotSupported& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("FFT method unavailable: ", 0), 0U) << what;
        EXPECT_NE(what.find(kMissing), std::string::npos) << what;
    }
    EXPECT_THROW(makePlan(chain.steps.front(), {PixelDepth::F32, 1}, src.cols, src.rows, device_, Method::Fft),
                 NotSupported);
}

TEST_F(FftUnavailableGpu, AnAutomaticRunTakesAnotherMethodOnTheGpu)
{
    std::mt19937_64 rng = test::caseRng(seed_, 72, 0);
    const cv::Mat src = test::randomImage(1024, 1024, {PixelDepth::F32, 1}, rng);
    filters::FilterChain chain;
    chain.steps.push_back(test::randomDenseSpec(31, 31, rng));
    RunOptions options;
    options.deviceSlots = slotsFor({device_.id});
    RunReport report;
    const cv::Mat out = runStreamed(src, chain, options, &report);
    ASSERT_EQ(report.stepMethods.size(), 1U);
    EXPECT_NE(report.stepMethods.front(), Method::Fft);
    EXPECT_TRUE(report.fallback.empty()) << report.fallback;
    EXPECT_EQ(report.cpuFallbackTiles, 0);
    const cv::Mat ref = filters::applyCpu(src, chain);
    const double tol = test::tolerance(report.stepMethods.front(), chain.steps.front(), src, ref.depth());
    const test::Diff diff = test::compareImages(out, ref, tol);
    EXPECT_EQ(diff.over, 0U) << diff.where() << test::seedNote(seed_);
}

}  // namespace
}  // namespace tessera::gpu
