// SPDX-License-Identifier: Apache-2.0
// The multi-device executor with virtual devices on the CPU path: tiled runs across several
// slots equal the untiled CPU run bit for bit; memory limits stream the image through small
// tiles; injected faults hand tiles back and the job still completes exactly.

#include "tessera/gpu/engine.h"

#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "tessera/gpu/cuda_error.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <set>
#include <thread>

namespace tessera::gpu {
namespace {

using filters::Border;
using filters::testing::freshSeed;
using filters::testing::seedNote;

std::vector<DeviceSlot> cpuSlots(int n, std::size_t limit = 0)
{
    return std::vector<DeviceSlot>(static_cast<std::size_t>(n), DeviceSlot{DeviceId::cpu(), limit, 1.0});
}

double maxDiff(const cv::Mat& a, const cv::Mat& b)
{
    if (a.size() != b.size() || a.type() != b.type()) {
        return -1.0;
    }
    return cv::norm(a, b, cv::NORM_INF);
}

// OpenCV's CPU filtering is not the same arithmetic at every position: kernels of 11 x 11 and
// up go through its DFT path (sums rounded differently for every image size), and float rows
// run partly in SIMD lanes and partly in a scalar tail that depends on the width. Where neither
// applies the tiles must match exactly; elsewhere within one step (integers) or a relative 1e-5
// (float, of the largest magnitude in the result).
void expectTiledMatches(const cv::Mat& tiled, const cv::Mat& whole, bool exact)
{
    ASSERT_EQ(tiled.size(), whole.size());
    ASSERT_EQ(tiled.type(), whole.type());
    const double diff = cv::norm(tiled, whole, cv::NORM_INF);
    if (exact) {
        ASSERT_EQ(diff, 0.0);
    } else if (whole.depth() == CV_32F) {
        ASSERT_LE(diff, 1e-5 * std::max(1.0, cv::norm(whole, cv::NORM_INF)));
    } else {
        ASSERT_LE(diff, 1.0);
    }
}

// Every output pixel is covered by exactly one computed tile.
void expectExactCover(const RunReport& report, cv::Size size)
{
    cv::Mat count(size, CV_32S, cv::Scalar(0));
    ASSERT_EQ(report.tiles.size(), report.computed.size());
    for (std::size_t i = 0; i < report.tiles.size(); ++i) {
        if (report.computed[i]) {
            const Rect& r = report.tiles[i].out;
            count(cv::Rect(r.x, r.y, r.width, r.height)) += 1;
        }
    }
    double lo = 0;
    double hi = 0;
    cv::minMaxLoc(count, &lo, &hi);
    EXPECT_EQ(lo, 1.0);
    EXPECT_EQ(hi, 1.0);
}

TEST(MultiCpu, TiledOverVirtualDevicesEqualsUntiledForEveryFormatBorderAndTileSize)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const int depths[] = {CV_8U, CV_16U, CV_32F};
    const int channels[] = {1, 3, 4};
    for (const int depth : depths) {
        for (const int cn : channels) {
            const cv::Mat src = filters::testing::randomImage(47, 61, CV_MAKETYPE(depth, cn), rng);
            for (const auto& bc : filters::testing::allBorderCases()) {
                for (const int k : {3, 4, 15}) {
                    filters::FilterSpec spec =
                        filters::makeCustom(filters::testing::randomKernel(k, k == 4 ? 3 : k, rng));
                    spec.border = bc.border;
                    spec.borderValue = bc.nonZeroConstant ? 3.0 : 0.0;
                    const filters::FilterChain chain{{spec}};
                    const cv::Mat whole = filters::applyCpu(src, chain);
                    const std::optional<TileSize> sizes[] = {TileSize{61, 1}, TileSize{7, 5}, TileSize{1, 47},
                                                             std::nullopt};
                    for (const auto& ts : sizes) {
                        RunOptions o;
                        o.deviceSlots = cpuSlots(3);
                        o.tileSize = ts;
                        RunReport report;
                        const cv::Mat tiled = runStreamed(src, chain, o, &report);
                        SCOPED_TRACE(filters::testing::caseName(src, spec) + ", k " + std::to_string(k) + ", " +
                                     report.plan);
                        expectTiledMatches(tiled, whole, depth != CV_32F && k < 11);
                        expectExactCover(report, src.size());
                        EXPECT_TRUE(report.events.empty());
                    }
                }
            }
        }
    }
}

TEST(MultiCpu, ChainsMixingWrapWithOtherBordersStayExact)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Mat src = filters::testing::randomImage(33, 29, CV_32FC3, rng);
    filters::FilterSpec a = filters::makeBox(5);
    a.border = Border::Wrap;
    filters::FilterSpec b = filters::makeCustom(filters::testing::randomKernel(3, 7, rng));
    b.border = Border::Reflect;
    filters::FilterSpec c = filters::makeCustom({9, 1, std::vector<double>(9, 1.0 / 9)});
    c.border = Border::Wrap;
    for (const auto& chain : {filters::FilterChain{{a, b}}, filters::FilterChain{{c, a}}, filters::FilterChain{{a}}}) {
        const cv::Mat whole = filters::applyCpu(src, chain);
        for (int th = 1; th <= 33; th += 8) {
            RunOptions o;
            o.deviceSlots = cpuSlots(2);
            o.tileSize = TileSize{th + 3, th};
            const cv::Mat tiled = runStreamed(src, chain, o);
            SCOPED_TRACE("tile height " + std::to_string(th));
            expectTiledMatches(tiled, whole, false);
        }
    }
}

