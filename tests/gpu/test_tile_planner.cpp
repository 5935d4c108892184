// SPDX-License-Identifier: Apache-2.0
// The tile planner without a GPU: random requests checked for exact cover, halos, edge flags
// and budgets; hand-picked edge cases; band plans; periodic input pieces.

#include "gpu/plan/tile_planner.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace tessera::gpu {
namespace {

using filters::Halo;
using filters::testing::freshSeed;
using filters::testing::seedNote;

int uniform(std::mt19937& rng, int lo, int hi)
{
    return std::uniform_int_distribution<int>(lo, hi)(rng);
}

std::size_t bytesFor(const TileRequest& rq, const PlannerDevice& d, int w, int h)
{
    const std::size_t px = rq.pixelBytes.input + rq.pixelBytes.output + rq.pixelBytes.intermediate;
    const std::size_t work = d.workspace ? d.workspace(w, h) : 0;
    return static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * px + work;
}

TileRequest request(int width, int height, Halo halo = {}, EdgeModes edges = {})
{
    TileRequest rq;
    std::tie(rq.width, rq.height, rq.halo, rq.edges) = std::tie(width, height, halo, edges);
    return rq;
}

Rect regionOf(const TileRequest& rq)
{
    return rq.region.empty() ? Rect{0, 0, rq.width, rq.height} : rq.region;
}

// Whether the rectangles cover every pixel of area exactly once (none may leave it).
bool coverOnce(const Rect& area, const std::vector<Rect>& rects)
{
    std::vector<int> count(static_cast<std::size_t>(area.area()), 0);
    for (const Rect& r : rects) {
        if (!area.contains(r)) {
            return false;
        }
        for (int y = r.y; y < r.bottom(); ++y) {
            for (int x = r.x; x < r.right(); ++x) {
                ++count[static_cast<std::size_t>(y - area.y) * area.width + (x - area.x)];
            }
        }
    }
    return std::all_of(count.begin(), count.end(), [](int c) { return c == 1; });
}

// One axis of a tile's input: the span [begin, begin + length) against out grown by the reach.
void expectAxis(int inBegin, int inLength, int outBegin, int outLength, int before, int after, int extent,
                EdgeMode mode, const char* axis)
{
    SCOPED_TRACE(axis);
    const int lo = outBegin - before;
    const int hi = outBegin + outLength + after;
    const int clipLo = std::max(lo, 0);
    const int clipHi = std::min(hi, extent);
    EXPECT_LE(inBegin, clipLo);
    EXPECT_GE(inBegin + inLength, clipHi);
    const bool inside = lo >= 0 && hi <= extent;
    const bool wholeAxis = inBegin == 0 && inLength == extent;
    if (inside) {
        EXPECT_EQ(inBegin, clipLo);
        EXPECT_EQ(inBegin + inLength, clipHi);
    } else if (mode == EdgeMode::Border) {
        // Cut at an image edge: the crop also holds every pixel a reflection there can reach,
        // before + after in from that edge.
        const int reach = before + after;
        const int wantHi = std::min(extent, lo < 0 ? std::max(hi, reach + 1) : hi);
        const int wantLo = std::max(0, hi > extent ? std::min(lo, extent - reach - 1) : lo);
        EXPECT_EQ(inBegin, wantLo);
        EXPECT_EQ(inBegin + inLength, wantHi);
    } else if (mode == EdgeMode::Periodic && hi - lo < extent) {
        EXPECT_EQ(inBegin, lo);
        EXPECT_EQ(inLength, hi - lo);
    } else {
        EXPECT_TRUE(wholeAxis);
    }
}

void expectTiles(const TileRequest& rq, const std::vector<Tile>& tiles, bool bands)
{
    std::vector<Rect> outs;
    for (const auto& t : tiles) {
        outs.push_back(t.out);
    }
    ASSERT_TRUE(coverOnce(regionOf(rq), outs)) << "the tiles do not cover the region exactly once";
    const Rect image{0, 0, rq.width, rq.height};
    for (const auto& t : tiles) {
        SCOPED_TRACE("tile out " + std::to_string(t.out.x) + "," + std::to_string(t.out.y) + " " +
                     std::to_string(t.out.width) + "x" + std::to_string(t.out.height));
        if (t.out.empty()) {
            EXPECT_TRUE(bands);
            continue;
        }
        expectAxis(t.in.x, t.in.width, t.out.x, t.out.width, rq.halo.left, rq.halo.right, rq.width, rq.edges.horizontal,
                   "horizontal");
        expectAxis(t.in.y, t.in.height, t.out.y, t.out.height, rq.halo.top, rq.halo.bottom, rq.height,
                   rq.edges.vertical, "vertical");
        EXPECT_EQ(t.imageEdges,
                  (Sides{t.in.x == 0, t.in.right() == rq.width, t.in.y == 0, t.in.bottom() == rq.height}));
        EXPECT_EQ(t.periodic, !image.contains(t.in));
        std::size_t most = 0;
        for (const auto& d : rq.devices) {
            if (bands && t.slot != d.slot) {
                continue;
            }
            const std::size_t need = bytesFor(rq, d, t.in.width, t.in.height);
            EXPECT_LE(need, d.budgetBytes) << "device " << d.slot.value();
            most = std::max(most, need);
        }
        EXPECT_EQ(t.bytes, most);
        if (bands) {
            EXPECT_TRUE(t.slot.has_value());
        } else {
            EXPECT_FALSE(t.slot.has_value());
            EXPECT_FALSE(t.device.has_value());
        }
    }
}

// Random tests: a fresh seed per test, shown with every failure.
class TilePlannerRandom : public ::testing::Test {
protected:
    std::uint32_t seed_ = freshSeed();
    ::testing::ScopedTrace trace_{__FILE__, __LINE__, seedNote(seed_)};
    std::mt19937 rng_{seed_};
};

EdgeMode randomMode(std::mt19937& rng)
{
    const EdgeMode modes[] = {EdgeMode::Border, EdgeMode::Periodic, EdgeMode::WholeAxis};
    return modes[uniform(rng, 0, 2)];
}

// A random request whose budgets always fit at least a 1 x 1 output tile and at most the image.
TileRequest randomRequest(std::mt19937& rng)
{
    TileRequest rq;
    rq.width = uniform(rng, 1, uniform(rng, 0, 3) == 0 ? 4 : 160);
    rq.height = uniform(rng, 1, uniform(rng, 0, 3) == 0 ? 4 : 160);
    if (uniform(rng, 0, 1) == 1) {
        const int x = uniform(rng, 0, rq.width - 1), y = uniform(rng, 0, rq.height - 1);
        rq.region = {x, y, uniform(rng, 1, rq.width - x), uniform(rng, 1, rq.height - y)};
    }
    const int reach = uniform(rng, 0, 3) == 0 ? 200 : 8;
    rq.halo = {uniform(rng, 0, reach), uniform(rng, 0, reach), uniform(rng, 0, reach), uniform(rng, 0, reach)};
    rq.edges = {randomMode(rng), randomMode(rng)};
    const auto bytes = [&](int lo, int hi) { return static_cast<std::size_t>(uniform(rng, lo, hi)); };
    rq.pixelBytes = {bytes(1, 16), bytes(1, 16), bytes(0, 32)};
    const int smallW =
        rq.edges.horizontal == EdgeMode::WholeAxis ? rq.width : std::min(rq.width, 1 + rq.halo.left + rq.halo.right);
    const int smallH =
        rq.edges.vertical == EdgeMode::WholeAxis ? rq.height : std::min(rq.height, 1 + rq.halo.top + rq.halo.bottom);
    const int n = uniform(rng, 1, 8);
    for (int i = 0; i < n; ++i) {
        PlannerDevice d{SlotIndex{static_cast<std::size_t>(i * 3 + 1)}, 0, uniform(rng, 1, 40) / 10.0, {}};
        if (uniform(rng, 0, 1) == 1) {
            d.workspace = linearWorkspace(bytes(0, 8), bytes(0, 4096));
        }
        const std::size_t lo = bytesFor(rq, d, smallW, smallH);
        const std::size_t hi = bytesFor(rq, d, rq.width, rq.height);
        d.budgetBytes = lo + static_cast<std::size_t>(std::generate_canonical<double, 32>(rng) * (hi - lo));
        rq.devices.push_back(d);
    }
    rq.minAutoTilePixels = uniform(rng, 1, 2048);
    return rq;
}

TEST_F(TilePlannerRandom, RandomPlansCoverTheRegionOnceWithinBudgets)
{
    for (int i = 0; i < 400; ++i) {
        TileRequest rq = randomRequest(rng_);
        if (i % 2 == 1) {  // a requested size; budgets then hold the whole image
            rq.tileSize = TileSize{uniform(rng_, 1, rq.width + 4), uniform(rng_, 1, rq.height + 4)};
            for (auto& d : rq.devices) {
                d.budgetBytes = bytesFor(rq, d, rq.width, rq.height);
            }
        }
        SCOPED_TRACE("case " + std::to_string(i) + ": " + std::to_string(rq.width) + "x" + std::to_string(rq.height) +
                     ", " + std::to_string(rq.devices.size()) + " devices");
        const TilePlan plan = planTiles(rq);
        ASSERT_NO_FATAL_FAILURE(expectTiles(rq, plan.tiles, false));
        if (rq.tileSize) {
            EXPECT_EQ(plan.tileSize.width, std::min(rq.tileSize->width, regionOf(rq).width));
            EXPECT_EQ(plan.tileSize.height, std::min(rq.tileSize->height, regionOf(rq).height));
        }
        EXPECT_TRUE(planTiles(rq).tiles == plan.tiles);  // deterministic
    }
}

TEST(TilePlanner, OneRowOneColumnAndOversizedTiles)
{
    TileRequest rq = request(37, 23, Halo{2, 1, 3, 0});
    rq.pixelBytes.input = 1;
    rq.devices = {{SlotIndex{0}, 1u << 20, 1.0, {}}};
    const std::pair<TileSize, std::size_t> cases[] = {{{37, 1}, 23}, {{1, 23}, 37}, {{1, 1}, 37 * 23}};
    for (const auto& [size, count] : cases) {
        rq.tileSize = size;
        const auto tiles = planTiles(rq).tiles;
        EXPECT_EQ(tiles.size(), count);
        expectTiles(rq, tiles, false);
    }
    rq.tileSize = TileSize{500, 400};  // larger than the image: one tile
    const auto one = planTiles(rq).tiles;
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].out, (Rect{0, 0, 37, 23}));
    EXPECT_EQ(one[0].in, one[0].out);
    EXPECT_EQ(one[0].imageEdges, (Sides{true, true, true, true}));
}

