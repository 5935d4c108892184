// SPDX-License-Identifier: Apache-2.0
// A streamed pipeline keeps one thread per slot from run to run: no thread is started per run,
// the same threads take every run's tiles, and a run's cancel flag comes with the run.

#include "tessera/gpu/engine.h"

#include "filters/cpu_executor.h"
#include "filters/factories.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace tessera::gpu {
namespace {

RunOptions cpuOptions(int slots)
{
    RunOptions options;
    options.deviceSlots.assign(static_cast<std::size_t>(slots), DeviceSlot{DeviceId::cpu(), 0, 1.0});
    options.tileSize = TileSize{32, 32};
    return options;
}

cv::Mat randomImage(int rows, int cols)
{
    cv::Mat m(rows, cols, CV_8UC3);
    cv::randu(m, 0, 256);
    return m;
}

const filters::FilterChain& chain()
{
    static const filters::FilterChain c{{filters::makeGaussian(1.0, 5)}};
    return c;
}

// Which thread ran which slot's tiles, over every run of a pipeline.
struct ThreadLog {
    std::mutex mutex;
    std::map<SlotIndex, std::set<std::thread::id>> bySlot;

    FaultHook hook()
    {
        return [this](SlotIndex slot, int, Phase) {
            const std::lock_guard lock(mutex);
            bySlot[slot].insert(std::this_thread::get_id());
        };
    }
};

TEST(SlotWorkers, StartedOncePerSlotAndReusedByEveryRun)
{
    ThreadLog log;
    RunOptions options = cpuOptions(3);
    options.fault = log.hook();
    Pipeline pipeline(options);
    const std::uint64_t before = slotWorkerStarts();
    const cv::Mat src = randomImage(150, 170);
    const cv::Mat want = filters::applyCpu(src, chain());
    for (int run = 0; run < 6; ++run) {
        cv::Mat dst;
        ASSERT_TRUE(pipeline.run(src, chain(), dst));
        ASSERT_EQ(cv::norm(dst, want, cv::NORM_INF), 0.0) << "run " << run;
    }
    EXPECT_EQ(slotWorkerStarts() - before, 3u) << "one thread per slot for six runs";
    std::set<std::thread::id> all;
    for (const auto& [slot, ids] : log.bySlot) {
        EXPECT_EQ(ids.size(), 1u) << "slot " << slot.value() << " ran on more than one thread";
        all.insert(ids.begin(), ids.end());
        EXPECT_EQ(ids.count(std::this_thread::get_id()), 0u)
            << "slot " << slot.value() << " ran on the caller's thread";
    }
    EXPECT_EQ(all.size(), log.bySlot.size()) << "two slots shared a thread";
}

// A lone CPU slot has no queue to share: its tiles run on the caller's thread, with no thread
// started and the same pixels.
TEST(SlotWorkers, ALoneCpuSlotRunsOnTheCallersThread)
{
    ThreadLog log;
    RunOptions options = cpuOptions(1);
    options.tileSize = TileSize{40, 50};  // several tiles, all on this thread
    options.fault = log.hook();
    Pipeline pipeline(options);
    const std::uint64_t before = slotWorkerStarts();
    const cv::Mat src = randomImage(150, 170);
    cv::Mat dst;
    RunReport report;
    ASSERT_TRUE(pipeline.run(src, chain(), dst, &report));
    EXPECT_EQ(cv::norm(dst, filters::applyCpu(src, chain()), cv::NORM_INF), 0.0);
    EXPECT_EQ(slotWorkerStarts() - before, 0u);
    ASSERT_EQ(log.bySlot.size(), 1u);
    EXPECT_EQ(log.bySlot[SlotIndex{0}], std::set<std::thread::id>{std::this_thread::get_id()});
    ASSERT_EQ(report.slotReports.size(), 1u);
    EXPECT_GT(report.slotReports[0].tiles, 1);
}

TEST(SlotWorkers, NewOptionsKeepTheThreadsOfUnchangedSlots)
{
    Pipeline pipeline(cpuOptions(2));
    const cv::Mat src = randomImage(90, 110);
    cv::Mat dst;
    const std::uint64_t before = slotWorkerStarts();
    ASSERT_TRUE(pipeline.run(src, chain(), dst));
    EXPECT_EQ(slotWorkerStarts() - before, 2u);

    RunOptions same = cpuOptions(2);
    same.tileSize = TileSize{24, 40};
    pipeline.setOptions(same);
    ASSERT_TRUE(pipeline.run(src, chain(), dst));
    EXPECT_EQ(slotWorkerStarts() - before, 2u) << "same slots, same threads";

    pipeline.setOptions(cpuOptions(3));
    ASSERT_TRUE(pipeline.run(src, chain(), dst));
    EXPECT_EQ(slotWorkerStarts() - before, 3u) << "only the new slot starts a thread";
    EXPECT_EQ(cv::norm(dst, filters::applyCpu(src, chain()), cv::NORM_INF), 0.0);
}

TEST(SlotWorkers, TheRunsCancelFlagStopsItWithoutNewOptions)
{
    Pipeline pipeline(cpuOptions(2));
    const cv::Mat src = randomImage(200, 200);
    std::atomic<bool> cancel{true};
    RunControl control;
    control.cancel = &cancel;
    cv::Mat dst;
    RunReport report;
    EXPECT_FALSE(pipeline.run(src, chain(), dst, control, &report));
    EXPECT_TRUE(report.cancelled);
    EXPECT_EQ(pipeline.options().cancel, nullptr) << "the options were not rewritten";

    cancel = false;
    ASSERT_TRUE(pipeline.run(src, chain(), dst, control, &report));
    EXPECT_FALSE(report.cancelled);
    EXPECT_EQ(cv::norm(dst, filters::applyCpu(src, chain()), cv::NORM_INF), 0.0);

    // The options' own flag still cancels a run that brings none.
    std::atomic<bool> optionsCancel{true};
    RunOptions options = cpuOptions(2);
    options.cancel = &optionsCancel;
    pipeline.setOptions(options);
    EXPECT_FALSE(pipeline.run(src, chain(), dst));
    // A run's own flag replaces it.
    EXPECT_TRUE(pipeline.run(src, chain(), dst, control));
}

TEST(SlotWorkers, EachPipelineHasThreadsOfItsOwn)
{
    const std::uint64_t before = slotWorkerStarts();
    for (int i = 0; i < 4; ++i) {
        Pipeline pipeline(cpuOptions(2));
        cv::Mat dst;
        ASSERT_TRUE(pipeline.run(randomImage(64, 64), chain(), dst));
    }
    EXPECT_EQ(slotWorkerStarts() - before, 8u) << "two per pipeline, each pipeline its own";
}

}  // namespace
}  // namespace tessera::gpu
