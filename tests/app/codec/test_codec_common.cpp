// SPDX-License-Identifier: Apache-2.0
#include "app/io/codec/codec.h"

#include <gtest/gtest.h>

namespace tessera::app::codec {
namespace {

TEST(CodecCommon, SizeChecksNameTheSizeAndTheLimit)
{
    DecodeBudget budget;
    budget.maxWidth = 100;
    budget.maxHeight = 100;
    budget.maxPixels = 5000;
    EXPECT_NO_THROW(checkSize(100, 50, budget));
    try {
        checkSize(101, 10, budget);
        FAIL() << "a width over the limit was accepted";
    } catch (const CodecError& e) {
        EXPECT_STREQ(e.what(), "101 x 10 exceeds the limit of 100 x 100");
    }
    EXPECT_THROW(checkSize(100, 51, budget), CodecError);
    EXPECT_THROW(checkSize(0, 5, budget), CodecError);
}

TEST(CodecCommon, CancelStopsWithItsOwnType)
{
    std::atomic<bool> cancel{false};
    DecodeBudget budget;
    budget.cancel = &cancel;
    EXPECT_NO_THROW(checkCancel(budget));
    cancel = true;
    EXPECT_THROW(checkCancel(budget), DecodeCancelled);
}

}  // namespace
}  // namespace tessera::app::codec
