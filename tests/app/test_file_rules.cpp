// SPDX-License-Identifier: Apache-2.0
// The input and output rules of files/ as the real tessera-cli and its readers meet them. Side
// files (--report, --csv, --trace, the merged report) go straight into a device or FIFO and never
// replace it; images refuse one; a replaced file keeps its mode and a link stays a link. Every
// user-named input is a regular file of a bounded size, JSON is nested to a bounded depth, and
// reports that claim more than they list or contradict each other are refused. A FIFO would block
// a reader for ever: the `timeout` around such runs turns a hang into a failure (exit 124).

#include "app/batch/report_merge.h"
#include "batch_test_data.h"
#include "files/input_file.h"
#include "files/json_bounds.h"
#include "files/output_file.h"
#include "filters/preset_io.h"
#include "filters/registry.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace tessera::app {
namespace {

using test::cli;
using test::CliRun;
using test::TempFolder;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

const auto q = test::quoted;
// A hang or a runaway allocation in the CLI fails the run instead of the machine. AddressSanitizer
// reserves terabytes of address space for its shadow, so under it only the timeout guards.
#if defined(__SANITIZE_ADDRESS__)
const std::string kGuard = "umask 022; timeout 60 ";
#else
const std::string kGuard = "ulimit -v 4000000; umask 022; timeout 60 ";
#endif

mode_t modeOf(const std::string& path)
{
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 ? st.st_mode : 0;
}

bool isCharDevice(const std::string& path, dev_t device)
{
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == device;
}

std::string contains(const std::string& text, const std::string& word)
{
    return text.find(word) != std::string::npos ? std::string() : "'" + word + "' not in: " + text;
}

// A report of shard k/n of a list of total, listing (position, input, status) entries.
Json shardReport(int k, int n, std::size_t total, const std::vector<std::tuple<int, std::string, std::string>>& files)
{
    Json doc;
    std::map<std::string, int> counts;
    Json list = Json::array();
    for (const auto& [position, input, status] : files) {
        list.push_back({{"index", position},
                        {"position", position},
                        {"input", input},
                        {"status", status},
                        {"output", "/out/" + std::to_string(position) + ".png"}});
        ++counts[status];
    }
    doc["total"] = files.size();
    for (const char* status : {"ok", "skipped", "failed", "cancelled"}) {
        doc[status] = counts[status];
    }
    doc["finished_unix_ms"] = 1000 + k;
    doc["shard"] = {{"index", k}, {"count", n}};
    doc["list_total"] = total;
    doc["output_folder"] = "/out";
    doc["name_template"] = "{stem}";
    doc["format"] = "keep";
    doc["filters"] = Json::array({{{"id", "box"}}});
    doc["files"] = std::move(list);
    return doc;
}

class FileRules : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::mt19937 rng(11);
        writeImage(good_, test::randomImage(rng, 9, 13, CV_8UC3));
    }

    std::string batch(const std::string& extra) const
    {
        return "batch " + q(good_) + " -o " + q(dir_.file("out")) + " --filter box --device cpu --policy overwrite" +
               extra;
    }

    TempFolder dir_{"file-rules"};
    std::string good_ = dir_.file("good.png");
};

