// SPDX-License-Identifier: Apache-2.0
// DeviceChain runs a chain on device images on the caller's stream: the results of the CPU
// path for every format, with the scratch given or taken stream-ordered, on crops of larger
// images, and the refusals of images that do not fit the plan.

#include "gpu_test_util.h"

#include "gpu/exec/chain_runner.h"
#include "tessera/gpu/device_chain.h"
#include "values/errors.h"

#include <opencv2/core.hpp>

namespace tessera::gpu {
namespace {

using test::GpuTest;

class DeviceChainTest : public GpuTest {};

filters::FilterChain twoSteps(std::mt19937_64& rng, filters::Border border, filters::OutputDepth lastDepth)
{
    filters::FilterChain chain;
    chain.steps.push_back(filters::makeGaussian(1.5, 0));
    chain.steps.push_back(test::randomDenseSpec(5, 3, rng));
    for (auto& s : chain.steps) {
        s.border = border;
        s.borderValue = 3.0;
    }
    chain.steps.back().depth = lastDepth;
    return chain;
}

/// Runs the chain through DeviceChain on a padded device image and downloads the result.
cv::Mat runOnDevice(const DeviceChain& planned, const cv::Mat& src, const Stream& stream, bool giveScratch)
{
    const DeviceId device = planned.device();
    auto in = test::allocateImage(src.cols, src.rows, pixelFormatFromCvType(src.type()), device, true);
    auto out = test::allocateImage(src.cols, src.rows, planned.output(), device, true);
    test::upload(in, src, stream);
    out.buffer.fillAsync(test::kPoison, stream);
    RawDeviceBuffer scratch(giveScratch ? std::max<std::size_t>(planned.scratchBytes(), 1) : 0, device);
    planned.run(in.image, out.image, giveScratch ? scratch.data() : nullptr, stream);
    auto raw = test::downloadRaw(out, stream);
    EXPECT_EQ(test::guardDamage(raw, out, test::kPoison), "");
    return test::imageFromRaw(raw, out).clone();
}

TEST_F(DeviceChainTest, MatchesTheCpuPathForEveryFormat)
{
    std::size_t index = 0;
    for (PixelDepth depth : test::kDepths) {
        for (int channels : test::kChannels) {
            for (filters::Border border :
                 {filters::Border::Reflect101, filters::Border::Constant, filters::Border::Wrap}) {
                auto rng = test::caseRng(seed_, 0xDC, index++);
                const PixelFormat format{depth, channels};
                const cv::Mat src = test::randomImage(61, 47, format, rng);
                const auto chain = twoSteps(rng, border, filters::OutputDepth::F32);
                const DeviceChain planned(chain, format, src.cols, src.rows, device_.id);
                EXPECT_EQ(planned.output(), (PixelFormat{PixelDepth::F32, channels}));
                EXPECT_EQ(planned.describe().size(), 2U);
                const cv::Mat expected = filters::applyCpu(src, chain);
                for (bool giveScratch : {true, false}) {
                    const cv::Mat got = runOnDevice(planned, src, stream(), giveScratch);
                    // The intermediate step rounds into the input depth on both sides: one
                    // step of it may differ, scaled by the second kernel.
                    const double tol =
                        (depth == PixelDepth::F32 ? 1e-4 : 1.0) * test::sumAbs(chain.steps[1].kernel.weights) * 2.0 +
                        1e-3;
                    EXPECT_LE(cv::norm(got, expected, cv::NORM_INF), tol)
                        << format.name() << " " << filters::toString(border) << " " << test::seedNote(seed_);
                }
            }
        }
    }
}

TEST_F(DeviceChainTest, ReadsACropInPlace)
{
    auto rng = test::caseRng(seed_, 0xDD, 0);
    const PixelFormat format{PixelDepth::U8, 4};
    const cv::Mat whole = test::randomImage(80, 96, format, rng);
    const cv::Rect crop(8, 5, 64, 50);
    filters::FilterChain chain;
    chain.steps.push_back(filters::makeBox(3, true));
    const DeviceChain planned(chain, format, crop.width, crop.height, device_.id);
    auto in = test::allocateImage(whole.cols, whole.rows, format, device_.id, false);
    test::upload(in, whole, stream());
    DeviceImage view = in.image;
    view.data = static_cast<char*>(in.image.data) + crop.y * in.image.pitch + crop.x * format.bytesPerPixel();
    view.width = crop.width;
    view.height = crop.height;
    auto out = test::allocateImage(crop.width, crop.height, format, device_.id, false);
    planned.run(view, out.image, nullptr, stream());
    auto raw = test::downloadRaw(out, stream());
    const cv::Mat got = test::imageFromRaw(raw, out);
    const cv::Mat expected = filters::applyCpu(whole(crop).clone(), chain);
    EXPECT_LE(cv::norm(got, expected, cv::NORM_INF), 1.0);
}

TEST_F(DeviceChainTest, RefusesImagesThatDoNotFitThePlan)
{
    filters::FilterChain chain;
    chain.steps.push_back(filters::makeBox(3, true));
    const PixelFormat f32x4{PixelDepth::F32, 4};
    const DeviceChain planned(chain, f32x4, 32, 16, device_.id);
    auto in = test::allocateImage(32, 16, f32x4, device_.id, false);
    auto out = test::allocateImage(32, 16, f32x4, device_.id, false);
    DeviceImage wrongSize = in.image;
    wrongSize.width = 31;
    EXPECT_THROW(planned.run(wrongSize, out.image, nullptr, stream()), InvalidInput);
    DeviceImage misaligned = in.image;
    misaligned.data = static_cast<char*>(in.image.data) + 4;
    misaligned.width = 31;
    const DeviceChain narrow(chain, f32x4, 31, 16, device_.id);
    auto narrowOut = test::allocateImage(31, 16, f32x4, device_.id, false);
    EXPECT_THROW(narrow.run(misaligned, narrowOut.image, nullptr, stream()), InvalidInput);
    EXPECT_THROW(planned.run(in.image, in.image, nullptr, stream()), InvalidInput);
    EXPECT_THROW(DeviceChain(filters::FilterChain{}, f32x4, 32, 16, device_.id), InvalidInput);
    EXPECT_THROW(DeviceChain(chain, f32x4, 32, 16, DeviceId(999)), InvalidInput);
}

TEST_F(DeviceChainTest, ARunReportsItsDeviceMethodsAndStepTimes)
{
    auto rng = test::caseRng(seed_, 0xDE, 0);
    const PixelFormat format{PixelDepth::U8, 3};
    const cv::Mat src = test::randomImage(257, 131, format, rng);
    const auto chain = twoSteps(rng, filters::Border::Reflect101, filters::OutputDepth::Same);
    const DeviceChain planned(chain, format, src.cols, src.rows, device_.id, Method::Separable);
    auto in = test::allocateImage(src.cols, src.rows, format, device_.id, false);
    auto out = test::allocateImage(src.cols, src.rows, planned.output(), device_.id, false);
    test::upload(in, src, stream());

    // The walker's rule: the Gaussian separates, the dense step cannot and plans Auto.
    ASSERT_EQ(planned.plans().size(), 2U);
    EXPECT_EQ(planned.plans()[0].method, Method::Separable);
    EXPECT_NE(planned.plans()[1].method, Method::Separable);

    for (const bool timed : {false, true}) {
        RunReport report;
        planned.run(in.image, out.image, nullptr, stream(), &report, timed);
        stream().synchronize();
        EXPECT_EQ(report.placement, Placement::Device);
        EXPECT_EQ(std::string(toString(report.placement)), "device");
        EXPECT_EQ(report.devicesUsed(), std::vector<DeviceId>{device_.id});
        ASSERT_EQ(report.slotReports.size(), 1U);
        EXPECT_EQ(report.slotReports[0].slot.gpu, device_.id);
        EXPECT_EQ(report.methods, planned.describe());
        ASSERT_EQ(report.stepMethods.size(), 2U);
        EXPECT_EQ(report.stepMethods[0], Method::Separable);
        EXPECT_EQ(report.stepMethods[1], planned.plans()[1].method);
        EXPECT_FALSE(report.fellBack.happened());
        EXPECT_GT(report.wallMs, 0.0);
        ASSERT_EQ(report.records.size(), 2U);
        for (std::size_t i = 0; i < 2; ++i) {
            const TimingRecord& r = report.records[i];
            EXPECT_EQ(r.device, device_.id);
            EXPECT_EQ(r.phase, Phase::Kernel);
            EXPECT_EQ(r.label, toString(planned.plans()[i].method));
            if (timed) {
                EXPECT_GT(r.durationUs(), 0.0) << "step " << i;
                EXPECT_GE(r.beginUs, i == 0 ? 0.0 : report.records[i - 1].endUs - 1e-3);
            } else {
                EXPECT_EQ(r.durationUs(), 0.0);
            }
        }
        if (timed) {
            EXPECT_GT(report.kernelMs(), 0.0);
        }
    }
    // The report is only an addition: the result is the same as a run without one.
    auto raw = test::downloadRaw(out, stream());
    const cv::Mat reported = test::imageFromRaw(raw, out).clone();
    EXPECT_EQ(cv::norm(reported, runOnDevice(planned, src, stream(), false), cv::NORM_INF), 0.0);
}

TEST_F(DeviceChainTest, PlansAsTheChainRunnerDoes)
{
    auto rng = test::caseRng(seed_, 0xDF, 0);
    const PixelFormat format{PixelDepth::F32, 4};
    const auto chain = twoSteps(rng, filters::Border::Replicate, filters::OutputDepth::U8);
    for (const Method method : {Method::Auto, Method::Direct, Method::Separable}) {
        const DeviceChain planned(chain, format, 200, 120, device_.id, method);
        ChainRunner runner(device_);
        const auto& expected = runner.plansFor(chain, format, 200, 120, method);
        ASSERT_EQ(expected.size(), planned.plans().size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            EXPECT_EQ(planned.plans()[i].describe(), expected[i].describe()) << toString(method) << " step " << i;
        }
    }
}

TEST_F(DeviceChainTest, TellsWhichGpuHoldsAPointer)
{
    RawDeviceBuffer buffer(1024, device_.id);
    EXPECT_EQ(deviceOfPointer(buffer.data()), device_.id);
    int onHost = 0;
    EXPECT_THROW(deviceOfPointer(&onHost), InvalidInput);
}

}  // namespace
}  // namespace tessera::gpu
