// SPDX-License-Identifier: Apache-2.0
#include "files/temp_files.h"
#include "batch_test_data.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

#include <sys/stat.h>

// `batch --files-from`, `batch --shard` and `batch-report merge` through the real tessera-cli.
namespace tessera::app {
namespace {

using test::cli;
using test::CliRun;
using test::quoted;
using test::TempFolder;
namespace fs = std::filesystem;

class BatchShards : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::mt19937 rng(7);
        fs::create_directories(in_ / "sub");
        for (int i = 0; i < 10; ++i) {
            const fs::path where = i < 6 ? in_ : in_ / "sub";
            writeImage((where / ("p" + std::to_string(i) + ".png")).string(),
                       test::randomImage(rng, 7 + i, 11, CV_8UC3));
        }
        // Files, a folder, a pattern, a blank line, CRLF endings.
        test::writeBytes(dir_.path() / "list.txt", (in_ / "p0.png").string() + "\r\n\r\n" + (in_ / "sub").string() +
                                                       "/\n" + (in_ / "p[2-5].png").string() + "\n");
    }

    /// Runs the list's batch as shards 1/3, 2/3 and 3/3 into out, each with a report and a CSV,
    /// and checks what each says of its part; adds the positions written to positions and
    /// returns the reports.
    std::vector<std::string> runThreeShards(const std::string& out, std::set<int>& positions)
    {
        std::vector<std::string> reports;
        for (int k = 1; k <= 3; ++k) {
            const std::string report = dir_.file("shard" + std::to_string(k) + ".json");
            const std::string csv = dir_.file("shard" + std::to_string(k) + ".csv");
            const CliRun r = cli(dir_, "batch --files-from " + test::quoted(dir_.file("list.txt")) + " -o " +
                                           test::quoted(out) + filter_ + " --shard " + std::to_string(k) +
                                           "/3 --report " + test::quoted(report) + " --csv " + test::quoted(csv));
            EXPECT_EQ(r.code, 0) << r.err;
            if (r.code != 0) {
                return reports;
            }
            EXPECT_NE(r.out.find("(shard " + std::to_string(k) + "/3 of a list of 9)"), std::string::npos) << r.out;
            const auto doc = nlohmann::json::parse(test::readBytes(report));
            EXPECT_EQ(doc["shard"]["index"], k);
            EXPECT_EQ(doc["shard"]["count"], 3);
            EXPECT_EQ(doc["list_total"], 9);
            for (const auto& f : doc["files"]) {
                const int p = f["position"];
                EXPECT_EQ((p - 1) % 3, k - 1);
                EXPECT_TRUE(positions.insert(p).second) << p;
                EXPECT_EQ(f["index"], p);  // no non-image in this list: {index} is the position
            }
            EXPECT_EQ(test::readBytes(csv).rfind("shard,position,file,", 0), 0u);
            reports.push_back(report);
        }
        return reports;
    }

