// SPDX-License-Identifier: Apache-2.0
#include "values/geometry.h"

#include <algorithm>
#include <ostream>

namespace tessera::values {

std::string toText(const Rect& r)
{
    return std::to_string(r.width) + " x " + std::to_string(r.height) + " at (" + std::to_string(r.x) + ", " +
           std::to_string(r.y) + ")";
}

void PrintTo(const Rect& r, std::ostream* os)
{
    *os << toText(r);
}

bool Rect::contains(const Rect& r) const
{
    return r.x >= x && r.y >= y && r.right() <= right() && r.bottom() <= bottom();
}

Rect Rect::intersected(const Rect& r) const
{
    const int left = std::max(x, r.x);
    const int top = std::max(y, r.y);
    const int w = std::min(right(), r.right()) - left;
    const int h = std::min(bottom(), r.bottom()) - top;
    if (w <= 0 || h <= 0) {
        return {};
    }
    return {left, top, w, h};
}

}  // namespace tessera::values
