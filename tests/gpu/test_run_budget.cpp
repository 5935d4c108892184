// SPDX-License-Identifier: Apache-2.0
// A run's memory budget (what a device lease granted) decides the tiles of a streamed run on
// CPU slots: one tile while the whole image fits, smaller tiles as the budget shrinks, every
// tile within its slot's share, and the result the same.

#include "tessera/gpu/engine.h"

#include "filters/cpu_executor.h"
#include "filters/factories.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>

namespace tessera::gpu {
namespace {

const filters::FilterChain& chain()
{
    static const filters::FilterChain c{{filters::makeGaussian(1.2, 5), filters::makeBox(3)}};
    return c;
}

cv::Mat randomImage()
{
    cv::Mat m(301, 257, CV_8UC3);
    cv::randu(m, 0, 256);
    return m;
}

// Bytes the CPU path holds for a tile: its input, and the workspace the executor declares
// (input, result and one more result per input pixel).
std::size_t cpuTileBytes(const Tile& t, const cv::Mat& src)
{
    return static_cast<std::size_t>(t.in.area()) * (2 * src.elemSize() + 2 * src.elemSize());
}

RunReport runWith(Pipeline& pipeline, const cv::Mat& src, std::uint64_t budget, cv::Mat& dst)
{
    RunControl control;
    control.memoryBudget = budget;
    RunReport report;
    EXPECT_TRUE(pipeline.run(src, chain(), dst, control, &report));
    return report;
}

TEST(RunBudget, CpuTilesFollowTheGrantedBytes)
{
    const cv::Mat src = randomImage();
    const cv::Mat want = filters::applyCpu(src, chain());
    RunOptions options;
    options.deviceSlots = cpuSlots();
    Pipeline pipeline(options);
    const std::size_t whole = src.total() * 4 * src.elemSize();

    cv::Mat dst;
    EXPECT_EQ(runWith(pipeline, src, 0, dst).tiles.size(), 1u) << "no budget: the image in one piece";
    EXPECT_EQ(runWith(pipeline, src, whole, dst).tiles.size(), 1u) << "a budget the whole image fits";

    std::size_t previous = 1;
    for (const std::size_t budget : {whole / 2, whole / 5, whole / 20}) {
        SCOPED_TRACE("budget " + std::to_string(budget));
        const RunReport report = runWith(pipeline, src, budget, dst);
        EXPECT_GT(report.tiles.size(), previous) << "a smaller budget, no smaller tiles";
        previous = report.tiles.size();
        for (const Tile& t : report.tiles) {
            EXPECT_LE(cpuTileBytes(t, src), budget) << toText(t.out);
        }
        EXPECT_EQ(cv::norm(dst, want, cv::NORM_INF), 0.0);
    }
    EXPECT_EQ(pipeline.options().deviceSlots.front().memoryLimit, 0u) << "the options were not rewritten";
}

TEST(RunBudget, SlotsShareTheBudgetAndTheirOwnLimitStillCaps)
{
    const cv::Mat src = randomImage();
    const cv::Mat want = filters::applyCpu(src, chain());
    const std::size_t whole = src.total() * 4 * src.elemSize();
    RunOptions options;
    options.deviceSlots.assign(2, DeviceSlot{DeviceId::cpu(), 0, 1.0});
    Pipeline pipeline(options);
    cv::Mat dst;
    const std::size_t budget = whole / 3;
    RunReport report = runWith(pipeline, src, budget, dst);
    for (const Tile& t : report.tiles) {
        EXPECT_LE(cpuTileBytes(t, src), budget / 2) << "two slots on one device share its budget";
    }
    EXPECT_EQ(cv::norm(dst, want, cv::NORM_INF), 0.0);

    const std::size_t cap = whole / 40;
    options.deviceSlots.assign(2, DeviceSlot{DeviceId::cpu(), cap, 1.0});
    pipeline.setOptions(options);
    report = runWith(pipeline, src, budget, dst);
    for (const Tile& t : report.tiles) {
        EXPECT_LE(cpuTileBytes(t, src), cap) << "the slot's own limit is below the budget's share";
    }
    EXPECT_EQ(cv::norm(dst, want, cv::NORM_INF), 0.0);
}

}  // namespace
}  // namespace tessera::gpu
