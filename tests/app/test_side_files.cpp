// SPDX-License-Identifier: Apache-2.0
// No file a run reads is ever written, and no file is written twice: side outputs (--trace,
// --report, --csv, manifests) and outputs pointed at inputs, presets, kernel files or each other
// are refused before anything is written, whatever the spelling (./, ../, symbolic and hard links).

#include "app/io/file_roles.h"
#include "batch_test_data.h"

#include <gtest/gtest.h>

#include <random>

namespace tessera::app {
namespace {

using test::cli;
using test::CliRun;
using test::TempFolder;
namespace fs = std::filesystem;

class SideFiles : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::mt19937 rng(std::random_device{}());
        fs::create_directories(dir_.path() / "in" / "sub");
        for (int i = 0; i < 2; ++i) {
            writeImage(input(i), test::randomImage(rng, 11 + i, 7, CV_8UC3));
        }
        test::writeBytes(preset_, R"({"filters": [{"id": "box", "params": {"size": 3}}]})");
        test::writeBytes(kernel_, "0 1 0\n1 -4 1\n0 1 0\n");
        for (const fs::path& p : {fs::path(input(0)), fs::path(input(1)), preset_, kernel_}) {
            before_[p.string()] = test::readBytes(p);
        }
    }

    std::string input(int i) const { return (dir_.path() / "in" / ("p" + std::to_string(i) + ".png")).string(); }

    /// Runs tessera-cli; expects a refusal (exit 2, "Nothing was written.") naming `words`, and
    /// every file read before the run unchanged.
    void expectRefused(const std::string& args, const std::vector<std::string>& words)
    {
        SCOPED_TRACE(args);
        const CliRun r = cli(dir_, args);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find("Nothing was written."), std::string::npos) << r.err;
        for (const std::string& w : words) {
            EXPECT_NE(r.err.find(w), std::string::npos) << "'" << w << "' not in: " << r.err;
        }
        for (const auto& [path, bytes] : before_) {
            EXPECT_EQ(test::readBytes(path), bytes) << path << " changed";
        }
    }

    static std::string q(const std::string& s) { return test::quoted(s); }

    TempFolder dir_{"side-files"};
    fs::path preset_ = dir_.path() / "stack.json";
    fs::path kernel_ = dir_.path() / "k.txt";
    std::map<std::string, std::string> before_;
};

TEST_F(SideFiles, ApplyRefusesSideOutputsOnItsInputs)
{
    const std::string in = input(0);
    const std::string out = dir_.file("out.png");
    expectRefused("apply " + q(in) + " -o " + q(out) + " --filter box --trace " + q(in), {"--trace", "input image"});
    expectRefused("apply " + q(in) + " -o " + q(out) + " --filter box --trace " + q(out),
                  {"--trace", "both would be written"});
    EXPECT_FALSE(fs::exists(out));
    expectRefused("apply " + q(in) + " -o " + q(preset_.string()) + " --preset " + q(preset_.string()), {"the preset"});
    expectRefused("apply " + q(in) + " -o " + q(kernel_.string()) + " --kernel @" + q(kernel_.string()),
                  {"kernel file"});
    // Other spellings of the same files.
    const std::string dotted = (dir_.path() / "in" / "sub" / ".." / "." / "p0.png").string();
    expectRefused("apply " + q(in) + " -o " + q(out) + " --filter box --trace " + q(dotted), {"input image"});
    fs::create_symlink(in, dir_.path() / "link.png");
    expectRefused("apply " + q(in) + " -o " + q(out) + " --filter box --trace " + q(dir_.file("link.png")),
                  {"input image"});
    fs::create_hard_link(preset_, dir_.path() / "hard.json");
    expectRefused("apply " + q(in) + " -o " + q(dir_.file("hard.json")) + " --preset " + q(preset_.string()),
                  {"the preset"});
    EXPECT_EQ(test::readBytes(dir_.file("hard.json")), before_[preset_.string()]);
    // A distinct trace is written.
    const CliRun ok = cli(dir_, "apply " + q(in) + " -o " + q(out) + " --filter box --trace " + q(dir_.file("t.json")));
    EXPECT_EQ(ok.code, 0) << ok.err;
    EXPECT_TRUE(fs::exists(out));
    EXPECT_TRUE(fs::exists(dir_.file("t.json")));
}

TEST_F(SideFiles, BatchRefusesReportsAndManifestsOnItsFiles)
{
    const std::string in = (dir_.path() / "in").string();
    const std::string out = (dir_.path() / "out").string();
    const std::string base = "batch " + q(in) + " -o " + q(out) + " --filter box";
    expectRefused(base + " --report " + q(input(1)), {"--report", "input image"});
    expectRefused(base + " --csv " + q(input(0)), {"--csv", "input image"});
    expectRefused(base + " --report " + q(dir_.file("r.txt")) + " --csv " + q(dir_.file("r.txt")),
                  {"--csv", "both would be written"});
    expectRefused(base + " --template {stem} --format png --report " + q(out + "/p0.png"), {"--report", "output of"});
    expectRefused(base + " --template {stem} --format png --manifest --csv " + q(out + "/p1.png.json"), {"manifest"});
    expectRefused("batch " + q(in) + " -o " + q(out) + " --preset " + q(preset_.string()) + " --report " +
                      q(preset_.string()),
                  {"the preset"});
    EXPECT_FALSE(fs::exists(out + "/p0.png"));
    const CliRun ok = cli(dir_, base + " --report " + q(dir_.file("r.json")) + " --csv " + q(dir_.file("r.csv")));
    EXPECT_EQ(ok.code, 0) << ok.err;
    EXPECT_TRUE(fs::exists(dir_.file("r.json")));
    EXPECT_TRUE(fs::exists(dir_.file("r.csv")));
}

// A trace that cannot be written fails the run before the image is written, not after.
TEST_F(SideFiles, ATraceIntoAMissingFolderFailsBeforeTheImageIsWritten)
{
    const std::string out = dir_.file("out.png");
    const std::string trace = (dir_.path() / "missing" / "t.json").string();
    const CliRun r = cli(dir_, "apply " + q(input(0)) + " -o " + q(out) + " --filter box --trace " + q(trace));
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find(trace), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("folder does not exist"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
}

TEST(FileRoles, NamesBothRolesAndPassesDistinctFiles)
{
    TempFolder dir{"file-roles"};
    test::writeBytes(dir.file("a.png"), "x");
    FileRoles distinct;
    distinct.reads(dir.file("a.png"), "the input");
    distinct.writes(dir.file("b.png"), "the output");
    distinct.writes(dir.file("c.json"), "the report");
    EXPECT_NO_THROW(distinct.check());

    FileRoles twice;
    twice.reads(dir.file("a.png"), "the input");
    twice.writes(dir.file("new.png"), "the output");
    twice.writes((dir.path() / "." / "new.png").string(), "the report");
    try {
        twice.check();
        FAIL() << "two spellings of one new file were not refused";
    } catch (const FilesOverlap& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("the report"), std::string::npos) << what;
        EXPECT_NE(what.find("the output"), std::string::npos) << what;
    }
}

}  // namespace
}  // namespace tessera::app
