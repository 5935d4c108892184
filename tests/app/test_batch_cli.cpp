// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli.h"
#include "batch_test_data.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/engine.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <sstream>
#include <sys/wait.h>

namespace tessera::app {
namespace {

using test::TempFolder;
namespace fs = std::filesystem;

using test::cli;
using test::CliRun;

class BatchCli : public ::testing::Test {
protected:
    void SetUp() override
    {
        seed_ = std::random_device{}();
        std::mt19937 rng(seed_);
        fs::create_directories(in_);
        for (int i = 0; i < 4; ++i) {
            writeImage((in_ / ("p" + std::to_string(i) + ".png")).string(), test::randomImage(rng, 9 + i, 13, CV_8UC3));
        }
    }
    std::uint32_t seed_ = 0;
    TempFolder dir_{"cli"};
    fs::path in_ = dir_.path() / "in";
    std::string out_ = dir_.file("out");
};

// In one process, two batches (on the devices Auto picks, with a manifest and a report, which
// name the devices too) read the devices at most once between them, and start the slot threads
// of their pipelines per batch, not per file.
TEST_F(BatchCli, DevicesAreReadOncePerProcessAndThreadsOncePerBatch)
{
    const std::uint64_t scans = gpu::deviceScans();
    const std::uint64_t starts = gpu::slotWorkerStarts();
    for (const char* folder : {"first", "second"}) {
        std::ostringstream out;
        std::ostringstream err;
        const int code = runCli({"batch", in_.string(), "-o", dir_.file(folder), "--filter", "box", "--param", "size=3",
                                 "--jobs", "2", "--report", dir_.file(std::string(folder) + ".json"), "--manifest"},
                                out, err);
        ASSERT_EQ(code, 0) << err.str();
        EXPECT_NE(out.str().find("4 file(s): 4 written"), std::string::npos) << out.str();
    }
    EXPECT_LE(gpu::deviceScans() - scans, 1u) << "the devices were read again during the batches";
    // One slot thread per pipeline: the CPU slot, or per GPU its own pipeline (and, with several,
    // the one over all of them); never one per file of the 8.
    const std::uint64_t pipelinesPerBatch = std::max<std::size_t>(1, gpu::enumerateDevices().devices.size() * 2);
    EXPECT_LE(gpu::slotWorkerStarts() - starts, 2 * pipelinesPerBatch);
}

TEST_F(BatchCli, AllGoodExitsZeroWithSummaryAndReport)
{
    SCOPED_TRACE("seed " + std::to_string(seed_));
    const CliRun r = cli(dir_, "batch \"" + in_.string() + "\" -o \"" + out_ +
                                   "\" --filter box --param size=3 --device cpu"
                                   " --jobs 2 --report \"" +
                                   dir_.file("report.json") + "\" --manifest");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("4 file(s): 4 written, 0 skipped, 0 failed"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find('\r'), std::string::npos) << "no progress line when piped";
    const auto report = nlohmann::json::parse(test::readBytes(dir_.file("report.json")));
    EXPECT_EQ(report["ok"], 4);
    EXPECT_EQ(report["files"].size(), 4u);
    EXPECT_TRUE(fs::exists(fs::path(out_) / "p0-box.png"));
    EXPECT_TRUE(fs::exists(fs::path(out_) / "p0-box.png.json"));
}

TEST_F(BatchCli, ABadFileExitsOneAndIsListed)
{
    test::writeBytes(in_ / "broken.png", "not a png");
    const CliRun r = cli(dir_, "batch \"" + in_.string() + "\" -o \"" + out_ + "\" --filter gaussian");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("failed: " + (in_ / "broken.png").string()), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("4 written, 0 skipped, 1 failed"), std::string::npos) << r.out;
}

TEST_F(BatchCli, UsageErrorsAndRefusalsExitTwo)
{
    EXPECT_EQ(cli(dir_, "batch \"" + in_.string() + "\" --filter box").code, 2);         // no -o
    EXPECT_EQ(cli(dir_, "batch \"" + in_.string() + "\" -o \"" + out_ + "\"").code, 2);  // no filter
    EXPECT_EQ(cli(dir_, "batch \"" + in_.string() + "\" -o x --filter box --policy maybe").code, 2);
    const CliRun collide =
        cli(dir_, "batch \"" + in_.string() + "\" -o \"" + in_.string() + "\" --template {stem} --filter box");
    EXPECT_EQ(collide.code, 2);
    EXPECT_NE(collide.err.find("would replace the input"), std::string::npos) << collide.err;
    EXPECT_EQ(std::distance(fs::directory_iterator(in_), fs::directory_iterator()), 4);
}

}  // namespace
}  // namespace tessera::app
