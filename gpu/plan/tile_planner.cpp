// SPDX-License-Identifier: Apache-2.0
#include "gpu/plan/tile_planner.h"

#include "values/errors.h"
#include "tessera/gpu/values.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace tessera::gpu {

namespace {

// Plans with more tiles than this are refused: the budget is unreasonably small for the image.
constexpr std::int64_t kMaxTiles = std::int64_t{1} << 22;

std::int64_t ceilDiv(std::int64_t a, std::int64_t b)
{
    return (a + b - 1) / b;
}

int floorMod(std::int64_t p, int n)
{
    const std::int64_t m = p % n;
    return static_cast<int>(m < 0 ? m + n : m);
}

constexpr std::size_t kMostBytes = std::numeric_limits<std::size_t>::max();

std::size_t saturatingMul(std::size_t a, std::size_t b)
{
    return a != 0 && b > kMostBytes / a ? kMostBytes : a * b;
}

std::size_t saturatingAdd(std::size_t a, std::size_t b)
{
    return b > kMostBytes - a ? kMostBytes : a + b;
}

std::string haloText(const filters::Halo& h)
{
    return "left " + std::to_string(h.left) + ", right " + std::to_string(h.right) + ", top " + std::to_string(h.top) +
           ", bottom " + std::to_string(h.bottom);
}

std::string sizeText(std::int64_t w, std::int64_t h)
{
    return std::to_string(w) + " x " + std::to_string(h);
}

// Device bytes for an input crop of w x h pixels on one device.
std::size_t cropBytes(const PlannerDevice& d, const PixelBytes& px, int w, int h)
{
    const std::size_t pixels = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    const std::size_t perPixel = saturatingAdd(saturatingAdd(px.input, px.output), px.intermediate);
    const std::size_t work = d.workspace ? d.workspace(w, h) : 0;
    return saturatingAdd(saturatingMul(pixels, perPixel), work);
}

// Where the input of an output span [begin, begin + length) lies along one axis.
struct AxisInput {
    int begin = 0;
    int length = 0;
};

AxisInput axisInput(int begin, int length, int before, int after, int extent, EdgeMode mode)
{
    const std::int64_t lo = std::int64_t{begin} - before;
    const std::int64_t hi = std::int64_t{begin} + length + after;
    if (lo >= 0 && hi <= extent) {
        return {static_cast<int>(lo), static_cast<int>(hi - lo)};
    }
    switch (mode) {
    case EdgeMode::Border: {
        // The crop is filtered as an image of its own, so where it is cut at an image edge the
        // border rule reflects inside the crop: it must hold every row a reflection can reach.
        // Through a chain a reflected read lands at most before + after rows in from the edge
        // (each step moves a read by at most its reach, and a fold never lands further in than
        // the read went out), so the crop reaches that far in on top of its own span.
        const std::int64_t reach = std::int64_t{before} + after;
        std::int64_t b = lo;
        std::int64_t e = hi;
        if (lo < 0) {
            e = std::max(e, reach + 1);
        }
        if (hi > extent) {
            b = std::min(b, extent - reach - 1);
        }
        const auto cl = static_cast<int>(std::max<std::int64_t>(b, 0));
        return {cl, static_cast<int>(std::min<std::int64_t>(e, extent)) - cl};
    }
    case EdgeMode::Periodic:
        // A padded copy only pays while it is shorter than the axis; the whole axis with the
        // wrap rule at its ends gives the same pixels.
        if (hi - lo < extent) {
            return {static_cast<int>(lo), static_cast<int>(hi - lo)};
        }
        return {0, extent};
    case EdgeMode::WholeAxis: return {0, extent};
    }
    return {0, extent};
}

// The longest input along one axis that an output span of `length` can need.
int worstAxisLength(int length, int before, int after, int extent, EdgeMode mode)
{
    const std::int64_t grown = std::int64_t{length} + before + after;
    if (mode == EdgeMode::WholeAxis && before + after > 0) {
        return extent;
    }
    return static_cast<int>(std::min<std::int64_t>(grown, extent));
}

Tile makeTile(const Rect& out, const TileRequest& rq)
{
    const filters::Halo& h = rq.halo;
    const AxisInput ax = axisInput(out.x, out.width, h.left, h.right, rq.width, rq.edges.horizontal);
    const AxisInput ay = axisInput(out.y, out.height, h.top, h.bottom, rq.height, rq.edges.vertical);
    Tile t;
    t.out = out;
    t.in = {ax.begin, ay.begin, ax.length, ay.length};
    t.imageEdges = {t.in.x == 0, t.in.right() == rq.width, t.in.y == 0, t.in.bottom() == rq.height};
    t.periodic = !Rect{0, 0, rq.width, rq.height}.contains(t.in);
    return t;
}

Rect regionOf(const TileRequest& rq)
{
    return rq.region.empty() ? Rect{0, 0, rq.width, rq.height} : rq.region;
}

void checkRequest(const TileRequest& rq, const char* who)
{
    const std::string me = who;
    if (rq.width < 1 || rq.height < 1) {
        throw InvalidInput(me + ": the image is empty (" + sizeText(rq.width, rq.height) + ")");
    }
    const filters::Halo& h = rq.halo;
    if (h.left < 0 || h.right < 0 || h.top < 0 || h.bottom < 0) {
        throw InvalidInput(me + ": negative halo (" + haloText(h) + ")");
    }
    if (!Rect{0, 0, rq.width, rq.height}.contains(regionOf(rq))) {
        throw InvalidInput(me + ": the region lies outside the " + sizeText(rq.width, rq.height) + " image");
    }
    if (rq.devices.empty()) {
        throw InvalidInput(me + ": no devices");
    }
}

// Whether an input crop of w x h fits every device; the first one it does not fit otherwise.
const PlannerDevice* firstMisfit(const TileRequest& rq, int w, int h)
{
    for (const auto& d : rq.devices) {
        if (cropBytes(d, rq.pixelBytes, w, h) > d.budgetBytes) {
            return &d;
        }
    }
    return nullptr;
}

std::string misfitText(const TileRequest& rq, const PlannerDevice& d, int w, int h)
{
    return "its " + sizeText(w, h) + " input needs " + std::to_string(cropBytes(d, rq.pixelBytes, w, h)) +
           " bytes on device " + std::to_string(d.slot.value()) + ", whose budget is " + std::to_string(d.budgetBytes) +
           " bytes";
}

std::vector<Tile> layOut(const TileRequest& rq, const Rect& region, TileSize size)
{
    std::vector<Tile> tiles;
    for (int y = region.y; y < region.bottom(); y += size.height) {
        const int th = std::min(size.height, region.bottom() - y);
        for (int x = region.x; x < region.right(); x += size.width) {
            const int tw = std::min(size.width, region.right() - x);
            Tile t = makeTile({x, y, tw, th}, rq);
            for (const auto& d : rq.devices) {
                t.bytes = std::max(t.bytes, cropBytes(d, rq.pixelBytes, t.in.width, t.in.height));
            }
            tiles.push_back(t);
        }
    }
    return tiles;
}

// Sum of the input lengths along one axis over a row (or column) of tiles of nominal `size`.
double inputLengthSum(int begin, int length, int size, int before, int after, int extent, EdgeMode mode)
{
    double sum = 0.0;
    for (int p = begin; p < begin + length; p += size) {
        sum += axisInput(p, std::min(size, begin + length - p), before, after, extent, mode).length;
    }
    return sum;
}

std::vector<int> columnCounts(int width)
{
    std::vector<int> counts;
    for (int c = 1; c <= std::min(width, 64); ++c) {
        counts.push_back(c);
    }
    for (double c = 80.0; c < width; c *= 1.25) {
        counts.push_back(static_cast<int>(c));
    }
    counts.push_back(width);
    return counts;
}

// Large tiles, at least tilesPerDevice per device on large images, that fit every budget and
// move the fewest input pixels (halo overhead); near-ties go to fewer columns, then fewer tiles.
TileSize autoTileSize(const TileRequest& rq, const Rect& region)
{
    const filters::Halo& h = rq.halo;
    const EdgeModes& e = rq.edges;
    const auto devices = static_cast<std::int64_t>(rq.devices.size());
    const std::int64_t byArea = region.area() / std::max<std::int64_t>(1, rq.minAutoTilePixels);
    const std::int64_t want = std::clamp<std::int64_t>(byArea, 1, rq.tilesPerDevice * devices);
    const auto fits = [&](int tw, int th) {
        return firstMisfit(rq, worstAxisLength(tw, h.left, h.right, rq.width, e.horizontal),
                           worstAxisLength(th, h.top, h.bottom, rq.height, e.vertical)) == nullptr;
    };
    std::optional<TileSize> best;
    double bestScore = 0.0;
    std::int64_t bestCount = 0;
    for (const int c : columnCounts(region.width)) {
        const int tw = static_cast<int>(ceilDiv(region.width, c));
        const std::int64_t cols = ceilDiv(region.width, tw);
        const std::int64_t rowsWanted = std::min<std::int64_t>(ceilDiv(want, cols), region.height);
        int lo = 1;
        int hi = static_cast<int>(ceilDiv(region.height, rowsWanted));
        if (!fits(tw, lo)) {
            continue;
        }
        while (lo < hi) {  // largest height that fits
            const int mid = lo + (hi - lo + 1) / 2;
            if (fits(tw, mid)) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        const int th = lo;
        const std::int64_t count = cols * ceilDiv(region.height, th);
        if (count > kMaxTiles) {
            continue;
        }
        const double score = inputLengthSum(region.x, region.width, tw, h.left, h.right, rq.width, e.horizontal) *
                             inputLengthSum(region.y, region.height, th, h.top, h.bottom, rq.height, e.vertical);
        // More columns must save over 2% of the input: full-width bands copy contiguously.
        if (!best || score < 0.98 * bestScore || (score <= bestScore && count < bestCount)) {
            best = TileSize{tw, th};
            bestScore = score;
            bestCount = count;
        }
    }
    if (!best) {
        const int bw = worstAxisLength(region.width, h.left, h.right, rq.width, e.horizontal);
        const int bh = worstAxisLength(1, h.top, h.bottom, rq.height, e.vertical);
        const int pw = worstAxisLength(1, h.left, h.right, rq.width, e.horizontal);
        const PlannerDevice* band = firstMisfit(rq, bw, bh);
        const PlannerDevice* pixel = firstMisfit(rq, pw, bh);
        std::string text =
            "planTiles: no tile of the " + sizeText(rq.width, rq.height) + " image (halo " + haloText(h) + ") fits";
        if (band) {
            text += "; a 1-row band: " + misfitText(rq, *band, bw, bh);
        }
        if (pixel) {
            text += "; a 1 x 1 tile: " + misfitText(rq, *pixel, pw, bh);
        } else {
            text += "; more than " + std::to_string(kMaxTiles) + " tiles would be needed";
        }
        throw NotSupported(text);
    }
    return *best;
}

}  // namespace

EdgeModes edgeModes(const filters::FilterChain& chain)
{
    bool wrapX = false, otherX = false, wrapY = false, otherY = false;
    for (const auto& step : chain.steps) {
        const filters::Halo h = step.halo();
        const bool wraps = step.border == filters::Border::Wrap;
        if (h.left + h.right > 0) {
            (wraps ? wrapX : otherX) = true;
        }
        if (h.top + h.bottom > 0) {
            (wraps ? wrapY : otherY) = true;
        }
    }
    const auto mode = [](bool wrap, bool other) {
        return !wrap ? EdgeMode::Border : other ? EdgeMode::WholeAxis : EdgeMode::Periodic;
    };
    return {mode(wrapX, otherX), mode(wrapY, otherY)};
}

WorkspaceFn linearWorkspace(std::size_t perPixel, std::size_t fixed)
{
    return [perPixel, fixed](int w, int h) {
        const std::size_t pixels = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
        return saturatingAdd(saturatingMul(pixels, perPixel), fixed);
    };
}

std::string TilePlan::describe() const
{
    std::size_t largest = 0;
    for (const auto& t : tiles) {
        largest = std::max(largest, t.bytes);
    }
    return std::to_string(tiles.size()) + " tiles of " + sizeText(tileSize.width, tileSize.height) +
           ", the largest needs " + std::to_string(largest) + " bytes";
}

TilePlan planTiles(const TileRequest& rq)
{
    checkRequest(rq, "planTiles");
    const Rect region = regionOf(rq);
    TileSize size;
    if (rq.tileSize) {
        if (rq.tileSize->width < 1 || rq.tileSize->height < 1) {
            throw InvalidInput("planTiles: tile size " + sizeText(rq.tileSize->width, rq.tileSize->height) +
                               " is not positive");
        }
        size = {std::min(rq.tileSize->width, region.width), std::min(rq.tileSize->height, region.height)};
        if (ceilDiv(region.width, size.width) * ceilDiv(region.height, size.height) > kMaxTiles) {
            throw InvalidInput("planTiles: " + sizeText(size.width, size.height) + " tiles would be more than " +
                               std::to_string(kMaxTiles));
        }
    } else {
        if (rq.tilesPerDevice < 1) {
            throw InvalidInput("planTiles: tilesPerDevice must be at least 1");
        }
        size = autoTileSize(rq, region);
    }
    TilePlan plan{layOut(rq, region, size), size};
    for (const auto& t : plan.tiles) {
        if (const PlannerDevice* d = firstMisfit(rq, t.in.width, t.in.height)) {
            throw NotSupported("planTiles: the " + sizeText(t.out.width, t.out.height) + " tile at (" +
                               std::to_string(t.out.x) + ", " + std::to_string(t.out.y) +
                               ") does not fit: " + misfitText(rq, *d, t.in.width, t.in.height));
        }
    }
    return plan;
}

std::vector<Tile> planBands(const TileRequest& rq)
{
    checkRequest(rq, "planBands");
    const Rect region = regionOf(rq);
    double total = 0.0;
    for (const auto& d : rq.devices) {
        if (!(d.speed > 0.0) || !std::isfinite(d.speed)) {
            throw InvalidInput("planBands: device " + std::to_string(d.slot.value()) + " needs a positive speed, not " +
                               std::to_string(d.speed));
        }
        total += d.speed;
    }
    // Largest remainder: each band is its exact share rounded down or up.
    const std::size_t n = rq.devices.size();
    std::vector<int> rows(n);
    std::vector<std::pair<double, std::size_t>> remainders;
    int given = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double share = region.height * (rq.devices[i].speed / total);
        rows[i] = std::min(region.height - given, static_cast<int>(std::floor(share)));
        given += rows[i];
        remainders.emplace_back(share - std::floor(share), i);
    }
    std::stable_sort(remainders.begin(), remainders.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t k = 0; given < region.height; k = (k + 1) % n, ++given) {
        ++rows[remainders[k].second];
    }
    std::vector<Tile> bands;
    int y = region.y;
    for (std::size_t i = 0; i < n; ++i) {
        const PlannerDevice& d = rq.devices[i];
        Tile t;
        if (rows[i] > 0) {
            t = makeTile({region.x, y, region.width, rows[i]}, rq);
            t.bytes = cropBytes(d, rq.pixelBytes, t.in.width, t.in.height);
            if (t.bytes > d.budgetBytes) {
                throw NotSupported("planBands: the band of " + std::to_string(rows[i]) +
                                   " rows does not fit: " + misfitText(rq, d, t.in.width, t.in.height));
            }
        } else {
            t.out = t.in = {region.x, y, region.width, 0};
        }
        t.slot = d.slot;
        bands.push_back(t);
        y += rows[i];
    }
    return bands;
}

Tile tileFor(const Rect& out, const TileRequest& request)
{
    Tile t = makeTile(out, request);
    for (const auto& d : request.devices) {
        t.bytes = std::max(t.bytes, cropBytes(d, request.pixelBytes, t.in.width, t.in.height));
    }
    return t;
}

std::vector<CopyPiece> periodicPieces(const Rect& in, int width, int height)
{
    if (width < 1 || height < 1) {
        throw InvalidInput("periodicPieces: the image is empty (" + sizeText(width, height) + ")");
    }
    // Runs along one axis: (destination offset, source start, length).
    const auto runs = [](int begin, int length, int extent) {
        std::vector<std::array<int, 3>> out;
        for (int done = 0; done < length;) {
            const int src = floorMod(std::int64_t{begin} + done, extent);
            const int len = std::min(extent - src, length - done);
            out.push_back({done, src, len});
            done += len;
        }
        return out;
    };
    std::vector<CopyPiece> pieces;
    for (const auto& ry : runs(in.y, in.height, height)) {
        for (const auto& rx : runs(in.x, in.width, width)) {
            pieces.push_back({{rx[1], ry[1], rx[2], ry[2]}, rx[0], ry[0]});
        }
    }
    return pieces;
}

}  // namespace tessera::gpu
