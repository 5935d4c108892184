// SPDX-License-Identifier: Apache-2.0
#include "values/geometry.h"

namespace tessera::values {

std::string toText(const Rect& r)
{
    return std::to_string(r.width) + " x " + std::to_string(r.height) + " at (" + std::to_string(r.x) + ", " +
           std::to_string(r.y) + ")";
}

bool Rect::contains(const Rect& r) const
{
    return r.x >= x && r.y >= y && r.right() <= right() && r.bottom() <= bottom();
}

}  // namespace tessera::values
