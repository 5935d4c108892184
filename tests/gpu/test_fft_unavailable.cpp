// SPDX-License-Identifier: Apache-2.0
// A process in which cuFFT cannot be opened (TESSERA_CUFFT_LIBRARY names a file that is not
// there, set before anything asks for cuFFT): the FFT method is reported unavailable with the
// reason, the planner never picks it, forcing it throws NotSupported with that reason, and every
// other method still plans. No GPU needed: plans are made for a described H200.

#include "gpu/runtime/cufft_loader.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/engine.h"
#include "tessera/gpu/executor.h"
#include "gpu/plan/variant_support.h"
#include "planner_grid.h"
#include "values/errors.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace tessera::gpu {
namespace {

const std::string kMissing = "/nonexistent/" + detail::cufftSoname();

// Before main(), so that the process-wide loader sees it on its first (and only) search.
const bool kCufftDisabled = ::setenv(detail::kCufftLibraryVariable, kMissing.c_str(), 1) == 0;

const std::string kExpected = "FFT method unavailable: " + detail::cufftSoname() + " not found (tried " + kMissing +
                              " (from TESSERA_CUFFT_LIBRARY)); install the CUDA toolkit's cuFFT or set "
                              "TESSERA_CUFFT_LIBRARY to its full path";

using V = KernelVariant;

TEST(FftUnavailable, TheLoaderSaysWhyNamingThePathTried)
{
    ASSERT_TRUE(kCufftDisabled);
    const detail::CufftLibrary& lib = detail::cufftLibrary();
    EXPECT_FALSE(lib.available());
    EXPECT_EQ(lib.error(), kExpected);
    try {
        detail::cufftApi();
        ADD_FAILURE() << "expected NotSupported";
    } catch (const NotSupported& e) {
        EXPECT_EQ(std::string(e.what()), kExpected);
    }
}

TEST(FftUnavailable, DeviceInfoCarriesTheReason)
{
    const DeviceSnapshot snap = enumerateDevices();
    EXPECT_FALSE(snap.fftAvailable());
    EXPECT_EQ(snap.cufftVersion, 0);
    EXPECT_EQ(snap.fft, kExpected);
}

TEST(FftUnavailable, TheVariantRefusesWithTheReason)
{
    const DeviceInfo d = test::describedH200();
    const filters::FilterSpec spec = test::denseSpec(31);
    const PixelFormat f32x1{PixelDepth::F32, 1};
    const auto q = detail::makeShapeQuery(spec, f32x1, f32x1, 640, 480, d);
    const Support s = detail::canImplement(V::Fft, q);
    EXPECT_FALSE(s.ok);
    EXPECT_EQ(s.reason, kExpected);
}

TEST(FftUnavailable, ForcingTheFftThrowsNotSupportedWithTheReason)
{
    const DeviceInfo d = test::describedH200();
    try {
        makePlan(test::denseSpec(31), {PixelDepth::F32, 1}, 640, 480, d, Method::Fft);
        ADD_FAILURE() << "expected NotSupported";
    } catch (const NotSupported& e) {
        EXPECT_EQ(std::string(e.what()), kExpected);
    }
    EXPECT_THROW(requireMethod(Method::Fft), NotSupported);
    for (Method m : {Method::Auto, Method::Direct, Method::Separable}) {
        EXPECT_NO_THROW(requireMethod(m)) << toString(m);
    }
}

TEST(FftUnavailable, APipelineForcedOntoTheFftOnAGpuRefusesUpFront)
{
    RunOptions gpuRun;
    gpuRun.deviceSlots = slotsFor({DeviceId{0}});
    gpuRun.method = Method::Fft;
    try {
        Pipeline pipeline(gpuRun);
        ADD_FAILURE() << "expected NotSupported";
    } catch (const NotSupported& e) {
        EXPECT_EQ(std::string(e.what()), kExpected);
    }
}

TEST(FftUnavailable, AutomaticChoiceNeverTakesTheFftAndEveryOtherMethodPlans)
{
    const DeviceInfo d = test::describedH200();
    for (PixelDepth depth : test::kGridDepths) {
        for (int channels : test::kGridChannels) {
            for (int k : test::kGridSizes) {
                for (bool separable : {false, true}) {
                    const PixelFormat format{depth, channels};
                    const filters::FilterSpec spec = separable ? test::separableSpec(k) : test::denseSpec(k);
                    SCOPED_TRACE(format.name() + " " + std::to_string(k) + (separable ? " rank 1" : " dense"));
                    for (TensorCores t : {TensorCores::Auto, TensorCores::Off}) {
                        const Plan plan =
                            makePlan(spec, format, test::kGridWidth, test::kGridHeight, d, Method::Auto, t);
                        EXPECT_NE(plan.method, Method::Fft) << plan.describe();
                        EXPECT_NE(plan.shape.variant, V::Fft) << plan.describe();
                        EXPECT_NO_THROW(
                            makePlan(spec, format, test::kGridWidth, test::kGridHeight, d, Method::Direct, t));
                        if (separable) {
                            EXPECT_NO_THROW(
                                makePlan(spec, format, test::kGridWidth, test::kGridHeight, d, Method::Separable, t));
                        }
                    }
                }
            }
        }
    }
    // The case the FFT takes when cuFFT is there goes to a direct kernel instead.
    const Plan dense31 = makePlan(test::denseSpec(31), {PixelDepth::F32, 1}, 8192, 8192, d);
    EXPECT_EQ(dense31.method, Method::Direct) << dense31.describe();
}

TEST(FftUnavailable, WhenNoMethodFitsTheReasonsOfAllAreGiven)
{
    // 48 KiB per block cannot hold a 255 x 255 window of four float channels, the kernel is not
    // rank 1, and the FFT, which would take it, is missing.
    DeviceInfo small = test::describedH200();
    small.sharedMemPerBlockOptin = 0;
    try {
        makePlan(test::denseSpec(255), {PixelDepth::F32, 4}, 640, 480, small);
        ADD_FAILURE() << "expected NotSupported";
    } catch (const NotSupported& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("no GPU method can run this filter"), std::string::npos) << what;
        EXPECT_NE(what.find("shared memory"), std::string::npos) << what;
        EXPECT_NE(what.find(kExpected), std::string::npos) << what;
    }
}

}  // namespace
}  // namespace tessera::gpu