TEST(MultiCpu, AMemoryLimitStreamsTheImageThroughSmallTiles)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Mat src = filters::testing::randomImage(300, 400, CV_8UC4, rng);
    const std::size_t imageBytes = src.total() * src.elemSize();
    const filters::FilterChain chain{{filters::makeGaussian(2.0, 9)}};
    RunOptions o;
    o.deviceSlots = cpuSlots(2, imageBytes / 4);
    RunReport report;
    const cv::Mat out = runStreamed(src, chain, o, &report);
    EXPECT_EQ(maxDiff(out, filters::applyCpu(src, chain)), 0.0);
    EXPECT_GE(report.tiles.size(), 5u) << report.plan;
    for (const auto& t : report.tiles) {
        EXPECT_LE(t.bytes, imageBytes / 4) << report.plan;
    }
    expectExactCover(report, src.size());
}

TEST(MultiCpu, InjectedFaultsHandTilesBackAndTheJobCompletesExactly)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Mat src = filters::testing::randomImage(120, 90, CV_16UC3, rng);
    const filters::FilterChain chain{{filters::makeBox(7)}};
    std::atomic<int> memoryFaults{0};
    std::atomic<int> deviceFaults{0};
    RunOptions o;
    o.deviceSlots = cpuSlots(3);
    o.tileSize = TileSize{30, 20};
    o.fault = [&](SlotIndex slot, int, Phase) {
        if (slot == SlotIndex{0} && memoryFaults.fetch_add(1) == 0) {
            throw OutOfDeviceMemory(2, "cudaMalloc(injected)", __FILE__, __LINE__, "injected out of memory");
        }
        if (slot == SlotIndex{1} && deviceFaults.fetch_add(1) == 0) {
            throw CudaError(700, "kernel(injected)", __FILE__, __LINE__, "injected device fault");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // every slot gets to take tiles
    };
    RunReport report;
    const cv::Mat out = runStreamed(src, chain, o, &report);
    EXPECT_EQ(maxDiff(out, filters::applyCpu(src, chain)), 0.0);
    expectExactCover(report, src.size());
    EXPECT_GE(report.retries, 2);
    EXPECT_TRUE(report.slotReports[0].failure.empty());
    EXPECT_NE(report.slotReports[1].failure.find("injected device fault"), std::string::npos);
    ASSERT_GE(report.events.size(), 2u);
    bool split = false;
    bool failed = false;
    for (const auto& e : report.events) {
        split = split || e.find("split in two") != std::string::npos;
        failed = failed || e.find("takes no more") != std::string::npos;
    }
    EXPECT_TRUE(split);
    EXPECT_TRUE(failed);
    EXPECT_EQ(report.slotReports[1].tiles, 0);
}

