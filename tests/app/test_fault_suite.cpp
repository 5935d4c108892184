// SPDX-License-Identifier: Apache-2.0
// The fault suite's folders and neighbours, against the real tessera-cli: an output folder nobody
// may write to (the immutable attribute for root, permission bits for anyone else, and for root
// also a run as an unprivileged user where setpriv can drop to one), a read-only input folder,
// and several runs writing the same output at once. Each run either succeeds whole or fails
// naming the file and the reason; inputs are never touched and no temporary is left.

#include "batch_test_data.h"

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <random>
#include <string>
#include <vector>

namespace tessera::test {
namespace {

namespace fs = std::filesystem;
const auto q = quoted;

std::size_t filesIn(const fs::path& dir)
{
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

/// Three small images in dir/in and their bytes, to check they are never written.
struct Inputs {
    fs::path folder;
    std::map<std::string, std::string> bytes;
};

Inputs makeInputs(const TempFolder& dir, int count = 3)
{
    Inputs made{dir.path() / "in", {}};
    fs::create_directories(made.folder);
    std::mt19937 rng(std::random_device{}());
    for (int i = 0; i < count; ++i) {
        const std::string path = (made.folder / ("p" + std::to_string(i) + ".png")).string();
        app::writeImage(path, randomImage(rng, 61 + i, 47 + 2 * i, CV_8UC3));
        made.bytes[path] = readBytes(path);
    }
    return made;
}

void expectUntouched(const Inputs& inputs)
{
    for (const auto& [path, bytes] : inputs.bytes) {
        EXPECT_EQ(readBytes(path), bytes) << path << " was changed";
    }
}

/// The command line prefix that runs the CLI as the unprivileged user "nobody", or empty when
/// this process is not root, cannot drop privileges here, or "nobody" cannot run the build's CLI
/// (a checkout under a private home folder).
std::string asNobody()
{
    const std::string prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
    const std::string probe = prefix + "\"" + std::string(TESSERA_CLI) + "\" --version >/dev/null 2>&1";
    if (::geteuid() != 0 || std::system(probe.c_str()) != 0) {
        return {};
    }
    return prefix;
}

void checkReadOnlyOutput(const TempFolder& dir, const Inputs& inputs, const fs::path& out, const std::string& prefix)
{
    const std::string applyOut = (out / "one.png").string();
    const CliRun apply =
        cli(dir, "apply " + q(inputs.bytes.begin()->first) + " -o " + q(applyOut) + " --filter box", prefix);
    EXPECT_EQ(apply.code, 1) << apply.err;
    EXPECT_NE(apply.err.find(applyOut), std::string::npos) << apply.err;
    EXPECT_NE(apply.err.find("not writable"), std::string::npos) << apply.err;

    const CliRun batch = cli(
        dir, "batch " + q(inputs.folder.string()) + " -o " + q(out.string()) + " --filter gaussian --jobs 4", prefix);
    EXPECT_EQ(batch.code, 1) << batch.out << batch.err;
    EXPECT_NE(batch.out.find("0 written"), std::string::npos) << batch.out;
    EXPECT_NE(batch.out.find(std::to_string(inputs.bytes.size()) + " failed"), std::string::npos) << batch.out;
    for (const auto& entry : inputs.bytes) {
        EXPECT_NE(batch.err.find(entry.first), std::string::npos) << "no message names " << entry.first << ":\n"
                                                                  << batch.err;
    }
    EXPECT_NE(batch.err.find("not writable"), std::string::npos) << batch.err;
    EXPECT_EQ(filesIn(out), 0u) << "something was written into the read-only folder";
    expectUntouched(inputs);
}

TEST(FaultSuite, ReadOnlyOutputFolderFailsEachFileByName)
{
    TempFolder dir("ro-out");
    const Inputs inputs = makeInputs(dir);
    const fs::path out = dir.path() / "out";
    fs::create_directories(out);
    const ReadOnlyFolder readOnly(out);
    if (!readOnly.ok()) {
        GTEST_SKIP() << "no folder can be made read-only for this user on this file system";
    }
    checkReadOnlyOutput(dir, inputs, out, "");
}

TEST(FaultSuite, ReadOnlyOutputFolderForAnUnprivilegedUser)
{
    const std::string prefix = asNobody();
    if (::geteuid() == 0 && prefix.empty()) {
        GTEST_SKIP() << "root, but no unprivileged user can run this build's tessera-cli (no setpriv, or "
                        "the build folder is private): the immutable-attribute test covers root";
    }
    TempFolder dir("ro-nobody");
    // The unprivileged user must reach the folder: the test's own folder is opened up.
    fs::permissions(dir.path(), fs::perms::all, fs::perm_options::add);
    const Inputs inputs = makeInputs(dir);
    const fs::path out = dir.path() / "out";
    fs::create_directories(out);
    fs::permissions(out, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::group_exec |
                             fs::perms::others_read | fs::perms::others_exec);
    // The unprivileged user writes its stdout/stderr captures into the test folder.
    checkReadOnlyOutput(dir, inputs, out, prefix);
}

TEST(FaultSuite, ReadOnlyInputFolderIsReadAndLeftAlone)
{
    TempFolder dir("ro-in");
    const Inputs inputs = makeInputs(dir);
    // A stale temporary of a dead process in the input folder: only output folders are swept.
    const fs::path stale = inputs.folder / ".p0.tmp-0-999999-abcdef.png";
    writeBytes(stale, "partial");
    const ReadOnlyFolder readOnly(inputs.folder);
    if (!readOnly.ok()) {
        GTEST_SKIP() << "no folder can be made read-only for this user on this file system";
    }
    const fs::path out = dir.path() / "out";
    const CliRun batch = cli(dir, "batch " + q(inputs.folder.string()) + " -o " + q(out.string()) +
                                      " --filter box --jobs 4 --report " + q((dir.path() / "r.json").string()));
    EXPECT_EQ(batch.code, 0) << batch.out << batch.err;
    EXPECT_EQ(filesIn(out), inputs.bytes.size());
    const CliRun apply = cli(dir, "apply " + q(inputs.bytes.begin()->first) + " -o " +
                                      q((dir.path() / "one.png").string()) + " --filter box");
    EXPECT_EQ(apply.code, 0) << apply.err;
    EXPECT_TRUE(fs::exists(stale));
    expectUntouched(inputs);
}

// Four applies with different filters write one output name at the same moment, then two
// batches write one folder: every run succeeds, the file left is whole and is exactly one of the
// runs' results, and no temporary remains.
TEST(FaultSuite, ConcurrentWritersOnOneOutputLeaveOneWholeResult)
{
    TempFolder dir("concurrent");
    const Inputs inputs = makeInputs(dir, 6);
    const std::string in = inputs.bytes.begin()->first;
    const std::vector<std::string> filters{"box", "gaussian", "sharpen", "emboss"};
    std::vector<cv::Mat> expected;
    for (const std::string& f : filters) {
        const std::string ref = dir.file("ref-" + f + ".png");
        ASSERT_EQ(cli(dir, "apply " + q(in) + " -o " + q(ref) + " --filter " + f).code, 0) << f;
        expected.push_back(cv::imread(ref, cv::IMREAD_UNCHANGED));
    }
    const fs::path shared = dir.path() / "shared";
    fs::create_directories(shared);
    const std::string out = (shared / "same.png").string();
    for (int round = 0; round < 5; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        std::string script;
        for (std::size_t i = 0; i < filters.size(); ++i) {
            const std::string rc = dir.file("rc" + std::to_string(i));
            script += "( \"" + std::string(TESSERA_CLI) + "\" apply " + q(in) + " -o " + q(out) + " --filter " +
                      filters[i] + " >/dev/null 2>>" + q(dir.file("err.txt")) + "; echo $? >" + q(rc) + " ) & ";
        }
        ASSERT_EQ(std::system((script + "wait").c_str()), 0);
        for (std::size_t i = 0; i < filters.size(); ++i) {
            EXPECT_EQ(readBytes(dir.file("rc" + std::to_string(i))), "0\n") << readBytes(dir.file("err.txt"));
        }
        const cv::Mat got = cv::imread(out, cv::IMREAD_UNCHANGED);
        ASSERT_FALSE(got.empty()) << "the output does not decode";
        int matches = 0;
        for (const cv::Mat& e : expected) {
            matches += e.size() == got.size() && e.type() == got.type() && cv::norm(e, got, cv::NORM_INF) == 0.0;
        }
        EXPECT_EQ(matches, 1) << "the output is none of the runs' results";
        EXPECT_TRUE(leftovers(shared).empty());
    }

    const fs::path folder = dir.path() / "batch-out";
    std::string script;
    for (int i = 0; i < 2; ++i) {
        script += "( \"" + std::string(TESSERA_CLI) + "\" batch " + q(inputs.folder.string()) + " -o " +
                  q(folder.string()) + " --filter box --policy overwrite --jobs 4 >/dev/null 2>>" +
                  q(dir.file("err.txt")) + "; echo $? >" + q(dir.file("brc" + std::to_string(i))) + " ) & ";
    }
    ASSERT_EQ(std::system((script + "wait").c_str()), 0);
    EXPECT_EQ(readBytes(dir.file("brc0")), "0\n") << readBytes(dir.file("err.txt"));
    EXPECT_EQ(readBytes(dir.file("brc1")), "0\n") << readBytes(dir.file("err.txt"));
    EXPECT_EQ(filesIn(folder), inputs.bytes.size());
    EXPECT_TRUE(leftovers(folder).empty());
    for (const auto& [path, bytes] : inputs.bytes) {
        const std::string written = (folder / (fs::path(path).stem().string() + "-box.png")).string();
        const CliRun ref = cli(dir, "apply " + q(path) + " -o " + q(dir.file("ref.png")) + " --filter box");
        ASSERT_EQ(ref.code, 0) << ref.err;
        EXPECT_EQ(readBytes(written), readBytes(dir.file("ref.png"))) << written;
    }
    expectUntouched(inputs);
}

}  // namespace
}  // namespace tessera::test
