// SPDX-License-Identifier: Apache-2.0
#include "values/timing_stats.h"

#include <gtest/gtest.h>

namespace {

using tessera::values::computeTimingStats;
using tessera::values::DeviceId;
using tessera::values::DeviceSnapshot;
using tessera::values::Phase;
using tessera::values::TimingRecord;
using tessera::values::TimingStats;

TimingRecord record(int device, int stream, Phase phase, const std::string& label, double begin, double end,
                    std::uint64_t bytes, int width = 0, int height = 0)
{
    TimingRecord r;
    r.device = DeviceId{device};
    r.stream = stream;
    r.phase = phase;
    r.label = label;
    r.beginUs = begin;
    r.endUs = end;
    r.bytes = bytes;
    r.width = width;
    r.height = height;
    return r;
}

/// GPU 0 with 256 GB/s of DRAM bandwidth: 1 GHz memory clock, 1024-bit bus, two transfers a clock.
DeviceSnapshot oneGpu()
{
    DeviceSnapshot snapshot;
    snapshot.devices.resize(1);
    snapshot.devices[0].id = DeviceId{0};
    snapshot.devices[0].name = "Test GPU";
    snapshot.devices[0].memoryClockKHz = 1'000'000;
    snapshot.devices[0].memoryBusWidthBits = 1024;
    return snapshot;
}

std::vector<TimingRecord> handMade()
{
    return {
        record(-1, 0, Phase::Host, "stage input", 0.0, 5.0, 0),
        record(0, 1, Phase::Kernel, "separable", 100.0, 130.0, 1'000'000, 100, 100),
        record(0, 0, Phase::Kernel, "separable", 10.0, 20.0, 1'000'000, 100, 100),
        record(0, 0, Phase::Kernel, "separable", 50.0, 70.0, 1'000'000, 100, 100),
        record(1, 0, Phase::Upload, "", 0.0, 8.0, 800'000, 50, 40),
        record(1, 0, Phase::Upload, "", 10.0, 14.0, 400'000, 50, 40),
        record(0, 0, Phase::Download, "", 20.0, 22.0, 0, 100, 100),
        record(0, 0, Phase::Kernel, "direct", 30.0, 40.0, 0, 0, 0),
    };
}

TEST(TimingStats, GroupsByDevicePhaseAndLabelInDisplayOrder)
{
    const std::vector<TimingStats> stats = computeTimingStats(handMade(), oneGpu());
    ASSERT_EQ(stats.size(), 5u);
    EXPECT_EQ(stats[0].device, DeviceId{0});
    EXPECT_EQ(stats[0].phase, Phase::Kernel);
    EXPECT_EQ(stats[0].label, "direct");
    EXPECT_EQ(stats[1].label, "separable");
    EXPECT_EQ(stats[2].phase, Phase::Download);
    EXPECT_EQ(stats[3].device, DeviceId{1});
    EXPECT_EQ(stats[4].device, DeviceId::cpu());
}

TEST(TimingStats, OddCountGivesExactMinMedianMaxAndRates)
{
    const TimingStats s = computeTimingStats(handMade(), oneGpu())[1];
    EXPECT_EQ(s.count, 3);
    EXPECT_DOUBLE_EQ(s.minUs, 10.0);
    EXPECT_DOUBLE_EQ(s.medianUs, 20.0);
    EXPECT_DOUBLE_EQ(s.maxUs, 30.0);
    EXPECT_DOUBLE_EQ(s.totalUs, 60.0);
    EXPECT_EQ(s.pixels, 30'000u);
    EXPECT_EQ(s.bytes, 3'000'000u);
    EXPECT_DOUBLE_EQ(s.mpixelsPerS, 500.0);  // 30 000 px in 60 us
    EXPECT_DOUBLE_EQ(s.gbPerS, 50.0);        // 3 MB in 60 us
    ASSERT_TRUE(s.percentOfPeak.has_value());
    EXPECT_DOUBLE_EQ(*s.percentOfPeak, 100.0 * 50.0 / 256.0);
}

TEST(TimingStats, EvenCountTakesTheMeanOfTheMiddleTwo)
{
    const TimingStats s = computeTimingStats(handMade(), oneGpu())[3];
    EXPECT_EQ(s.count, 2);
    EXPECT_DOUBLE_EQ(s.minUs, 4.0);
    EXPECT_DOUBLE_EQ(s.medianUs, 6.0);
    EXPECT_DOUBLE_EQ(s.maxUs, 8.0);
    EXPECT_DOUBLE_EQ(s.gbPerS, 100.0);  // 1.2 MB in 12 us
    EXPECT_DOUBLE_EQ(s.mpixelsPerS, 4000.0 / 12.0);
    EXPECT_FALSE(s.percentOfPeak.has_value());  // GPU 1 is not in the snapshot
}

TEST(TimingStats, UnknownBandwidthOrNoBytesLeavesThePercentageEmpty)
{
    const std::vector<TimingStats> stats = computeTimingStats(handMade(), oneGpu());
    EXPECT_FALSE(stats[0].percentOfPeak.has_value());  // no bytes
    EXPECT_DOUBLE_EQ(stats[0].gbPerS, 0.0);
    EXPECT_DOUBLE_EQ(stats[0].mpixelsPerS, 0.0);
    EXPECT_FALSE(stats[4].percentOfPeak.has_value());                           // the CPU
    EXPECT_FALSE(computeTimingStats(handMade())[1].percentOfPeak.has_value());  // no snapshot
}

TEST(TimingStats, EmptyInputGivesNothing)
{
    EXPECT_TRUE(computeTimingStats({}).empty());
    EXPECT_TRUE(tessera::values::timingLanes({}).empty());
    EXPECT_EQ(tessera::values::timeSpan({}), (std::pair<double, double>{0.0, 0.0}));
}

TEST(TimingStats, LanesAreDistinctDeviceStreamPairsWithTheCpuLast)
{
    const auto lanes = tessera::values::timingLanes(handMade());
    ASSERT_EQ(lanes.size(), 4u);
    EXPECT_EQ(lanes[0], (tessera::values::TimingLane{DeviceId{0}, 0}));
    EXPECT_EQ(lanes[1], (tessera::values::TimingLane{DeviceId{0}, 1}));
    EXPECT_EQ(lanes[2], (tessera::values::TimingLane{DeviceId{1}, 0}));
    EXPECT_EQ(lanes[3], (tessera::values::TimingLane{DeviceId::cpu(), 0}));
}

TEST(TimingStats, DeviceTitlesUseTheSnapshotsNames)
{
    EXPECT_EQ(tessera::values::deviceTitle(DeviceId{0}, oneGpu()), "GPU 0 (Test GPU)");
    EXPECT_EQ(tessera::values::deviceTitle(DeviceId{1}, oneGpu()), "GPU 1");
    EXPECT_EQ(tessera::values::deviceTitle(DeviceId::cpu(), oneGpu()), "CPU");
    EXPECT_EQ(tessera::values::timeSpan(handMade()), (std::pair<double, double>{0.0, 130.0}));
}

}  // namespace