TEST(TilePlanner, OnePixelImagesAndHalosLargerThanTheImage)
{
    for (const EdgeMode mode : {EdgeMode::Border, EdgeMode::Periodic, EdgeMode::WholeAxis}) {
        TileRequest rq = request(1, 1, Halo{40, 40, 40, 40}, EdgeModes{mode, mode});
        rq.pixelBytes.input = 4;
        rq.devices = {{SlotIndex{0}, 64, 1.0, {}}, {SlotIndex{1}, 4, 1.0, {}}};
        const auto tiles = planTiles(rq).tiles;
        ASSERT_EQ(tiles.size(), 1u);
        EXPECT_EQ(tiles[0].in, (Rect{0, 0, 1, 1}));
        EXPECT_FALSE(tiles[0].periodic);
        rq = request(9, 5, Halo{12, 0, 0, 30}, EdgeModes{mode, mode});
        rq.pixelBytes.input = 1;
        rq.devices = {{SlotIndex{0}, 1000, 1.0, {}}};
        rq.tileSize = TileSize{2, 2};
        for (const auto& t : planTiles(rq).tiles) {
            // Reaching past the image: a reflection may reach anywhere in it (Border), and a
            // padded copy would be longer than the axis (Periodic): the whole image.
            EXPECT_EQ(t.in, (Rect{0, 0, 9, 5}));
            EXPECT_FALSE(t.periodic);
        }
    }
}