    /// Shard 1/3 run again into out skips what it wrote and rewrites nothing.
    void expectARerunRewritesNothing(const std::string& out)
    {
        // A shard run again skips what it wrote and rewrites nothing.
        struct stat before {};
        ASSERT_EQ(::stat((fs::path(out) / "1-p0.png").c_str(), &before), 0);
        const CliRun again =
            cli(dir_, "batch --files-from " + test::quoted(dir_.file("list.txt")) + " -o " + test::quoted(out) +
                          filter_ + " --shard 1/3 --report " + test::quoted(dir_.file("again.json")));
        EXPECT_EQ(again.code, 0) << again.err;
        EXPECT_NE(again.out.find("0 written, 3 skipped"), std::string::npos) << again.out;
        struct stat after {};
        ASSERT_EQ(::stat((fs::path(out) / "1-p0.png").c_str(), &after), 0);
        EXPECT_EQ(before.st_ino, after.st_ino);
        EXPECT_EQ(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
    }

    /// Missing shards are counted and fail the merge; -o on an input and other jobs are refused.
    void expectMergeRefusesWhatItCannotMerge(const std::vector<std::string>& reports, const std::string& args)
    {
        // Missing shards are counted and fail the merge; -o on an input and other jobs are refused.
        EXPECT_EQ(
            cli(dir_, "batch-report merge -o " + test::quoted(dir_.file("part.json")) + " " + test::quoted(reports[0]))
                .code,
            1);
        EXPECT_EQ(nlohmann::json::parse(test::readBytes(dir_.file("part.json")))["missing"], 6);
        const std::string before1 = test::readBytes(reports[0]);
        const CliRun self = cli(dir_, "batch-report merge -o " + test::quoted(reports[0]) + args);
        EXPECT_EQ(self.code, 2);
        EXPECT_EQ(test::readBytes(reports[0]), before1);
        const std::string other = dir_.file("other.json");
        ASSERT_EQ(cli(dir_, "batch --files-from " + test::quoted(dir_.file("list.txt")) + " -o " +
                                test::quoted(dir_.file("o2")) +
                                " --filter gaussian --device cpu --shard 2/3 --report " + test::quoted(other))
                      .code,
                  0);
        const CliRun mixed =
            cli(dir_, "batch-report merge -o " + test::quoted(dir_.file("m2.json")) + args + " " + test::quoted(other));
        EXPECT_EQ(mixed.code, 2);
        EXPECT_NE(mixed.err.find("different jobs"), std::string::npos) << mixed.err;
        EXPECT_FALSE(fs::exists(dir_.file("m2.json")));
        EXPECT_EQ(cli(dir_, "batch-report merge --help").code, 0);
        EXPECT_EQ(cli(dir_, "batch-report merge " + args).code, 2);
        EXPECT_EQ(cli(dir_, "batch-report").code, 2);
    }

    // The files of folder with their bytes.
    static std::map<std::string, std::string> contents(const fs::path& folder)
    {
        std::map<std::string, std::string> files;
        for (const auto& entry : fs::directory_iterator(folder)) {
            files[entry.path().filename().string()] = test::readBytes(entry.path());
        }
        return files;
    }

    TempFolder dir_{"shards"};
    fs::path in_ = dir_.path() / "in";
    std::string filter_ = " --filter box --param size=3 --device cpu --jobs 2 --template {index}-{stem}";
};

TEST_F(BatchShards, ListInputsAreCommandLineInputs)
{
    const std::string whole = dir_.file("whole");
    const CliRun a =
        cli(dir_, "batch " + test::quoted((in_ / "p1.png").string()) + " " + test::quoted((in_ / "p0.png").string()) +
                      " " + test::quoted((in_ / "sub").string()) + " " + test::quoted((in_ / "p[2-5].png").string()) +
                      " -o " + test::quoted(whole) + filter_);
    ASSERT_EQ(a.code, 0) << a.err;
    const std::string listed = dir_.file("listed");
    const CliRun b = cli(dir_, "batch " + test::quoted((in_ / "p1.png").string()) + " --files-from " +
                                   test::quoted(dir_.file("list.txt")) + " -o " + test::quoted(listed) + filter_);
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_EQ(contents(whole), contents(listed));
    EXPECT_EQ(contents(whole).size(), 10u);
    EXPECT_TRUE(fs::exists(fs::path(listed) / "01-p1.png"));
    EXPECT_TRUE(fs::exists(fs::path(listed) / "02-p0.png"));

    const std::string piped = dir_.file("piped");
    const CliRun c = cli(dir_, "batch " + test::quoted((in_ / "p1.png").string()) + " --files-from - -o " +
                                   test::quoted(piped) + filter_ + " < " + test::quoted(dir_.file("list.txt")));
    ASSERT_EQ(c.code, 0) << c.err;
    EXPECT_EQ(contents(whole), contents(piped));
}

TEST_F(BatchShards, BadListsAreUsageErrors)
{
    test::writeBytes(dir_.path() / "nul.txt", std::string("a.png\nb\0c.png\n", 14));
    const CliRun nul = cli(dir_, "batch --files-from " + test::quoted(dir_.file("nul.txt")) + " -o " +
                                     test::quoted(dir_.file("out")) + filter_);
    EXPECT_EQ(nul.code, 2);
    EXPECT_NE(nul.err.find("nul.txt, line 2: a NUL byte"), std::string::npos) << nul.err;
    EXPECT_FALSE(fs::exists(dir_.file("out")));
    EXPECT_EQ(cli(dir_, "batch --files-from " + test::quoted(dir_.file("none.txt")) + " -o x" + filter_).code, 2);
    EXPECT_EQ(cli(dir_, "batch --files-from " + test::quoted(in_.string()) + " -o x" + filter_).code, 2);
    EXPECT_EQ(cli(dir_, "batch --files-from - --files-from - -o x" + filter_ + " </dev/null").code, 2);
    const CliRun empty = cli(dir_, "batch --files-from - -o x" + filter_ + " </dev/null");
    EXPECT_EQ(empty.code, 2);
    EXPECT_NE(empty.err.find("hold no path"), std::string::npos) << empty.err;
    // An output may not replace the list.
    const CliRun over = cli(dir_, "batch --files-from " + test::quoted(dir_.file("list.txt")) + " -o " +
                                      test::quoted(dir_.path().string()) + filter_ + " --template list --format txt");
    EXPECT_EQ(over.code, 2);
}

TEST_F(BatchShards, ShardOptionErrorsExitTwo)
{
    for (const char* bad : {"0/4", "5/4", "1/0", "1/100001", "x", "2", "-1/3", "1/3/3"}) {
        const CliRun r = cli(dir_, "batch " + test::quoted(in_.string()) + " -o " + test::quoted(dir_.file("o")) +
                                       filter_ + " --shard " + test::quoted(bad));
        EXPECT_EQ(r.code, 2) << bad;
        EXPECT_NE(r.err.find("--shard"), std::string::npos) << r.err;
    }
    EXPECT_FALSE(fs::exists(dir_.file("o")));
}

TEST_F(BatchShards, ShardsTogetherWriteWhatOneRunWrites)
{
    const std::string whole = dir_.file("whole");
    ASSERT_EQ(
        cli(dir_, "batch --files-from " + test::quoted(dir_.file("list.txt")) + " -o " + test::quoted(whole) + filter_)
            .code,
        0);
    const std::string out = dir_.file("sharded");
    std::set<int> positions;
    const std::vector<std::string> reports = runThreeShards(out, positions);
    ASSERT_EQ(reports.size(), 3u);
    EXPECT_EQ(positions.size(), 9u);
    EXPECT_EQ(contents(whole), contents(out));

    expectARerunRewritesNothing(out);

    // The reports merge into one listing every file once.
    std::string args;
    for (const std::string& r : reports) {
        args += " " + test::quoted(r);
    }
    const std::string merged = dir_.file("merged.json");
    const CliRun m =
        cli(dir_, "batch-report merge -o " + test::quoted(merged) + args + " " + test::quoted(dir_.file("again.json")));
    ASSERT_EQ(m.code, 0) << m.err;
    EXPECT_NE(m.out.find("9 file(s), 9 written, 0 skipped"), std::string::npos) << m.out;
    const auto doc = nlohmann::json::parse(test::readBytes(merged));
    EXPECT_EQ(doc["files"].size(), 9u);
    EXPECT_EQ(doc["missing"], 0);

    expectMergeRefusesWhatItCannotMerge(reports, args);
    EXPECT_EQ(test::leftovers(dir_.path()), std::vector<std::string>{});
}

TEST_F(BatchShards, EveryShardRefusesACollisionAnywhereInTheList)
{
    // Two inputs named p0.png give one output without {index}; shard 2 holds neither and still refuses.
    test::writeBytes(dir_.path() / "dup.txt", (in_ / "p0.png").string() + "\n" + (in_ / "p1.png").string() + "\n" +
                                                  (in_ / "p2.png").string() + "\n");
    fs::copy_file(in_ / "p0.png", in_ / "sub" / "p0.png");
    test::writeBytes(dir_.path() / "dup.txt",
                     test::readBytes(dir_.path() / "dup.txt") + (in_ / "sub" / "p0.png").string());
    const CliRun r = cli(dir_, "batch --files-from " + test::quoted(dir_.file("dup.txt")) + " -o " +
                                   test::quoted(dir_.file("o")) + " --filter box --device cpu --shard 2/4");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("would both be written"), std::string::npos) << r.err;
}

TEST_F(BatchShards, AConcurrentShardsLiveTemporaryIsKept)
{
    const fs::path out = dir_.path() / "out";
    fs::create_directories(out);
    // Named after this test process, which is alive: a shard writing next door.
    const fs::path live = out / files::temporaryNameFor(out / "9-p9.png");
    test::writeBytes(live, "half written");
    const CliRun r = cli(dir_, "batch " + test::quoted(in_.string()) + " -o " + test::quoted(out.string()) + filter_ +
                                   " --shard 1/2");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(live));
    EXPECT_EQ(test::readBytes(live), "half written");
}

}  // namespace
}  // namespace tessera::app
