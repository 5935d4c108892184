// SPDX-License-Identifier: Apache-2.0
#pragma once

// Rectangles and tiles in image coordinates: what the planner cuts and a run report lists.
// Plain values, no CUDA, no OpenCV.

#include "values/device_id.h"
#include "values/slot_index.h"

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace tessera::values {

/// A pixel rectangle in image coordinates (x, y may be negative for periodic inputs).
struct Rect {
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;

    int right() const { return x + width; }    ///< one past the last column
    int bottom() const { return y + height; }  ///< one past the last row
    bool empty() const { return width <= 0 || height <= 0; }
    std::int64_t area() const { return empty() ? 0 : std::int64_t{width} * height; }
    bool contains(const Rect& r) const;
    /// Whether pixel (px, py) lies inside.
    bool containsPixel(int px, int py) const { return px >= x && py >= y && px < right() && py < bottom(); }
    /// The pixels both rectangles hold; an empty Rect when they do not meet.
    Rect intersected(const Rect& r) const;
    /// dx more columns on the left and on the right, dy more rows above and below.
    Rect grown(int dx, int dy) const { return {x - dx, y - dy, width + 2 * dx, height + 2 * dy}; }
    bool operator==(const Rect&) const = default;
};

/// The whole of an image of width x height pixels.
inline Rect imageRect(int width, int height)
{
    return {0, 0, width, height};
}

/// "640 x 480 at (0, 32)", as run events name tiles.
std::string toText(const Rect& r);
/// The same text, for test failure messages.
void PrintTo(const Rect& r, std::ostream* os);

/// A tile's nominal size in pixels.
struct TileSize {
    int width = 0;
    int height = 0;
};

/// Sides of a tile's input on which the border rule applies (they lie on the image's edges).
struct Sides {
    bool left = false;
    bool right = false;
    bool top = false;
    bool bottom = false;
    bool operator==(const Sides&) const = default;
};

/// A piece of a run: the output it computes and the input it reads.
struct Tile {
    Rect out;  ///< output pixels computed; the tiles of a plan partition its region
    Rect in;   ///< input read: out grown by the halo, clipped to the image or wider (edge modes)
    Sides imageEdges;
    bool periodic = false;  ///< in leaves the image: pixel (x, y) comes from (x mod W, y mod H)
    std::size_t bytes = 0;  ///< device memory needed, the most over the devices it may run on
    /// A band's place in the run's slot list (planBands); empty in tile plans, whose tiles go
    /// to whichever slot takes them.
    std::optional<SlotIndex> slot;
    /// The GPU a band or a device image lives on, where one is known; empty in tile plans.
    std::optional<DeviceId> device;
    bool operator==(const Tile&) const = default;
};

}  // namespace tessera::values
