// SPDX-License-Identifier: Apache-2.0
// A disk that fills up while an output is written: every encoder's output goes through checked
// writes, so the run fails with the file's name and the reason, a file already at the output
// name is left as it was, no temporary is left behind, and a batch counts the file as failed.
// The full disk is a file-size limit (ulimit -f, with SIGXFSZ ignored so that write() fails
// with EFBIG instead of killing the process), which needs no privileges.

#include "batch_test_data.h"

#include <gtest/gtest.h>

#include <random>

namespace tessera::app {
namespace {

using test::cli;
using test::CliRun;
using test::TempFolder;
const auto q = test::quoted;
namespace fs = std::filesystem;

// 40 blocks of 512 bytes in sh: far less than any of the outputs below.
const std::string kFullDisk = "trap '' XFSZ; ulimit -f 40; ";

std::size_t filesIn(const fs::path& dir)
{
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(FullDisk, ApplyFailsForEveryFormatAndKeepsTheFileThere)
{
    TempFolder dir{"full-disk"};
    std::mt19937 rng(std::random_device{}());
    const std::string in = dir.file("in.png");
    writeImage(in, test::randomImage(rng, 300, 200, CV_8UC3));
    fs::create_directories(dir.path() / "out");
    for (const char* ext : {"png", "jpg", "tif", "bmp", "webp", "exr"}) {
        SCOPED_TRACE(ext);
        const std::string out = (dir.path() / "out" / (std::string("result.") + ext)).string();
        const std::string depth = std::string(ext) == "exr" ? " --depth f32" : "";
        // A good file first, made without the limit.
        const CliRun first = cli(dir, "apply " + q(in) + " -o " + q(out) + " --filter box" + depth);
        ASSERT_EQ(first.code, 0) << first.err;
        const std::string before = test::readBytes(out);
        const std::size_t files = filesIn(dir.path() / "out");

        const CliRun full = cli(dir, "apply " + q(in) + " -o " + q(out) + " --filter gaussian" + depth, kFullDisk);
        EXPECT_EQ(full.code, 1) << full.err;
        EXPECT_NE(full.err.find(out), std::string::npos) << full.err;
        EXPECT_NE(full.err.find("cannot write"), std::string::npos) << full.err;
        EXPECT_EQ(test::readBytes(out), before);
        EXPECT_EQ(filesIn(dir.path() / "out"), files) << "a temporary was left behind";
    }
}

TEST(FullDisk, BatchCountsTheFilesAsFailed)
{
    TempFolder dir{"full-disk-batch"};
    std::mt19937 rng(std::random_device{}());
    fs::create_directories(dir.path() / "in");
    for (int i = 0; i < 3; ++i) {
        writeImage((dir.path() / "in" / ("p" + std::to_string(i) + ".png")).string(),
                   test::randomImage(rng, 300, 200, CV_8UC3));
    }
    const std::string out = (dir.path() / "out").string();
    fs::create_directories(out);
    const CliRun r = cli(
        dir, "batch " + q((dir.path() / "in").string()) + " -o " + q(out) + " --filter box --format webp", kFullDisk);
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("0 written"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("3 failed"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
    EXPECT_EQ(filesIn(out), 0u);
}

}  // namespace
}  // namespace tessera::app
