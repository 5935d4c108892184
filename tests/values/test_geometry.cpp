// SPDX-License-Identifier: Apache-2.0
#include "values/geometry.h"

#include <gtest/gtest.h>

namespace tessera::values {
namespace {

TEST(Rect, IntersectedKeepsTheSharedPixelsOnly)
{
    const Rect image = imageRect(600, 400);
    EXPECT_EQ((Rect{40, 30, 120, 70}).intersected(image), (Rect{40, 30, 120, 70}));
    EXPECT_EQ((Rect{550, 10, 100, 40}).intersected(image), (Rect{550, 10, 50, 40}));
    EXPECT_EQ((Rect{-20, -10, 50, 30}).intersected(image), (Rect{0, 0, 30, 20}));
    // Touching edges share no pixel; neither do rectangles apart.
    EXPECT_TRUE((Rect{600, 0, 20, 20}).intersected(image).empty());
    EXPECT_TRUE((Rect{0, 400, 20, 20}).intersected(image).empty());
    EXPECT_TRUE((Rect{700, 500, 20, 20}).intersected(image).empty());
    EXPECT_TRUE(Rect{}.intersected(image).empty());
}

TEST(Rect, GrownAddsOnEverySide)
{
    const Rect r = Rect{100, 50, 40, 20}.grown(10, 5);
    EXPECT_EQ(r, (Rect{90, 45, 60, 30}));
    EXPECT_EQ(r.right(), 150);
    EXPECT_EQ(r.bottom(), 75);
}

TEST(Rect, ContainsPixelCountsTheLastColumnAndRowOnly)
{
    const Rect r{10, 20, 5, 4};
    EXPECT_TRUE(r.containsPixel(10, 20));
    EXPECT_TRUE(r.containsPixel(14, 23));
    EXPECT_FALSE(r.containsPixel(15, 23));
    EXPECT_FALSE(r.containsPixel(14, 24));
    EXPECT_FALSE(r.containsPixel(9, 20));
    EXPECT_FALSE(Rect{}.containsPixel(0, 0));
}

TEST(Rect, PrintsAsText)
{
    EXPECT_EQ(::testing::PrintToString(Rect{0, 32, 640, 480}), "640 x 480 at (0, 32)");
}

}  // namespace
}  // namespace tessera::values
