// SPDX-License-Identifier: Apache-2.0
#include "values/log.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tessera::values {
namespace {

TEST(Log, CategoriesAreReadFromTheirNames)
{
    EXPECT_EQ(parseLogCategories(""), 0u);
    EXPECT_EQ(parseLogCategories("0"), 0u);
    EXPECT_EQ(parseLogCategories("plan"), static_cast<unsigned>(LogCategory::Plan));
    EXPECT_EQ(parseLogCategories("Device, IO"),
              static_cast<unsigned>(LogCategory::Device) | static_cast<unsigned>(LogCategory::Io));
    EXPECT_EQ(parseLogCategories("all"), kAllLogCategories);
    EXPECT_EQ(parseLogCategories("1"), kAllLogCategories);
    EXPECT_EQ(parseLogCategories("fallback,,plan "),
              static_cast<unsigned>(LogCategory::Fallback) | static_cast<unsigned>(LogCategory::Plan));
    std::string unknown;
    EXPECT_EQ(parseLogCategories("io,gpu,tiles", &unknown), static_cast<unsigned>(LogCategory::Io));
    EXPECT_EQ(unknown, "gpu,tiles");
    for (const LogCategory c : {LogCategory::Device, LogCategory::Plan, LogCategory::Fallback, LogCategory::Io}) {
        EXPECT_EQ(parseLogCategories(logCategoryName(c)), static_cast<unsigned>(c)) << logCategoryName(c);
    }
}

class LogTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        const char* value = std::getenv("TESSERA_LOG");
        saved_ = value != nullptr ? std::optional<std::string>(value) : std::nullopt;
        setLogSink([this](std::string_view line) {
            const std::lock_guard lock(mutex_);
            lines_.emplace_back(line);
        });
    }
    void TearDown() override
    {
        setLogSink({});
        if (saved_) {
            ::setenv("TESSERA_LOG", saved_->c_str(), 1);
        } else {
            ::unsetenv("TESSERA_LOG");
        }
        resetLogForTests();
    }
    std::vector<std::string> lines()
    {
        const std::lock_guard lock(mutex_);
        return lines_;
    }

private:
    std::optional<std::string> saved_;
    std::mutex mutex_;
    std::vector<std::string> lines_;
};

TEST_F(LogTest, OnlyTheCategoriesAskedForAreWrittenAndFormatted)
{
    ::setenv("TESSERA_LOG", "plan,io", 1);
    resetLogForTests();
    EXPECT_TRUE(logEnabled(LogCategory::Plan));
    EXPECT_TRUE(logEnabled(LogCategory::Io));
    EXPECT_FALSE(logEnabled(LogCategory::Device));
    int formatted = 0;
    logIf(LogCategory::Device, [&] {
        ++formatted;
        return std::string("never");
    });
    logIf(LogCategory::Plan, [&] {
        ++formatted;
        return std::string("separable, two passes\nof 9 taps");
    });
    EXPECT_EQ(formatted, 1) << "a category that is off formats nothing";
    ASSERT_EQ(lines().size(), 1u);
    EXPECT_EQ(lines()[0], "tessera[plan]: separable, two passes of 9 taps\n");
}

TEST_F(LogTest, ExtraCategoriesComeAndGo)
{
    ::unsetenv("TESSERA_LOG");
    resetLogForTests();
    EXPECT_FALSE(logEnabled(LogCategory::Fallback));
    setExtraLogCategories(kAllLogCategories);
    EXPECT_TRUE(logEnabled(LogCategory::Fallback));
    EXPECT_TRUE(logEnabled(LogCategory::Device));
    setExtraLogCategories(0);
    EXPECT_FALSE(logEnabled(LogCategory::Fallback));
    // The variable's categories stay when the extra ones go.
    ::setenv("TESSERA_LOG", "fallback", 1);
    resetLogForTests();
    setExtraLogCategories(kAllLogCategories);
    setExtraLogCategories(0);
    EXPECT_TRUE(logEnabled(LogCategory::Fallback));
    EXPECT_FALSE(logEnabled(LogCategory::Io));
}

TEST_F(LogTest, LinesOfManyThreadsStayWhole)
{
    ::setenv("TESSERA_LOG", "all", 1);
    resetLogForTests();
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([t] {
            for (int i = 0; i < 100; ++i) {
                logIf(LogCategory::Io, [&] { return "thread " + std::to_string(t) + " line " + std::to_string(i); });
            }
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    const auto all = lines();
    ASSERT_EQ(all.size(), 400u);
    for (const std::string& line : all) {
        EXPECT_EQ(line.rfind("tessera[io]: thread ", 0), 0u) << line;
        EXPECT_EQ(line.back(), '\n');
    }
}

}  // namespace
}  // namespace tessera::values