TEST(MultiCpu, WhenEverySlotFailsTheCpuPathFinishesTheJob)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Mat src = filters::testing::randomImage(64, 64, CV_16UC1, rng);
    const filters::FilterChain chain{{filters::makeBox(3)}};
    RunOptions o;
    o.deviceSlots = cpuSlots(2);
    o.tileSize = TileSize{16, 16};
    o.fault = [](SlotIndex, int, Phase) {
        throw CudaError(999, "injected", __FILE__, __LINE__, "every device is broken");
    };
    RunReport report;
    const cv::Mat out = runStreamed(src, chain, o, &report);
    EXPECT_EQ(maxDiff(out, filters::applyCpu(src, chain)), 0.0);
    EXPECT_EQ(report.cpuFallbackTiles, 16);
    EXPECT_FALSE(report.slotReports[0].failure.empty());
    EXPECT_FALSE(report.slotReports[1].failure.empty());
    EXPECT_NE(report.events.back().find("computed on the CPU path"), std::string::npos);
}

TEST(MultiCpu, AMissingGpuIsReportedAndTheRestRuns)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Mat src = filters::testing::randomImage(40, 50, CV_8UC1, rng);
    const filters::FilterChain chain{{filters::makeBox(3)}};
    RunOptions o;
    o.deviceSlots = {DeviceSlot{DeviceId{99}, 0, 1.0}, DeviceSlot{DeviceId::cpu(), 0, 1.0}};
    RunReport report;
    const cv::Mat out = runStreamed(src, chain, o, &report);
    EXPECT_EQ(maxDiff(out, filters::applyCpu(src, chain)), 0.0);
    EXPECT_NE(report.slotReports[0].failure.find("GPU 99 does not exist"), std::string::npos);
    EXPECT_GT(report.slotReports[1].tiles, 0);
}

TEST(MultiCpu, AFasterSlotTakesMoreTiles)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Mat src = filters::testing::randomImage(200, 64, CV_8UC1, rng);
    const filters::FilterChain chain{{filters::makeBox(3)}};
    RunOptions o;
    o.deviceSlots = cpuSlots(2);
    o.tileSize = TileSize{64, 5};  // 40 tiles
    o.fault = [](SlotIndex slot, int, Phase) {
        if (slot == SlotIndex{0}) {
            std::this_thread::sleep_for(std::chrono::milliseconds(15));
        }
    };
    RunReport report;
    const cv::Mat out = runStreamed(src, chain, o, &report);
    EXPECT_EQ(maxDiff(out, filters::applyCpu(src, chain)), 0.0);
    EXPECT_GT(report.slotReports[1].tiles, report.slotReports[0].tiles);
    EXPECT_EQ(report.slotReports[0].tiles + report.slotReports[1].tiles, 40);
}

TEST(MultiCpu, RecordsDescribeEveryTileOnOneClock)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Mat src = filters::testing::randomImage(80, 80, CV_8UC4, rng);
    const filters::FilterChain chain{{filters::makeGaussian(1.5, 5)}};
    RunOptions o;
    o.deviceSlots = cpuSlots(2);
    o.tileSize = TileSize{40, 20};
    RunReport report;
    runStreamed(src, chain, o, &report);
    ASSERT_EQ(report.records.size(), 8u);
    std::set<int> tiles;
    for (const auto& r : report.records) {
        EXPECT_EQ(r.device, DeviceId::cpu());
        EXPECT_EQ(r.phase, Phase::Host);
        EXPECT_LE(r.beginUs, r.endUs);
        EXPECT_LE(r.endUs, report.wallMs * 1000.0 + 1.0);
        const Tile& t = report.tiles.at(static_cast<std::size_t>(r.tile));
        EXPECT_EQ((Rect{r.x, r.y, r.width, r.height}), t.out);
        EXPECT_EQ(r.bytes, static_cast<std::uint64_t>(t.in.area() + t.out.area()) * 4u);
        tiles.insert(r.tile);
    }
    EXPECT_EQ(tiles.size(), 8u);
}

TEST(MultiCpu, CancelStopsBetweenTilesAndReturnsNothing)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Mat src = filters::testing::randomImage(100, 100, CV_8UC1, rng);
    std::atomic<bool> cancel{false};
    std::atomic<int> seen{0};
    RunOptions o;
    o.deviceSlots = cpuSlots(1);
    o.tileSize = TileSize{10, 10};
    o.cancel = &cancel;
    o.fault = [&](SlotIndex, int, Phase) {
        if (seen.fetch_add(1) == 5) {
            cancel = true;
        }
    };
    RunReport report;
    const cv::Mat out = runStreamed(src, filters::FilterChain{{filters::makeBox(3)}}, o, &report);
    EXPECT_TRUE(out.empty());
    EXPECT_TRUE(report.cancelled);
    EXPECT_LT(report.slotReports[0].tiles, 100);
}

