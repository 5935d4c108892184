// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "values/geometry.h"
#include "tessera/gpu/values.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessera::gpu {

/// How a tile's input is made up along one axis where its reach leaves the image.
enum class EdgeMode {
    Border,     ///< clipped at the image; each step applies its own border rule at the image edge
    Periodic,   ///< every step reaching along the axis wraps: the input continues periodically
    WholeAxis,  ///< steps mix wrap with other rules: such a tile reads the whole axis
};

struct EdgeModes {
    EdgeMode horizontal = EdgeMode::Border;
    EdgeMode vertical = EdgeMode::Border;
    bool operator==(const EdgeModes&) const = default;
};

/// The edge modes a chain needs: Periodic along an axis where every step that reaches along it
/// wraps, WholeAxis where wrapping steps and other steps both reach, Border otherwise.
EdgeModes edgeModes(const filters::FilterChain& chain);

/// Device bytes a run needs besides its images, for an input crop of width x height pixels.
/// Expected not to decrease when the crop grows.
using WorkspaceFn = std::function<std::size_t(int width, int height)>;
/// perPixel * width * height + fixed.
WorkspaceFn linearWorkspace(std::size_t perPixel, std::size_t fixed);

/// One device a plan may use.
struct PlannerDevice {
    SlotIndex slot;               ///< its place in the run's slot list, copied into band plans
    std::size_t budgetBytes = 0;  ///< for one tile: free memory / tiles in flight, or a test override
    double speed = 1.0;           ///< relative throughput, used by band plans
    WorkspaceFn workspace;        ///< empty: no workspace
};

/// Bytes per pixel of the buffers a tile holds on a device. Every step runs over the whole
/// input crop (as gpu::run does: dst has src's size), so all three count crop pixels.
struct PixelBytes {
    std::size_t input = 0;
    std::size_t output = 0;
    std::size_t intermediate = 0;  ///< every intermediate buffer alive at once, per pixel
};

struct TileRequest {
    int width = 0;  ///< image size
    int height = 0;
    Rect region;  ///< output part to compute, inside the image; empty: the whole image
    filters::Halo halo;
    EdgeModes edges;
    PixelBytes pixelBytes;
    std::vector<PlannerDevice> devices;
    std::optional<TileSize> tileSize;                        ///< empty: chosen by the planner (clamped to the region)
    int tilesPerDevice = 3;                                  ///< auto sizing aims for this many tiles per device...
    std::int64_t minAutoTilePixels = std::int64_t{1} << 20;  ///< ...but no smaller tiles than this
};

struct TilePlan {
    std::vector<Tile> tiles;  ///< row-major order
    TileSize tileSize;        ///< nominal size; the last row and column may be smaller
    /// One line: image, tile size, count, largest tile bytes.
    std::string describe() const;
};

/// Tiles for a request, each fitting every device's budget. Deterministic. Throws
/// std::invalid_argument on a malformed request, when a requested tile size does not fit, or
/// when not even a 1 x 1 output tile fits (the message names the sizes and budgets).
TilePlan planTiles(const TileRequest& request);

/// One horizontal band of the region per device, in the devices' order, with heights
/// proportional to their speeds (within one row; a band may have no rows). Each band fits its
/// own device's budget, else std::invalid_argument. tileSize is ignored.
std::vector<Tile> planBands(const TileRequest& request);

/// The tile that computes `out` (inside the request's image) with the input and edges the
/// planner would give it; bytes is the most over the request's devices.
Tile tileFor(const Rect& out, const TileRequest& request);

/// One copy that fills part of a periodic tile's input from the image.
struct CopyPiece {
    Rect source;    ///< inside the image
    int destX = 0;  ///< where it goes, relative to the input's top-left corner
    int destY = 0;
};

/// Copies that fill `in` from an image of width x height by the periodic rule; they cover `in`
/// exactly. For an `in` inside the image it is a single copy.
std::vector<CopyPiece> periodicPieces(const Rect& in, int width, int height);

}  // namespace tessera::gpu
