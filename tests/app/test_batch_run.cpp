// SPDX-License-Identifier: Apache-2.0
// BatchRun, the one object tessera-cli batch and the window's Batch dialog both drive: the
// whole list planned, a shard's part run, the devices resolved once, workers defaulted, the
// nvJPEG choice passed on, and the selection's errors thrown before anything is written.
#include "app/batch/batch_run.h"

#include "app/batch/batch_shard.h"
#include "filters/factories.h"
#include "batch_test_data.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

namespace tessera::app {
namespace {

using test::TempFolder;
namespace fs = std::filesystem;

class BatchRunTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::mt19937 rng(3);
        fs::create_directories(in_);
        for (int i = 0; i < 5; ++i) {
            writeImage((in_ / ("f" + std::to_string(i) + ".png")).string(), test::randomImage(rng, 9, 13, CV_8UC3));
        }
        job_.inputs = {in_.string()};
        job_.outputDir = (dir_.path() / "out").string();
        job_.nameTemplate = "{stem}";
        job_.chain = {{filters::makeBox(3)}};
    }

    TempFolder dir_{"run"};
    fs::path in_ = dir_.path() / "in";
    BatchJob job_;
    DeviceScheduler scheduler_;
};

TEST_F(BatchRunTest, RunsTheWholeListOnTheCpu)
{
    BatchRunOptions options;
    options.device = "cpu";
    BatchRun run(job_, options, scheduler_);
    EXPECT_TRUE(run.gpus().empty());
    EXPECT_EQ(run.fileCount(), 5U);
    EXPECT_GT(run.job().jobs, 0) << "the workers are chosen when the job leaves them to the run";
    EXPECT_FALSE(run.scope().shard.has_value());
    std::atomic<bool> never{false};
    const BatchSummary summary = run.run(never);
    EXPECT_EQ(summary.ok, 5);
    EXPECT_EQ(std::distance(fs::directory_iterator(job_.outputDir), fs::directory_iterator()), 5);
}

TEST_F(BatchRunTest, AShardRunsItsPartAndKnowsTheWholeList)
{
    BatchRunOptions options;
    options.device = "cpu";
    options.shard = parseShard("2/2");
    BatchRun run(job_, options, scheduler_);
    EXPECT_EQ(run.wholePlan().files.size(), 5U);
    EXPECT_EQ(run.fileCount(), 2U);  // positions 1 and 3 of 0..4
    EXPECT_EQ(run.scope().listTotal, 5U);
    ASSERT_TRUE(run.scope().shard.has_value());
    std::atomic<bool> never{false};
    const BatchSummary summary = run.run(never);
    ASSERT_EQ(summary.files.size(), 2U);
    EXPECT_EQ(summary.ok, 2);
    EXPECT_EQ(fs::path(summary.files[0].input).filename(), "f1.png");
    EXPECT_EQ(fs::path(summary.files[1].input).filename(), "f3.png");
}

TEST_F(BatchRunTest, TheJobsWorkersAndTheCpuKeepTheirOwnChoices)
{
    job_.jobs = 3;
    BatchRunOptions options;
    options.device = "cpu";
    options.jpegOnGpu = true;  // no GPU in the selection: nothing to decode on
    const BatchRun run(job_, options, scheduler_);
    EXPECT_EQ(run.job().jobs, 3);
    EXPECT_TRUE(run.job().jpegGpus.empty());
}

TEST_F(BatchRunTest, ABadSelectionIsRefusedBeforeAnythingIsWritten)
{
    BatchRunOptions options;
    options.device = "gpu:banana";
    EXPECT_THROW(BatchRun(job_, options, scheduler_), std::invalid_argument);
    EXPECT_FALSE(fs::exists(job_.outputDir));
}

}  // namespace
}  // namespace tessera::app