TEST(TilePlanner, AutoSizeOnLargeImagesGivesSeveralTilesPerDevice)
{
    for (int n = 1; n <= 8; ++n) {
        TileRequest rq = request(8192, 8192, Halo{15, 15, 15, 15});
        rq.pixelBytes = {4, 4, 0};
        for (int i = 0; i < n; ++i) {
            rq.devices.push_back(
                {SlotIndex{static_cast<std::size_t>(i)}, std::size_t{80} << 30, 1.0, linearWorkspace(0, 1u << 20)});
        }
        const TilePlan roomy = planTiles(rq);
        SCOPED_TRACE(roomy.describe());
        EXPECT_GE(roomy.tiles.size(), 3u * n);
        EXPECT_LE(roomy.tiles.size(), 6u * n);
        rq.devices.back().budgetBytes = 64u << 20;  // one small device bounds every tile
        const TilePlan tight = planTiles(rq);
        for (const auto& t : tight.tiles) {
            EXPECT_LE(t.bytes, 64u << 20);
        }
        EXPECT_GE(tight.tiles.size(), 8192u * 8192u * 8u / (64u << 20));
    }
    TileRequest small = request(300, 200);  // below minAutoTilePixels: one tile
    small.pixelBytes.input = 1;
    small.devices = {{SlotIndex{0}, 1u << 20, 1.0, {}}, {SlotIndex{1}, 1u << 20, 1.0, {}}};
    EXPECT_EQ(planTiles(small).tiles.size(), 1u);
}

