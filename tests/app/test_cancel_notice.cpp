// SPDX-License-Identifier: Apache-2.0
// The note a batch prints when Ctrl+C does not stop it at once: a decode or encode in hand runs
// to its end, and the person is told why they wait and how to stop at once.
#include "app/cli/interrupt.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace tessera::app {
namespace {

using std::chrono::milliseconds;

TEST(CancelNotice, SpeaksOnceWhenTheRunOutlastsTheDelayAfterACancel)
{
    std::atomic<bool> cancel{false};
    std::atomic<int> said{0};
    {
        const CancelNotice notice(cancel, milliseconds(100), [&] { ++said; });
        std::this_thread::sleep_for(milliseconds(150));
        EXPECT_EQ(said, 0) << "spoke before any cancel";
        cancel = true;
        std::this_thread::sleep_for(milliseconds(600));
    }
    EXPECT_EQ(said, 1);
}

TEST(CancelNotice, StaysQuietWhenTheRunEndsWithinTheDelay)
{
    std::atomic<bool> cancel{false};
    std::atomic<int> said{0};
    {
        const CancelNotice notice(cancel, milliseconds(2000), [&] { ++said; });
        cancel = true;
        std::this_thread::sleep_for(milliseconds(100));
    }
    EXPECT_EQ(said, 0);
}

TEST(CancelNotice, StaysQuietWithoutACancel)
{
    std::atomic<bool> cancel{false};
    std::atomic<int> said{0};
    {
        const CancelNotice notice(cancel, milliseconds(10), [&] { ++said; });
        std::this_thread::sleep_for(milliseconds(50));
    }
    EXPECT_EQ(said, 0);
}

}  // namespace
}  // namespace tessera::app
