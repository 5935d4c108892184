// SPDX-License-Identifier: Apache-2.0
// The fallback policy of a Pipeline, decided in one place and recorded in the report, and the
// CPU as a slot of its own: runs on any machine (the failing GPUs do not exist, or faults are
// injected into CPU slots).

#include "tessera/gpu/engine.h"

#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "tessera/gpu/cuda_error.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <opencv2/core.hpp>

#include <chrono>
#include <random>
#include <thread>

namespace tessera::gpu {
namespace {

using filters::testing::freshSeed;
using filters::testing::seedNote;

double maxDiff(const cv::Mat& a, const cv::Mat& b)
{
    if (a.size() != b.size() || a.type() != b.type()) {
        return -1.0;
    }
    return cv::norm(a, b, cv::NORM_INF);
}

const DeviceSlot kMissingGpu{DeviceId{99}, 0, 1.0};
const DeviceSlot kCpu{DeviceId::cpu(), 0, 1.0};

cv::Mat randomImage(int rows, int cols, int type)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    return filters::testing::randomImage(rows, cols, type, rng);
}

TEST(FallbackPolicy, TheDefaultIsTheCpuPathAndEveryReportSaysWhichPolicyRan)
{
    EXPECT_EQ(RunOptions{}.fallback, Fallback::Cpu);
    const cv::Mat src = randomImage(33, 41, CV_8UC1);
    const filters::FilterChain chain{{filters::makeBox(3)}};
    for (const Fallback policy : {Fallback::None, Fallback::OtherGpus, Fallback::Cpu}) {
        SCOPED_TRACE(toString(policy));
        RunOptions o;
        o.deviceSlots = cpuSlots();
        o.fallback = policy;
        RunReport report;
        const cv::Mat out = runStreamed(src, chain, o, &report);
        EXPECT_EQ(maxDiff(out, filters::applyCpu(src, chain)), 0.0);
        EXPECT_EQ(report.policy, policy);
        EXPECT_FALSE(report.fellBack.happened());
        EXPECT_TRUE(report.fellBack.describe().empty());
        EXPECT_TRUE(report.fallback.empty());
    }
}

TEST(FallbackPolicy, StreamedCpuPolicyRecordsWhatFellBackFromWhereToWhere)
{
    const cv::Mat src = randomImage(48, 40, CV_8UC3);
    const filters::FilterChain chain{{filters::makeGaussian(1.0, 5)}};
    RunOptions o;
    o.deviceSlots = {kMissingGpu};
    o.tileSize = TileSize{16, 16};
    RunReport report;
    const cv::Mat out = runStreamed(src, chain, o, &report);
    EXPECT_EQ(maxDiff(out, filters::applyCpu(src, chain)), 0.0);
    EXPECT_EQ(report.fellBack.from, std::vector<DeviceId>{DeviceId{99}});
    EXPECT_EQ(report.fellBack.to, std::vector<DeviceId>{DeviceId::cpu()});
    EXPECT_EQ(report.fellBack.tiles, report.cpuFallbackTiles);
    EXPECT_EQ(report.fellBack.tiles, 9);
    EXPECT_NE(report.fellBack.reason.find("GPU 99"), std::string::npos) << report.fellBack.reason;
    EXPECT_NE(report.fellBack.describe().find("9 tiles on CPU"), std::string::npos) << report.fellBack.describe();
    EXPECT_FALSE(report.fallback.empty());
}

TEST(FallbackPolicy, StreamedOtherGpusLetsTheOtherSlotsFinishButNeverTheCpuPathInTheirPlace)
{
    const cv::Mat src = randomImage(40, 56, CV_16UC1);
    const filters::FilterChain chain{{filters::makeBox(5)}};
    RunOptions o;
    o.deviceSlots = {kMissingGpu, kCpu};
    o.tileSize = TileSize{16, 16};
    o.fallback = Fallback::OtherGpus;
    RunReport report;
    const cv::Mat out = runStreamed(src, chain, o, &report);
    EXPECT_EQ(maxDiff(out, filters::applyCpu(src, chain)), 0.0);
    EXPECT_EQ(report.fellBack.from, std::vector<DeviceId>{DeviceId{99}});
    EXPECT_EQ(report.fellBack.to, std::vector<DeviceId>{DeviceId::cpu()});  // the CPU slot, a slot of the run
    EXPECT_EQ(report.cpuFallbackTiles, 0);
    EXPECT_EQ(report.fellBack.tiles, 0);
    EXPECT_TRUE(report.fallback.empty()) << report.fallback;

    o.deviceSlots = {kMissingGpu};
    try {
        runStreamed(src, chain, o);
        ADD_FAILURE() << "a run with no slot left must fail under OtherGpus";
    } catch (const DeviceFailed& e) {
        EXPECT_NE(std::string(e.what()).find("GPU 99"), std::string::npos) << e.what();
        EXPECT_EQ(e.report().fellBack.from, std::vector<DeviceId>{DeviceId{99}});
        EXPECT_TRUE(e.report().fellBack.to.empty());
        EXPECT_EQ(e.report().policy, Fallback::OtherGpus);
    }
}

TEST(FallbackPolicy, StreamedNoneThrowsInsteadOfLettingAnotherDeviceStandIn)
{
    const cv::Mat src = randomImage(32, 32, CV_8UC1);
    const filters::FilterChain chain{{filters::makeBox(3)}};
    RunOptions o;
    o.deviceSlots = {kMissingGpu, kCpu};
    o.fallback = Fallback::None;
    EXPECT_THROW(runStreamed(src, chain, o), DeviceFailed);

    // A slot failing in the middle of the run: its tiles go nowhere and the run throws.
    o.deviceSlots = {kCpu, kCpu};
    o.tileSize = TileSize{8, 8};
    // Slot 0 holds back until slot 1 has taken a tile and failed (10 s at most), so the fault
    // happens on every machine however the threads are scheduled.
    auto slot1Failed = std::make_shared<std::atomic<bool>>(false);
    o.fault = [slot1Failed](SlotIndex slot, int, Phase) {
        if (slot == SlotIndex{1}) {
            slot1Failed->store(true);
            throw CudaError(999, "injected", __FILE__, __LINE__, "slot 1 is broken");
        }
        for (int i = 0; i < 10'000 && !slot1Failed->load(); ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    };
    try {
        runStreamed(src, chain, o);
        ADD_FAILURE() << "a failing slot must fail the run under None";
    } catch (const DeviceFailed& e) {
        EXPECT_EQ(e.report().fellBack.from, std::vector<DeviceId>{DeviceId::cpu()});
        EXPECT_NE(e.report().fellBack.reason.find("slot 1 is broken"), std::string::npos) << e.report().fellBack.reason;
    }
    // The same fault under the default policy: the other slot takes the tiles, the report says so.
    o.fallback = Fallback::Cpu;
    slot1Failed->store(false);  // slot 0 waits again for slot 1 to fail
    RunReport report;
    const cv::Mat out = runStreamed(src, chain, o, &report);
    EXPECT_EQ(maxDiff(out, filters::applyCpu(src, chain)), 0.0);
    EXPECT_TRUE(report.fellBack.happened());
    EXPECT_EQ(report.fellBack.to, std::vector<DeviceId>{DeviceId::cpu()});
}

TEST(FallbackPolicy, ResidentPolicyOtherThanCpuFailsTheRunAndKeepsNoFailedState)
{
    const cv::Mat src = randomImage(30, 20, CV_32FC1);
    const filters::FilterChain chain{{filters::makeSharpen(0.5)}};
    for (const Fallback policy : {Fallback::None, Fallback::OtherGpus}) {
        SCOPED_TRACE(toString(policy));
        RunOptions o;
        o.placement = Placement::Resident;
        o.deviceSlots = {kMissingGpu};
        o.fallback = policy;
        Pipeline pipeline(o);
        cv::Mat out;
        for (int attempt = 0; attempt < 2; ++attempt) {  // each run tries the GPUs again
            try {
                pipeline.run(src, chain, out);
                ADD_FAILURE() << "the run must fail";
            } catch (const DeviceFailed& e) {
                EXPECT_EQ(e.report().fellBack.from, std::vector<DeviceId>{DeviceId{99}});
                EXPECT_TRUE(e.report().fellBack.to.empty());
                EXPECT_EQ(e.report().placement, Placement::Resident);
                EXPECT_EQ(std::string(e.what()).find("earlier failure"), std::string::npos) << e.what();
            }
        }
    }
}

TEST(FallbackPolicy, ResidentCpuPolicyRecordsTheFallbackOnEveryRunUntilTheOptionsChange)
{
    const cv::Mat src = randomImage(30, 20, CV_8UC1);
    const filters::FilterChain chain{{filters::makeBox(3)}};
    RunOptions o;
    o.placement = Placement::Resident;
    o.deviceSlots = {kMissingGpu};
    Pipeline pipeline(o);
    cv::Mat out;
    RunReport first;
    pipeline.run(src, chain, out, &first);
    EXPECT_EQ(first.fellBack.from, std::vector<DeviceId>{DeviceId{99}});
    EXPECT_EQ(first.fellBack.to, std::vector<DeviceId>{DeviceId::cpu()});
    EXPECT_EQ(first.fellBack.tiles, 1);
    EXPECT_NE(first.fellBack.describe().find("GPU 99 failed"), std::string::npos) << first.fellBack.describe();
    RunReport second;
    pipeline.run(src, chain, out, &second, cv::Rect(2, 3, 10, 10));
    EXPECT_EQ(second.fellBack, first.fellBack);
    pipeline.setOptions(o);
    RunReport third;
    pipeline.run(src, chain, out, &third);
    EXPECT_EQ(third.fellBack, first.fellBack);  // tried again and failed again, as it says
    ASSERT_FALSE(third.events.empty());
    EXPECT_EQ(third.events[0].find("earlier failure"), std::string::npos);
}

TEST(CpuSlot, AResidentPipelineOnTheCpuAloneAnswersRegionsWithNoFallback)
{
    const cv::Mat src = randomImage(45, 37, CV_16UC3);
    const filters::FilterChain chain{{filters::makeGaussian(1.2, 7), filters::makeBox(3)}};
    RunOptions o;
    o.placement = Placement::Resident;
    o.deviceSlots = cpuSlots();
    Pipeline pipeline(o);
    const cv::Rect region(5, 7, 20, 11);
    cv::Mat out;
    RunReport report;
    ASSERT_TRUE(pipeline.run(src, chain, out, &report, region));
    EXPECT_EQ(maxDiff(out, filters::applyCpuRegion(src, chain, region)), 0.0);
    EXPECT_FALSE(report.fellBack.happened());
    EXPECT_TRUE(report.fallback.empty());
    EXPECT_TRUE(report.events.empty());
    ASSERT_EQ(report.records.size(), 1u);
    EXPECT_EQ(report.records[0].device, DeviceId::cpu());
    EXPECT_EQ(report.records[0].label, "cpu");
    EXPECT_EQ(report.records[0].width, region.width);
    ASSERT_TRUE(pipeline.run(src, chain, out, &report));
    EXPECT_EQ(maxDiff(out, filters::applyCpu(src, chain)), 0.0);
    EXPECT_TRUE(pipeline.bands().empty());
    EXPECT_THROW(pipeline.runInPlace(src, chain), std::invalid_argument);
}

TEST(CpuSlot, AStreamedRunOnTheCpuAloneIsOneTileEqualToTheUntiledPath)
{
    // A large kernel on floats, where OpenCV may filter through the DFT: one tile keeps the
    // result identical to the whole-image call.
    const cv::Mat src = randomImage(300, 280, CV_32FC1);
    const filters::FilterChain chain{{filters::makeGaussian(4.0, 25)}};
    RunOptions o;
    o.deviceSlots = cpuSlots();
    RunReport report;
    const cv::Mat out = runStreamed(src, chain, o, &report);
    EXPECT_EQ(maxDiff(out, filters::applyCpu(src, chain)), 0.0);
    EXPECT_EQ(report.tiles.size(), 1u);
    ASSERT_EQ(report.slotReports.size(), 1u);
    EXPECT_EQ(report.slotReports[0].tiles, 1);
    EXPECT_TRUE(report.devicesUsed().empty());
}

TEST(ImagePlacement, LargeImagesSpreadOverEveryGpuAndOthersGoWholeToOne)
{
    EXPECT_EQ(kSpreadPixels, std::size_t{24} << 20);
    EXPECT_TRUE(spreadOverAllGpus(kSpreadPixels, 2));
    EXPECT_TRUE(spreadOverAllGpus(std::size_t{6000} * 5000, 8));
    EXPECT_FALSE(spreadOverAllGpus(kSpreadPixels - 1, 2));
    EXPECT_FALSE(spreadOverAllGpus(std::size_t{4000} * 3000, 4));
    // One GPU (or none) has no others to share a large image with.
    EXPECT_FALSE(spreadOverAllGpus(kSpreadPixels * 4, 1));
    EXPECT_FALSE(spreadOverAllGpus(kSpreadPixels * 4, 0));
}

}  // namespace
}  // namespace tessera::gpu

namespace tessera::gpu {
namespace {

TEST(FallbackRule, OneTableForEveryPlacementAndMoment)
{
    using Action = FallbackStep::Action;
    // Nothing lost, nothing orphaned: every policy proceeds.
    for (const Fallback policy : {Fallback::None, Fallback::OtherGpus, Fallback::Cpu}) {
        EXPECT_EQ(decideFallback(policy, false, true, 0).action, Action::Proceed) << toString(policy);
    }
    // A lost slot: None refuses even where others could take the work.
    const FallbackStep none = decideFallback(Fallback::None, true, true, 0);
    EXPECT_EQ(none.action, Action::Refuse);
    EXPECT_EQ(none.why, "no other device may run its work under the fallback policy none");
    // Streamed tiles move to the slots left under OtherGpus and Cpu.
    EXPECT_EQ(decideFallback(Fallback::OtherGpus, true, true, 0).action, Action::Proceed);
    EXPECT_EQ(decideFallback(Fallback::Cpu, true, true, 0).action, Action::Proceed);
    // No slot left (or resident bands, which cannot move): only Cpu goes on, on the CPU path.
    const FallbackStep stuck = decideFallback(Fallback::OtherGpus, true, false, 0);
    EXPECT_EQ(stuck.action, Action::Refuse);
    EXPECT_EQ(stuck.why, "no slot is left to run the work under the fallback policy other-gpus");
    EXPECT_EQ(decideFallback(Fallback::Cpu, true, false, 0).action, Action::CpuTakes);
    const FallbackStep band = decideFallback(Fallback::OtherGpus, true, false, 1);
    EXPECT_EQ(band.action, Action::Refuse);
    EXPECT_EQ(band.why, "1 piece of work left with no slot to run it under the fallback policy other-gpus");
    EXPECT_EQ(decideFallback(Fallback::Cpu, true, false, 1).action, Action::CpuTakes);
    // Tiles left over after the slots finished: the CPU path takes them, or the run fails.
    EXPECT_EQ(decideFallback(Fallback::Cpu, true, true, 3).action, Action::CpuTakes);
    EXPECT_EQ(decideFallback(Fallback::OtherGpus, true, true, 3).why,
              "3 pieces of work left with no slot to run it under the fallback policy other-gpus");
}

}  // namespace
}  // namespace tessera::gpu