TEST(MultiCpu, BadRequestsAreRefusedWithAReason)
{
    RunOptions o;
    EXPECT_THROW(runStreamed(cv::Mat(4, 4, CV_8UC1), filters::FilterChain{}, o), std::invalid_argument);
    o.deviceSlots = cpuSlots(1);
    EXPECT_THROW(runStreamed(cv::Mat(), filters::FilterChain{}, o), std::invalid_argument);
    EXPECT_THROW(runStreamed(cv::Mat(4, 4, CV_64FC1), filters::FilterChain{{filters::makeBox(3)}}, o),
                 std::invalid_argument);
}

}  // namespace
}  // namespace tessera::gpu

namespace tessera::gpu {
namespace {

// A tile cut at an image edge is filtered as an image of its own: with the anchor off centre
// (more reach on one side than the other) and tiles one pixel thin, a reflection at that edge
// reaches further into the image than the tile's own span, and the crop must hold those pixels.
TEST(MultiCpu, OffCentreAnchorsAndOnePixelTilesStayExactAtEveryEdge)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Mat src = filters::testing::randomImage(19, 23, CV_16UC1, rng);
    for (const auto& bc : filters::testing::allBorderCases()) {
        for (const filters::Point anchor : {filters::Point{0, 0}, filters::Point{4, 5}, filters::Point{1, 3}}) {
            filters::FilterSpec a = filters::makeCustom(filters::testing::randomKernel(5, 6, rng));
            a.anchor = anchor;
            a.border = bc.border;
            a.borderValue = bc.nonZeroConstant ? 5.0 : 0.0;
            filters::FilterSpec b = filters::makeCustom(filters::testing::randomKernel(3, 2, rng));
            b.anchor = filters::Point{2, 0};
            b.border = bc.border;
            for (const auto& chain : {filters::FilterChain{{a}}, filters::FilterChain{{a, b}}}) {
                const cv::Mat whole = filters::applyCpu(src, chain);
                for (const TileSize ts : {TileSize{1, 1}, TileSize{23, 1}, TileSize{1, 19}, TileSize{2, 3}}) {
                    RunOptions o;
                    o.deviceSlots = cpuSlots(2);
                    o.tileSize = ts;
                    const cv::Mat tiled = runStreamed(src, chain, o);
                    ASSERT_EQ(maxDiff(tiled, whole), 0.0)
                        << "anchor " << anchor.x << "," << anchor.y << " border " << filters::toString(bc.border)
                        << " tile " << ts.width << "x" << ts.height << " steps " << chain.steps.size();
                }
            }
        }
    }
}

// The one fallback rule: whichever the placement, GPUs that cannot run leave the result to the
// CPU path, the result is exact and the report says why. Here the GPU does not exist, so the
// rule is taken on any machine.
TEST(Pipeline, BothPlacementsFallBackToTheCpuPathThroughOneRule)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Mat src = filters::testing::randomImage(61, 47, CV_8UC3, rng);
    const filters::FilterChain chain{{filters::makeGaussian(1.5, 7), filters::makeBox(3)}};
    const cv::Mat expected = filters::applyCpu(src, chain);
    for (const Placement placement : {Placement::Streamed, Placement::Resident}) {
        SCOPED_TRACE(toString(placement));
        RunOptions o;
        o.placement = placement;
        o.deviceSlots = {DeviceSlot{DeviceId{99}, 0, 1.0}};
        Pipeline pipeline(o);
        RunReport report;
        cv::Mat out;
        EXPECT_TRUE(pipeline.run(src, chain, out, &report));
        EXPECT_EQ(maxDiff(out, expected), 0.0);
        EXPECT_EQ(report.placement, placement);
        EXPECT_FALSE(report.fallback.empty());
        ASSERT_FALSE(report.events.empty());
        std::string events;
        for (const auto& e : report.events) {
            events += e + "\n";
        }
        EXPECT_NE(events.find("GPU 99"), std::string::npos) << events;
        EXPECT_NE(events.find("CPU path"), std::string::npos) << events;
        EXPECT_TRUE(report.devicesUsed().empty());
        ASSERT_FALSE(report.records.empty());
        for (const auto& r : report.records) {
            EXPECT_EQ(r.device, DeviceId::cpu());
            EXPECT_EQ(r.phase, Phase::Host);
        }
        std::int64_t covered = 0;
        for (std::size_t i = 0; i < report.tiles.size(); ++i) {
            covered += report.computed[i] ? report.tiles[i].out.area() : 0;
        }
        EXPECT_EQ(covered, std::int64_t{src.cols} * src.rows);
    }
}