// As root, `--report /dev/null` once replaced the system's /dev/null with a regular file. Here
// on copies of it: every side file is written straight into the node, which stays the node; a
// block device is refused, and so is an image over a device.
TEST_F(FileRules, DeviceNodesAreWrittenStraightAndNeverReplaced)
{
    const dev_t null = ::makedev(1, 3);
    const std::string report = dir_.file("report-null");
    if (::mknod(report.c_str(), S_IFCHR | 0666, null) != 0) {
        GTEST_SKIP() << "mknod: " << std::strerror(errno) << " (making device nodes needs root)";
    }
    const std::string csv = dir_.file("csv-null");
    const std::string trace = dir_.file("trace-null");
    const std::string merged = dir_.file("merged-null");
    const std::string image = dir_.file("image-null.png");
    for (const std::string& node : {csv, trace, merged, image}) {
        ASSERT_EQ(::mknod(node.c_str(), S_IFCHR | 0666, null), 0) << node;
    }

    const CliRun b = cli(dir_, batch(" --report " + q(report) + " --csv " + q(csv)), kGuard);
    EXPECT_EQ(b.code, 0) << b.err;
    const std::string kept = dir_.file("kept.json");
    ASSERT_EQ(cli(dir_, batch(" --report " + q(kept)), kGuard).code, 0);
    const CliRun m = cli(dir_, "batch-report merge -o " + q(merged) + " " + q(kept), kGuard);
    EXPECT_EQ(m.code, 0) << m.err;
    const CliRun a = cli(
        dir_, "apply " + q(good_) + " -o " + q(dir_.file("a.png")) + " --filter box --device cpu --trace " + q(trace),
        kGuard);
    EXPECT_EQ(a.code, 0) << a.err;
    const CliRun i = cli(dir_, "apply " + q(good_) + " -o " + q(image) + " --filter box --device cpu", kGuard);
    EXPECT_EQ(i.code, 1) << i.err;
    EXPECT_EQ(contains(i.err, "character device"), "");
    for (const std::string& node : {report, csv, trace, merged, image}) {
        EXPECT_TRUE(isCharDevice(node, null)) << node << " was replaced";
    }

    const std::string block = dir_.file("block");
    if (::mknod(block.c_str(), S_IFBLK | 0600, ::makedev(7, 0)) == 0) {
        const CliRun r = cli(dir_, batch(" --report " + q(block)), kGuard);
        EXPECT_EQ(r.code, 1) << r.err;
        EXPECT_EQ(contains(r.err, block + ": is a block device"), "");
        EXPECT_EQ(contains(r.err, "Nothing was written."), "");
        EXPECT_TRUE(S_ISBLK(modeOf(block)));
    }
    EXPECT_EQ(test::leftovers(dir_.path()), std::vector<std::string>{});
}

