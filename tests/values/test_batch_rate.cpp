// SPDX-License-Identifier: Apache-2.0
#include "values/batch_rate.h"

#include <gtest/gtest.h>

namespace tessera::values {
namespace {

TEST(BatchRate, RateAndTimeLeftFollowTheCountsSoFar)
{
    EXPECT_EQ(filesPerSecond(0, 5.0), 0.0);
    EXPECT_EQ(filesPerSecond(3, 0.0), 0.0);
    EXPECT_DOUBLE_EQ(filesPerSecond(30, 4.0), 7.5);
    EXPECT_FALSE(secondsLeft(0, 10, 2.0));
    EXPECT_FALSE(secondsLeft(10, 10, 2.0));
    ASSERT_TRUE(secondsLeft(25, 100, 10.0));
    EXPECT_DOUBLE_EQ(*secondsLeft(25, 100, 10.0), 30.0);
}

TEST(BatchRate, DurationsKeepTheTwoLargestUnitsRoundedUp)
{
    EXPECT_EQ(durationText(0.0), "0 s");
    EXPECT_EQ(durationText(41.2), "42 s");
    EXPECT_EQ(durationText(185.0), "3 min 05 s");
    EXPECT_EQ(durationText(7625.0), "2 h 07 min");
    EXPECT_EQ(durationText(-3.0), "0 s");
}

TEST(BatchRate, TheLineSaysWhatCanBeToldSoFar)
{
    EXPECT_EQ(rateText(0, 10, 1.0), "");
    EXPECT_EQ(rateText(4, 10, 2.0), "2.00 files/s, about 3 s left");
    EXPECT_EQ(rateText(120, 600, 10.0), "12.0 files/s, about 40 s left");
    EXPECT_EQ(rateText(10, 10, 4.0), "2.50 files/s");
}

}  // namespace
}  // namespace tessera::values
