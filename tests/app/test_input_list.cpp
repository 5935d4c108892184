// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_shard.h"
#include "app/batch/input_list.h"
#include "app/batch/report_merge.h"
#include "batch_test_data.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

namespace tessera::app {
namespace {

using test::TempFolder;

std::string message(const auto& call)
{
    try {
        call();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no exception)";
}

TEST(InputList, OneInputALineBlanksAndCarriageReturnsDropped)
{
    const auto lines = parseInputList("a.png\r\n\r\n  \t\nb c.png\nfolder/\n*.tif", "list");
    EXPECT_EQ(lines, (std::vector<std::string>{"a.png", "b c.png", "folder/", "*.tif"}));
    EXPECT_TRUE(parseInputList("", "list").empty());
    EXPECT_TRUE(parseInputList("\n\n\r\n", "list").empty());
    EXPECT_EQ(parseInputList(" lead.png \n-dash.png\n", "list"), (std::vector<std::string>{" lead.png ", "-dash.png"}));
}

TEST(InputList, NulByteIsRefusedWithItsLine)
{
    const std::string text("a.png\n\nb\0.png\n", 14);
    const std::string what = message([&] { parseInputList(text, "my.list"); });
    EXPECT_NE(what.find("my.list"), std::string::npos) << what;
    EXPECT_NE(what.find("line 3"), std::string::npos) << what;
    EXPECT_NE(what.find("NUL"), std::string::npos) << what;
}

TEST(InputList, SizeAndLineLimitsNameTheList)
{
    InputListLimits small;
    small.maxBytes = 16;
    small.maxLines = 3;
    EXPECT_NE(message([&] { parseInputList(std::string(17, 'a'), "big.list", small); }).find("big.list is larger"),
              std::string::npos);
    EXPECT_NE(message([&] { parseInputList("a\nb\nc\nd\n", "long.list", small); }).find("more than 3 lines"),
              std::string::npos);
    EXPECT_EQ(parseInputList("a\nb\nc\n", "ok.list", small).size(), 3u);
}

TEST(InputList, ReadsFilesAndFifosRefusesFoldersAndDevices)
{
    TempFolder dir("list");
    test::writeBytes(dir.path() / "inputs.txt", "x.png\r\ny.png\n");
    EXPECT_EQ(readInputList(dir.file("inputs.txt")), (std::vector<std::string>{"x.png", "y.png"}));
    EXPECT_NE(message([&] { readInputList(dir.path().string()); }).find("is a directory"), std::string::npos);
    EXPECT_NE(message([&] { readInputList("/dev/zero"); }).find("not a regular file or a pipe"), std::string::npos);
    EXPECT_NE(message([&] { readInputList(dir.file("missing.txt")); }).find("missing.txt"), std::string::npos);

    InputListLimits small;
    small.maxBytes = 8;
    EXPECT_NE(message([&] { readInputList(dir.file("inputs.txt"), small); }).find("larger than 8 bytes"),
              std::string::npos);

    const std::string fifo = dir.file("fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // The writer starts late: the reader must wait for it, as a reader of a pipe does.
    const std::string writer = "(sleep 0.3; printf 'f1.png\\nf2.png\\n' > \"" + fifo + "\") &";
    ASSERT_EQ(std::system(writer.c_str()), 0);
    EXPECT_EQ(readInputList(fifo), (std::vector<std::string>{"f1.png", "f2.png"}));
}

TEST(InputList, AnEndlessPipeStopsAtTheLimit)
{
    TempFolder dir("list");
    const std::string fifo = dir.file("endless");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string writer = "(yes a.png > \"" + fifo + "\" 2>/dev/null || true) &";
    ASSERT_EQ(std::system(writer.c_str()), 0);
    InputListLimits small;
    small.maxBytes = 1 << 20;
    EXPECT_NE(message([&] { readInputList(fifo, small); }).find("larger than 1 MiB"), std::string::npos);
}

TEST(BatchShardParse, AcceptsKOfN)
{
    const BatchShard s = parseShard("3/8");
    EXPECT_EQ(s.index, 3);
    EXPECT_EQ(s.count, 8);
    EXPECT_EQ(s.text(), "3/8");
    EXPECT_EQ(parseShard("1/1").count, 1);
    EXPECT_EQ(parseShard("100000/100000").index, 100000);
    EXPECT_EQ(parseShard("007/010").index, 7);
}

TEST(BatchShardParse, RefusesEverythingElse)
{
    for (const char* bad : {"", "/", "1", "1/", "/4", "0/4", "5/4", "-1/4", "+1/4", "1/0", "1/100001", " 1/4", "1/4 ",
                            "1.0/4", "1/4/2", "a/b", "1/1e3", "99999999999/4"}) {
        EXPECT_THROW(parseShard(bad), std::invalid_argument) << bad;
    }
    EXPECT_NE(message([] { parseShard("9/4"); }).find("'9/4'"), std::string::npos);
}

TEST(BatchShardParse, ShardsPartitionTheList)
{
    const int n = 7;
    for (std::size_t p = 0; p < 100; ++p) {
        int owners = 0;
        for (int k = 1; k <= n; ++k) {
            owners += BatchShard{k, n}.holds(p) ? 1 : 0;
        }
        EXPECT_EQ(owners, 1) << p;
    }
    EXPECT_TRUE((BatchShard{1, 3}.holds(0)));
    EXPECT_TRUE((BatchShard{2, 3}.holds(4)));
}

nlohmann::ordered_json shardReport(int k, int n, long long finished,
                                   const std::vector<std::pair<int, std::string>>& files)
{
    nlohmann::ordered_json doc;
    doc["finished_unix_ms"] = finished;
    doc["shard"] = {{"index", k}, {"count", n}};
    doc["list_total"] = 4;
    doc["output_folder"] = "/out";
    doc["name_template"] = "{stem}-{filter}";
    doc["format"] = "keep";
    doc["filters"] = nlohmann::ordered_json::array({{{"id", "box"}}});
    doc["files"] = nlohmann::ordered_json::array();
    for (const auto& [position, status] : files) {
        doc["files"].push_back({{"index", position},
                                {"position", position},
                                {"input", "/in/" + std::to_string(position) + ".png"},
                                {"status", status},
                                {"output", "/out/" + std::to_string(position) + "-box.png"}});
    }
    return doc;
}

TEST(ReportMerge, ListsEveryFileOnceNewestWins)
{
    const auto a = shardReport(1, 2, 100, {{1, "ok"}, {3, "cancelled"}});
    const auto b = shardReport(2, 2, 110, {{2, "ok"}, {4, "failed"}});
    const auto rerun = shardReport(1, 2, 200, {{1, "skipped"}, {3, "ok"}});
    const MergedReport merged =
        mergeReports({{"b.json", b.dump()}, {"rerun.json", rerun.dump()}, {"a.json", a.dump()}});
    EXPECT_EQ(merged.total, 4u);
    EXPECT_EQ(merged.ok, 3u);  // 1 written by the first run, its rerun's skip keeps that; 3 by the rerun
    EXPECT_EQ(merged.failed, 1u);
    EXPECT_EQ(merged.cancelled, 0u);
    EXPECT_EQ(merged.missing, 0u);
    const auto doc = nlohmann::json::parse(merged.json);
    ASSERT_EQ(doc["files"].size(), 4u);
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(doc["files"][i]["position"], i + 1);
    }
    EXPECT_EQ(doc["finished_unix_ms"], 200);
    EXPECT_EQ(doc["merged_from"].size(), 3u);
}

TEST(ReportMerge, CountsMissingPositions)
{
    const MergedReport merged = mergeReports({{"a.json", shardReport(1, 2, 1, {{1, "ok"}, {3, "ok"}}).dump()}});
    EXPECT_EQ(merged.missing, 2u);
    EXPECT_EQ(nlohmann::json::parse(merged.json)["missing_positions"], nlohmann::json::array({2, 4}));
}

TEST(ReportMerge, RefusesOtherJobsAndNonReports)
{
    auto other = shardReport(2, 2, 1, {{2, "ok"}});
    other["output_folder"] = "/elsewhere";
    const std::string what = message([&] {
        mergeReports({{"a.json", shardReport(1, 2, 1, {{1, "ok"}}).dump()}, {"b.json", other.dump()}});
    });
    EXPECT_NE(what.find("different jobs"), std::string::npos) << what;
    EXPECT_NE(what.find("output_folder"), std::string::npos) << what;
    EXPECT_THROW(mergeReports({{"x.json", "{"}}), ReportUnreadable);
    EXPECT_THROW(mergeReports({{"x.json", "[]"}}), ReportUnreadable);
    EXPECT_THROW(mergeReports({{"x.json", R"({"files":[{"input":1}],"output_folder":"","name_template":"",)"
                                          R"("format":"","filters":[]})"}}),
                 ReportUnreadable);
    auto huge = shardReport(1, 1, 1, {});
    huge["list_total"] = 1ULL << 60;
    EXPECT_THROW(mergeReports({{"huge.json", huge.dump()}}), ReportUnreadable);
}

}  // namespace
}  // namespace tessera::app