// A FIFO is a pipe to a reader: a report goes into it (no temporary, no rename); with no reader
// the writer is told at once instead of waiting; an image is refused.
TEST_F(FileRules, FifosAreWrittenStraightOrRefusedAndNeverReplaced)
{
    const std::string fifo = dir_.file("report.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    ASSERT_GE(reader, 0);
    const CliRun r = cli(dir_, batch(" --report " + q(fifo)), kGuard);
    EXPECT_EQ(r.code, 0) << r.err;
    std::string text;
    char buffer[4096];
    for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;) {
        text.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(reader);
    EXPECT_TRUE(S_ISFIFO(modeOf(fifo))) << "the FIFO was replaced";
    const Json doc = Json::parse(text, nullptr, false);
    ASSERT_TRUE(doc.is_object()) << "no report came through the FIFO: '" << text << "'";
    EXPECT_EQ(doc["ok"], 1);

    const CliRun unread = cli(dir_, batch(" --report " + q(fifo)), kGuard);
    EXPECT_EQ(unread.code, 1) << unread.err;
    EXPECT_EQ(contains(unread.err, fifo + ": a FIFO that no process reads"), "");
    EXPECT_TRUE(S_ISFIFO(modeOf(fifo)));

    const std::string image = dir_.file("image.png");
    ASSERT_EQ(::mkfifo(image.c_str(), 0600), 0);
    const CliRun i = cli(dir_, "apply " + q(good_) + " -o " + q(image) + " --filter box --device cpu", kGuard);
    EXPECT_EQ(i.code, 1) << i.err;
    EXPECT_EQ(contains(i.err, image + ": is a FIFO"), "");
    EXPECT_TRUE(S_ISFIFO(modeOf(image)));
    EXPECT_EQ(test::leftovers(dir_.path()), std::vector<std::string>{});
}

// A report, a CSV, a merged report and a preset written over files keep those files' modes
// (the umask gave 0644 before) and, run as root, their owner; a symbolic link stays a link to
// the file it names.
TEST_F(FileRules, AReplacedFileKeepsItsModeAndALinkStaysALink)
{
    const std::string report = dir_.file("r.json");
    const std::string csv = dir_.file("real.csv");
    const std::string link = dir_.file("link.csv");
    const std::string merged = dir_.file("merged.json");
    for (const std::string& path : {report, csv, merged}) {
        test::writeBytes(path, "old");
    }
    fs::permissions(report, fs::perms::owner_read | fs::perms::owner_write);
    fs::permissions(csv, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    fs::permissions(merged, fs::perms::owner_read | fs::perms::owner_write);
    fs::create_symlink("real.csv", link);
    const bool root = ::geteuid() == 0;
    if (root) {
        ASSERT_EQ(::chown(report.c_str(), 65534, 65534), 0);  // nobody's
    }

    const CliRun b = cli(dir_, batch(" --report " + q(report) + " --csv " + q(link)), kGuard);
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_EQ(modeOf(report) & 07777, 0600u);
    struct stat owner {};
    ASSERT_EQ(::stat(report.c_str(), &owner), 0);
    if (root) {
        EXPECT_EQ(owner.st_uid, 65534u) << "root took the file from its owner";
        EXPECT_EQ(owner.st_gid, 65534u);
    }
    EXPECT_EQ(Json::parse(test::readBytes(report))["ok"], 1);
    EXPECT_TRUE(S_ISLNK(modeOf(link))) << "the link was replaced by a file";
    EXPECT_EQ(modeOf(csv) & 07777, 0640u);
    EXPECT_EQ(test::readBytes(csv).rfind("file,status", 0), 0u);

    const CliRun m = cli(dir_, "batch-report merge -o " + q(merged) + " " + q(report), kGuard);
    ASSERT_EQ(m.code, 0) << m.err;
    EXPECT_EQ(modeOf(merged) & 07777, 0600u);

    const std::string preset = dir_.file("stack.json");
    test::writeBytes(preset, "old");
    fs::permissions(preset, fs::perms::owner_read | fs::perms::owner_write);
    filters::savePreset(filters::parsePreset(R"({"filters": [{"id": "box"}]})", "inline", filters::builtinRegistry()),
                        preset);
    EXPECT_EQ(modeOf(preset) & 07777, 0600u);
    EXPECT_EQ(test::leftovers(dir_.path()), std::vector<std::string>{});
}

// A FIFO given to `batch-report merge` once blocked it for ever and /dev/zero was read until
// memory ran out: both are refused before anything is read.
TEST_F(FileRules, MergeRefusesAFifoAndADeviceAtOnce)
{
    const std::string fifo = dir_.file("shard.json");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string& input : {fifo, std::string("/dev/zero")}) {
        SCOPED_TRACE(input);
        const CliRun r = cli(dir_, "batch-report merge -o " + q(dir_.file("m.json")) + " " + q(input), kGuard);
        EXPECT_EQ(r.code, 1) << r.err;
        EXPECT_EQ(contains(r.err, input + ": not a regular file but a "), "");
        EXPECT_FALSE(fs::exists(dir_.file("m.json")));
    }
}

// A 3 KB report claiming a list of 100,000,000 files once allocated more than 4 GB; a report
// nesting 100,000 arrays crashed the merge while it printed the entry. Both are refused now,
// with exit 2 for the claim its own files contradict and 1 for a report that is not one.
TEST_F(FileRules, MergeRefusesHugeClaimsAndDeepNesting)
{
    Json huge = shardReport(1, 1, 3, {{1, "/in/1.png", "ok"}, {2, "/in/2.png", "ok"}, {3, "/in/3.png", "ok"}});
    huge["list_total"] = 100'000'000;
    test::writeBytes(dir_.file("huge.json"), huge.dump());
    const CliRun h =
        cli(dir_, "batch-report merge -o " + q(dir_.file("m.json")) + " " + q(dir_.file("huge.json")), kGuard);
    EXPECT_EQ(h.code, 2) << h.err;
    EXPECT_EQ(contains(h.err, "huge.json contradicts itself: it lists 3 files"), "");
    EXPECT_EQ(contains(h.err, "100000000"), "");

    Json deep = shardReport(1, 1, 1, {{1, "/in/1.png", "ok"}});
    deep["files"][0]["input"] = "@";
    std::string text = deep.dump();
    text.replace(text.find("\"@\""), 3, std::string(100'000, '[') + std::string(100'000, ']'));
    test::writeBytes(dir_.file("deep.json"), text);
    const CliRun d =
        cli(dir_, "batch-report merge -o " + q(dir_.file("m.json")) + " " + q(dir_.file("deep.json")), kGuard);
    EXPECT_EQ(d.code, 1) << d.err;
    EXPECT_EQ(contains(d.err, "deep.json: not a batch report: arrays and objects nested deeper than 64 levels"), "");
    EXPECT_FALSE(fs::exists(dir_.file("m.json")));
}

// Shards of a list rebuilt between their runs (one position, two files) once merged into more
// files than the list holds, with exit 0.
TEST_F(FileRules, ReportsOfDifferentListsExitTwo)
{
    const Json a = shardReport(1, 2, 4, {{1, "/in/a.png", "ok"}, {3, "/in/c.png", "ok"}});
    const Json b = shardReport(2, 2, 4, {{2, "/in/b.png", "ok"}, {4, "/in/d.png", "ok"}});
    const Json rebuilt = shardReport(1, 2, 4, {{1, "/in/x.png", "ok"}, {3, "/in/y.png", "ok"}});
    std::string args;
    for (const auto& [name, doc] :
         {std::pair{"a.json", a}, std::pair{"b.json", b}, std::pair{"rebuilt.json", rebuilt}}) {
        test::writeBytes(dir_.file(name), doc.dump());
        args += " " + q(dir_.file(name));
    }
    const CliRun r = cli(dir_, "batch-report merge -o " + q(dir_.file("m.json")) + args, kGuard);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(contains(r.err, "were made from different lists: place 1 is \"/in/a.png\" in one and \"/in/x.png\""), "");
    EXPECT_EQ(contains(r.err, "Nothing was written."), "");
    EXPECT_FALSE(fs::exists(dir_.file("m.json")));
}

std::string disagreement(const std::vector<ReportText>& reports)
{
    try {
        mergeReports(reports);
    } catch (const ReportsDisagree& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("not a disagreement: ") + e.what();
    }
    return "merged";
}

TEST(ReportContradictions, EachIsRefusedWithItsReason)
{
    const auto one = [](const Json& doc) { return std::vector<ReportText>{{"r.json", doc.dump()}}; };
    Json total = shardReport(1, 2, 4, {{1, "/in/1.png", "ok"}, {3, "/in/3.png", "ok"}});
    total["total"] = 5;
    EXPECT_EQ(contains(disagreement(one(total)), "r.json contradicts itself: \"total\" is 5 but it lists 2"), "");
    Json counts = shardReport(1, 2, 4, {{1, "/in/1.png", "ok"}, {3, "/in/3.png", "failed"}});
    counts["ok"] = 2;
    EXPECT_EQ(contains(disagreement(one(counts)), "\"ok\" is 2 but it lists 1 files with that status"), "");
    EXPECT_EQ(contains(disagreement(one(shardReport(1, 2, 4, {{1, "/in/1.png", "ok"}, {2, "/in/2.png", "ok"}}))),
                       "shard 1/2 but lists position 2"),
              "");
    EXPECT_EQ(contains(disagreement(one(shardReport(1, 2, 4, {{1, "/in/1.png", "ok"}, {1, "/in/1.png", "ok"}}))),
                       "lists place 1 in the list twice"),
              "");
    EXPECT_EQ(contains(disagreement(one(shardReport(1, 2, 4, {{1, "/in/1.png", "ok"}}))),
                       "it lists 1 files, but shard 1/2 of a list of 4 takes 2"),
              "");
    EXPECT_EQ(contains(disagreement(one(shardReport(1, 1, 2, {{1, "/in/1.png", "ok"}, {3, "/in/3.png", "ok"}}))),
                       "lists place 3 of a list of 2"),
              "");
    Json unplaced = shardReport(1, 1, 100'000'000, {{1, "/in/1.png", "ok"}});
    unplaced["files"][0].erase("position");  // keyed by "index": the claim is counted all the same
    EXPECT_EQ(contains(disagreement(one(unplaced)), "it lists 1 files, but shard 1/1 of a list of 100000000 takes"),
              "");
    Json legacy = shardReport(1, 2, 4, {{5, "/in/5.png", "ok"}});
    legacy.erase("list_total");
    legacy["files"][0].erase("position");
    EXPECT_EQ(contains(disagreement(
                           {{"r.json", shardReport(1, 2, 4, {{1, "/in/1.png", "ok"}, {3, "/in/3.png", "ok"}}).dump()},
                            {"old.json", legacy.dump()}}),
                       "old.json lists place 5 but the other reports' list holds 4"),
              "");
    // What passes merges, and the merged report merges again to itself.
    const MergedReport merged =
        mergeReports(one(shardReport(1, 2, 4, {{1, "/in/1.png", "ok"}, {3, "/in/3.png", "failed"}})));
    EXPECT_EQ(merged.missing, 2u);
    const MergedReport again = mergeReports({{"merged.json", merged.json}});
    EXPECT_EQ(again.total, merged.total);
    EXPECT_EQ(again.failed, 1u);
    EXPECT_EQ(again.missing, 2u);
    Json lying = Json::parse(merged.json);
    lying["missing"] = 0;
    EXPECT_EQ(contains(disagreement({{"merged.json", lying.dump()}}), "without \"missing\" and as many"), "");
    lying["missing_positions"] = Json::array();
    EXPECT_EQ(contains(disagreement({{"merged.json", lying.dump()}}), "lists 2 files and 0 missing of a list of 4"),
              "");
}

TEST(ReportContradictions, UnknownStatusesAndBadShardsAreNotReports)
{
    const auto unreadable = [](const Json& doc) {
        try {
            mergeReports({{"r.json", doc.dump()}});
        } catch (const ReportUnreadable& e) {
            return std::string(e.what());
        } catch (const std::exception& e) {
            return std::string("not unreadable: ") + e.what();
        }
        return std::string("merged");
    };
    EXPECT_EQ(contains(unreadable(shardReport(1, 1, 1, {{1, "/in/1.png", "done"}})),
                       "r.json: a file entry has the status \"done\""),
              "");
    Json shard = shardReport(1, 1, 1, {{1, "/in/1.png", "ok"}});
    shard["shard"] = {{"index", 3}, {"count", 2}};
    EXPECT_EQ(contains(unreadable(shard), "r.json: \"shard\" is not"), "");
    Json finished = shardReport(1, 1, 1, {{1, "/in/1.png", "ok"}});
    finished["finished"] = 5;
    EXPECT_EQ(contains(unreadable(finished), "r.json: \"finished\" is not a time as text: 5"), "");
}

// The input rule on its own: nothing but a regular file of a bounded size is opened.
TEST(InputRule, RefusesWhatIsNotARegularFileOfBoundedSize)
{
    TempFolder dir{"input-rule"};
    const std::string fifo = dir.file("in.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const files::InputRule rule{"a test file", 8, false};
    const auto reason = [&rule](const std::string& path) {
        try {
            files::readInputFile(path, rule);
        } catch (const files::InputFileError& e) {
            EXPECT_EQ(std::string(e.what()), path + ": " + e.reason());
            return e.reason();
        }
        return std::string("read");
    };
    EXPECT_EQ(reason(fifo), "not a regular file but a FIFO");
    EXPECT_EQ(reason("/dev/zero"), "not a regular file but a character device");
    EXPECT_EQ(reason(dir.path().string()), "is a directory, not a test file");
    EXPECT_EQ(reason(dir.file("missing")), "file not found");
    test::writeBytes(dir.file("big"), "123456789");
    EXPECT_EQ(reason(dir.file("big")), "larger than 8 bytes (9 bytes); a test file may hold at most 8 bytes");
    test::writeBytes(dir.file("small"), "12345678");
    EXPECT_EQ(files::readInputFile(dir.file("small"), rule), "12345678");
    EXPECT_EQ(files::checkInputFile(dir.file("small"), rule).bytes, 8u);
    EXPECT_THROW(files::checkInputFile(fifo, rule), files::InputFileError);
}

TEST(InputRule, JsonNestingIsBoundedBeforeTheTreeGrows)
{
    const auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
    EXPECT_NO_THROW(files::parseBoundedJson<nlohmann::json>(nested(files::kMaxJsonDepth)));
    EXPECT_THROW(files::parseBoundedJson<nlohmann::json>(nested(files::kMaxJsonDepth + 1)), files::JsonTooDeep);
    EXPECT_THROW(files::parseBoundedJson<nlohmann::ordered_json>(nested(100'000)), files::JsonTooDeep);
    EXPECT_THROW(files::parseBoundedJson<nlohmann::json>("[1,"), nlohmann::json::exception);
    try {
        filters::parsePreset(R"({"filters": [{"id": "box", "params": {"size": )" + nested(1000) + "}}]}", "deep.json",
                             filters::builtinRegistry());
        ADD_FAILURE() << "a deep preset parsed";
    } catch (const filters::PresetError& e) {
        EXPECT_EQ(contains(e.what(), "deep.json: invalid JSON: arrays and objects nested deeper than 64 levels"), "");
    }
}

// The output rule on its own: what it refuses, it refuses before anything is written.
TEST(OutputRule, RefusesFoldersMissingFoldersAndUnreadFifos)
{
    TempFolder dir{"output-rule"};
    const auto reason = [](const std::string& path, files::Streams streams) {
        try {
            files::OutputFile out(path, streams);
            out.write("text");
            out.commit();
        } catch (const files::OutputFileError& e) {
            return e.reason();
        }
        return std::string("written");
    };
    EXPECT_EQ(reason(dir.path().string(), files::Streams::Write), "is a directory, not a file");
    EXPECT_EQ(reason(dir.file("no/such.txt"), files::Streams::Write),
              "output folder does not exist: " + dir.file("no"));
    const std::string fifo = dir.file("out.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(reason(fifo, files::Streams::Write), "a FIFO that no process reads; nothing was written");
    EXPECT_EQ(reason(fifo, files::Streams::Refuse),
              "is a FIFO; only a regular file is written here, so it was left as it is");
    EXPECT_TRUE(S_ISFIFO(modeOf(fifo)));
    EXPECT_EQ(reason(dir.file("new.txt"), files::Streams::Write), "written");
    EXPECT_EQ(test::readBytes(dir.file("new.txt")), "text");
    // A FIFO put in the file's place while its temporary was written is left alone too.
    const std::string swapped = dir.file("swapped.txt");
    test::writeBytes(swapped, "old");
    {
        files::OutputFile out(swapped, files::Streams::Write);
        out.write("new");
        fs::remove(swapped);
        ASSERT_EQ(::mkfifo(swapped.c_str(), 0600), 0);
        try {
            out.commit();
            ADD_FAILURE() << "the FIFO was replaced";
        } catch (const files::OutputFileError& e) {
            EXPECT_EQ(e.reason(), "became a FIFO while it was written, so it was left as it is");
        }
    }
    EXPECT_TRUE(S_ISFIFO(modeOf(swapped)));
    EXPECT_EQ(test::leftovers(dir.path()), std::vector<std::string>{});
}

}  // namespace
}  // namespace tessera::app
