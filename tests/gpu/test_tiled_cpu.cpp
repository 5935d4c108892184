// SPDX-License-Identifier: Apache-2.0
// Tiles computed one by one on the CPU path, each from its own input, must give the untiled
// result bit for bit: real neighbours inside the image, the border rule only at its edges, and
// wrap borders handled by the edge modes.

#include "gpu/plan/tile_planner.h"

#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>

#include <random>
#include <vector>

namespace tessera::gpu {
namespace {

using filters::Border;
using filters::testing::freshSeed;
using filters::testing::seedNote;

TEST(TilePlanner, EdgeModesFollowTheChainsBorders)
{
    const auto chain = [](std::vector<filters::FilterSpec> steps) { return filters::FilterChain{std::move(steps)}; };
    const auto withBorder = [](filters::FilterSpec s, Border b) {
        s.border = b;
        return s;
    };
    const auto box = [&](Border b) { return withBorder(filters::makeBox(5), b); };
    const auto row = [&](Border b) { return withBorder(filters::makeCustom({5, 1, std::vector<double>(5, 0.2)}), b); };
    EXPECT_EQ(edgeModes(chain({box(Border::Reflect), box(Border::Constant)})), (EdgeModes{}));
    EXPECT_EQ(edgeModes(chain({box(Border::Wrap), row(Border::Wrap)})),
              (EdgeModes{EdgeMode::Periodic, EdgeMode::Periodic}));
    EXPECT_EQ(edgeModes(chain({row(Border::Wrap)})), (EdgeModes{EdgeMode::Periodic, EdgeMode::Border}));
    EXPECT_EQ(edgeModes(chain({box(Border::Wrap), row(Border::Replicate)})),
              (EdgeModes{EdgeMode::WholeAxis, EdgeMode::Periodic}));
    EXPECT_EQ(edgeModes(chain({filters::makeIdentity(), box(Border::Reflect101)})), (EdgeModes{}));
}

// The tile's input as the executor builds it: a crop, or gathered by the periodic rule.
cv::Mat tileInput(const cv::Mat& src, const Tile& t)
{
    if (!t.periodic) {
        return src(cv::Rect(t.in.x, t.in.y, t.in.width, t.in.height)).clone();
    }
    cv::Mat in(t.in.height, t.in.width, src.type());
    for (const auto& p : periodicPieces(t.in, src.cols, src.rows)) {
        src(cv::Rect(p.source.x, p.source.y, p.source.width, p.source.height))
            .copyTo(in(cv::Rect(p.destX, p.destY, p.source.width, p.source.height)));
    }
    return in;
}

TEST(TilePlanner, TiledCpuRunsEqualTheWholeImageRun)
{
    const auto seed = freshSeed();
    SCOPED_TRACE(seedNote(seed));
    std::mt19937 rng(seed);
    const auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const Border borders[] = {Border::Reflect101, Border::Reflect, Border::Replicate, Border::Constant, Border::Wrap};
    for (int i = 0; i < 60; ++i) {
        const int channels = std::vector<int>{1, 3, 4}[static_cast<std::size_t>(uniform(0, 2))];
        const cv::Mat src = filters::testing::randomImage(uniform(1, 40), uniform(1, 40), CV_8UC(channels), rng);
        for (int b = 0; b <= 6; ++b) {  // the five borders, then wrap mixed with others per axis
            filters::FilterSpec first = filters::makeBox(5);
            filters::FilterSpec second = filters::makeCustom(filters::testing::randomKernel(3, 3, rng));
            first.border = b < 5 ? borders[b] : Border::Wrap;
            second.border = b < 5 ? borders[b] : b == 5 ? Border::Reflect101 : Border::Constant;
            first.borderValue = second.borderValue = uniform(0, 255);
            if (b == 6) {
                second = filters::makeCustom({1, 3, {0.25, 0.5, 0.25}});
            }
            const filters::FilterChain chain{{first, second}};
            TileRequest rq;
            rq.width = src.cols;
            rq.height = src.rows;
            rq.halo = chain.halo();
            rq.edges = edgeModes(chain);
            rq.pixelBytes = {static_cast<std::size_t>(channels), static_cast<std::size_t>(channels), 0};
            const int n = uniform(1, 4);
            for (int d = 0; d < n; ++d) {
                rq.devices.push_back(
                    {SlotIndex{static_cast<std::size_t>(d)}, std::size_t{1} << 30, uniform(1, 9) / 3.0, {}});
            }
            rq.tileSize = TileSize{uniform(1, src.cols), uniform(1, src.rows)};
            if (uniform(0, 2) == 0) {  // sized by the planner, down to single pixels
                rq.tileSize.reset();
                rq.minAutoTilePixels = 1;
                rq.tilesPerDevice = uniform(1, 40);
            }
            const bool bands = uniform(0, 2) == 0;
            const auto tiles = bands ? planBands(rq) : planTiles(rq).tiles;
            SCOPED_TRACE("border case " + std::to_string(b) + ", " + std::to_string(src.cols) + "x" +
                         std::to_string(src.rows) + "x" + std::to_string(channels) +
                         (bands ? ", bands" : ", " + planTiles(rq).describe()));
            cv::Mat tiled(src.size(), src.type(), cv::Scalar::all(77));
            for (const auto& t : tiles) {
                if (t.out.empty()) {
                    continue;
                }
                const cv::Mat part = filters::applyCpu(tileInput(src, t), chain);
                part(cv::Rect(t.out.x - t.in.x, t.out.y - t.in.y, t.out.width, t.out.height))
                    .copyTo(tiled(cv::Rect(t.out.x, t.out.y, t.out.width, t.out.height)));
            }
            const cv::Mat whole = filters::applyCpu(src, chain);
            ASSERT_EQ(cv::norm(tiled, whole, cv::NORM_INF), 0.0);
        }
    }
}

}  // namespace
}  // namespace tessera::gpu