// Resident: after a failure later runs stay on the CPU path (and say so) until the options are
// set again; a region is answered by the CPU path too.
TEST(Pipeline, AResidentFailureKeepsLaterRunsOnTheCpuPathUntilTheOptionsChange)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Mat src = filters::testing::randomImage(50, 70, CV_32FC1, rng);
    const filters::FilterChain chain{{filters::makeSharpen(0.7)}};
    RunOptions o;
    o.placement = Placement::Resident;
    o.deviceSlots = {DeviceSlot{DeviceId{98}, 0, 1.0}, DeviceSlot{DeviceId{99}, 0, 1.0}};
    Pipeline pipeline(o);
    cv::Mat out;
    RunReport first;
    pipeline.run(src, chain, out, &first);
    ASSERT_FALSE(first.fallback.empty());
    EXPECT_NE(first.fallback.find("GPU 98, GPU 99"), std::string::npos) << first.fallback;

    const cv::Rect region(10, 20, 30, 15);
    RunReport second;
    pipeline.run(src, chain, out, &second, region);
    EXPECT_EQ(maxDiff(out, filters::applyCpuRegion(src, chain, region)), 0.0);
    EXPECT_EQ(second.fallback, first.fallback);
    ASSERT_EQ(second.events.size(), 1u);
    EXPECT_NE(second.events[0].find("earlier failure"), std::string::npos) << second.events[0];

    pipeline.setOptions(o);  // tries the GPUs again
    RunReport third;
    pipeline.run(src, chain, out, &third);
    ASSERT_FALSE(third.events.empty());
    EXPECT_EQ(third.events[0].find("earlier failure"), std::string::npos) << third.events[0];
}

TEST(Pipeline, BadOptionsAndRequestsAreRefusedWithAReason)
{
    RunOptions resident;
    resident.placement = Placement::Resident;
    // A CPU slot alone may hold the image (in host memory); beside GPU bands it has no place.
    resident.deviceSlots = {DeviceSlot{DeviceId{99}, 0, 1.0}, DeviceSlot{DeviceId::cpu(), 0, 1.0}};
    EXPECT_THROW(Pipeline{resident}, std::invalid_argument);
    resident.deviceSlots = {DeviceSlot{DeviceId::cpu(), 0, 1.0}, DeviceSlot{DeviceId::cpu(), 0, 1.0}};
    EXPECT_THROW(Pipeline{resident}, std::invalid_argument);
    RunOptions streamed;
    streamed.deviceSlots = cpuSlots(2);
    streamed.streamsPerGpu = 0;
    EXPECT_THROW(Pipeline{streamed}, std::invalid_argument);
    streamed.streamsPerGpu = 3;
    Pipeline pipeline(streamed);
    const cv::Mat src(8, 8, CV_8UC1, cv::Scalar(3));
    const filters::FilterChain chain{{filters::makeBox(3)}};
    cv::Mat out;
    EXPECT_THROW(pipeline.run(src, chain, out, nullptr, cv::Rect(0, 0, 4, 4)), std::invalid_argument);
    EXPECT_THROW(pipeline.runInPlace(src, chain), std::invalid_argument);
    cv::Mat same = src;
    EXPECT_THROW(pipeline.run(src, chain, same), std::invalid_argument);
    resident.deviceSlots = {DeviceSlot{DeviceId{99}, 0, 1.0}};
    Pipeline held(resident);
    EXPECT_THROW(held.run(src, chain, out, nullptr, cv::Rect(20, 20, 4, 4)), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::gpu
