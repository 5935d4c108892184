// SPDX-License-Identifier: Apache-2.0
// The batch's processors on their own: what a lease's bytes decide and what the CPU processor
// gives back. The runner's tests (tests/app/test_batch_runner.cpp) drive them through runBatch.
#include "app/batch/batch_devices.h"
#include "app/devices/device_scheduler.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>

#include <atomic>

namespace tessera::app {
namespace {

filters::FilterChain testChain()
{
    return {{filters::makeGaussian(1.0, 5), filters::makeBox(3)}};
}

// The bytes a batch lease grants are the run's budget: under a small budget on the CPU the
// processor cuts the image in tiles that fit it, with no budget it takes the image whole, and
// the result is the CPU path's either way.
TEST(BatchLeaseBudget, TheGrantedBytesDecideTheTiles)
{
    cv::Mat src(240, 320, CV_8UC3);
    cv::randu(src, 0, 256);
    const filters::FilterChain chain = testChain();
    const cv::Mat want = filters::applyCpu(src, chain);
    std::atomic<bool> cancel{false};

    DeviceScheduler open;
    open.setRecording(true);
    const ProcessOutcome whole = makeProcessors({}, open).front()(src, chain, cancel);
    ASSERT_FALSE(whole.image.empty());
    EXPECT_EQ(whole.tiles, 1u);
    EXPECT_EQ(cv::norm(whole.image, want, cv::NORM_INF), 0.0);
    ASSERT_EQ(open.intervals().size(), 1u);
    const std::uint64_t asked = open.intervals().front().grantedBytes;
    EXPECT_GE(asked, 2 * src.total() * src.elemSize()) << "source and result at least";

    DeviceScheduler tight;
    tight.setRecording(true);
    tight.setBudget(values::DeviceId::cpu(), asked / 8);
    const ProcessOutcome tiled = makeProcessors({}, tight).front()(src, chain, cancel);
    ASSERT_FALSE(tiled.image.empty());
    EXPECT_GT(tiled.tiles, 4u) << "an eighth of the bytes, still one piece";
    EXPECT_EQ(cv::norm(tiled.image, want, cv::NORM_INF), 0.0);
    ASSERT_EQ(tight.intervals().size(), 1u);
    EXPECT_EQ(tight.intervals().front().grantedBytes, asked / 8);
}

// The CPU processor is a pipeline on the CPU slot: the untiled CPU result, and nothing when the
// batch is cancelled.
TEST(BatchCpuProcessor, RunsThePipelinesCpuSlotAndHonoursCancel)
{
    cv::Mat src(61, 83, CV_8UC3);
    cv::randu(src, 0, 256);
    const filters::FilterChain chain = testChain();
    const BatchProcessor cpu = cpuProcessor();
    std::atomic<bool> cancel{false};
    const ProcessOutcome done = cpu(src, chain, cancel);
    EXPECT_EQ(done.device, "CPU");
    ASSERT_FALSE(done.image.empty());
    EXPECT_EQ(cv::norm(done.image, filters::applyCpu(src, chain), cv::NORM_INF), 0.0);
    EXPECT_GE(done.milliseconds, 0.0);
    cancel = true;
    EXPECT_TRUE(cpu(src, chain, cancel).image.empty());
}

}  // namespace
}  // namespace tessera::app