TEST(TilePlanner, RefusesWhatCannotFitOrMakesNoSense)
{
    TileRequest rq = request(8192, 4096, Halo{15, 15, 15, 15});
    rq.pixelBytes = {4, 4, 0};
    rq.devices = {{SlotIndex{0}, 1000, 1.0, {}}};
    try {
        planTiles(rq);
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
        const std::string text = e.what();
        EXPECT_NE(text.find("8192 x 4096"), std::string::npos) << text;
        EXPECT_NE(text.find("1-row band"), std::string::npos) << text;
        EXPECT_NE(text.find("1000 bytes"), std::string::npos) << text;
    }
    rq.devices[0].budgetBytes = 100000;
    rq.tileSize = TileSize{512, 512};
    EXPECT_THROW(planTiles(rq), std::invalid_argument);
    rq.tileSize = TileSize{0, 4};
    EXPECT_THROW(planTiles(rq), std::invalid_argument);
    rq.tileSize.reset();
    EXPECT_NO_THROW(planTiles(rq));  // narrow tiles fit where a band does not
    rq.region = {8000, 0, 500, 10};
    EXPECT_THROW(planTiles(rq), std::invalid_argument);
    rq.region = {};
    rq.halo.left = -1;
    EXPECT_THROW(planTiles(rq), std::invalid_argument);
    rq.halo.left = 0;
    rq.devices.clear();
    EXPECT_THROW(planTiles(rq), std::invalid_argument);
    rq.devices = {{SlotIndex{0}, 1u << 30, 0.0, {}}};
    EXPECT_THROW(planBands(rq), std::invalid_argument);
    rq.width = 0;
    EXPECT_THROW(planTiles(rq), std::invalid_argument);
}

TEST_F(TilePlannerRandom, BandsFollowTheSpeedsAndCoverTheRegion)
{
    for (int i = 0; i < 300; ++i) {
        TileRequest rq = randomRequest(rng_);
        for (auto& d : rq.devices) {
            d.budgetBytes = bytesFor(rq, d, rq.width, rq.height);
        }
        SCOPED_TRACE("case " + std::to_string(i));
        const auto bands = planBands(rq);
        ASSERT_EQ(bands.size(), rq.devices.size());
        ASSERT_NO_FATAL_FAILURE(expectTiles(rq, bands, true));
        double total = 0.0;
        for (const auto& d : rq.devices) {
            total += d.speed;
        }
        const Rect region = regionOf(rq);
        int y = region.y;
        for (std::size_t k = 0; k < bands.size(); ++k) {
            EXPECT_EQ(bands[k].slot, rq.devices[k].slot);
            EXPECT_FALSE(bands[k].device.has_value());
            EXPECT_EQ(bands[k].out.y, y);
            EXPECT_EQ(bands[k].out.x, region.x);
            EXPECT_EQ(bands[k].out.width, region.width);
            EXPECT_LT(std::abs(bands[k].out.height - region.height * rq.devices[k].speed / total), 1.0);
            y += bands[k].out.height;
        }
        EXPECT_EQ(y, region.bottom());
    }
    TileRequest tight = request(64, 64, Halo{1, 1, 1, 1});
    tight.pixelBytes.input = 1;
    tight.devices = {{SlotIndex{0}, 100, 1.0, {}}, {SlotIndex{1}, 1u << 20, 1.0, {}}};
    EXPECT_THROW(planBands(tight), std::invalid_argument);
}

TEST_F(TilePlannerRandom, PeriodicPiecesFillTheInputFromTheImage)
{
    for (int i = 0; i < 200; ++i) {
        const int w = uniform(rng_, 1, 20), h = uniform(rng_, 1, 20);
        const Rect in{uniform(rng_, -50, 50), uniform(rng_, -50, 50), uniform(rng_, 1, 60), uniform(rng_, 1, 60)};
        std::vector<Rect> placed;
        for (const auto& p : periodicPieces(in, w, h)) {
            ASSERT_TRUE((Rect{0, 0, w, h}.contains(p.source)));
            EXPECT_EQ(p.source.x, ((in.x + p.destX) % w + w) % w);
            EXPECT_EQ(p.source.y, ((in.y + p.destY) % h + h) % h);
            placed.push_back({in.x + p.destX, in.y + p.destY, p.source.width, p.source.height});
        }
        EXPECT_TRUE(coverOnce(in, placed));
    }
}

}  // namespace
}  // namespace tessera::gpu
