// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_devices.h"
#include "app/batch/batch_manifest.h"
#include "app/batch/batch_plan.h"
#include "app/batch/batch_runner.h"
#include "app/devices/device_scheduler.h"
#include "app/io/image_io.h"
#include "batch_test_data.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "tessera/gpu/engine.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace tessera::app {
namespace {

using test::TempFolder;
namespace fs = std::filesystem;

filters::FilterChain testChain()
{
    return {{filters::makeGaussian(1.0, 5), filters::makeBox(3)}};
}

std::uint32_t freshSeed()
{
    return std::random_device{}();
}

BatchSummary runJob(const BatchJob& job, const std::vector<BatchProcessor>& processors = {cpuProcessor()},
                    const BatchProgressCallback& progress = {}, std::atomic<bool>* cancel = nullptr)
{
    std::atomic<bool> never{false};
    return runBatch(planBatch(job), job, processors, cancel != nullptr ? *cancel : never, progress);
}

// The output of result equals the CPU path applied to the decoded input, pixel for pixel.
void expectExactOutput(const FileResult& result, const filters::FilterChain& chain)
{
    SCOPED_TRACE(result.input);
    ASSERT_EQ(result.status, FileStatus::Ok) << result.error;
    const cv::Mat want = filters::applyCpu(readImage(result.input), chain);
    const cv::Mat got = readImage(result.output);
    ASSERT_EQ(got.type(), want.type());
    ASSERT_EQ(got.size(), want.size());
    EXPECT_EQ(cv::norm(got, want, cv::NORM_INF), 0.0);
}

class BatchRunner : public ::testing::Test {
protected:
    void SetUp() override
    {
        seed_ = freshSeed();
        made_ = test::makeMixedFolder(in_.path(), seed_);
        job_.inputs = {in_.path().string()};
        job_.outputDir = out_.file("results");
        job_.nameTemplate = "{stem}_{ext}";
        job_.format = "tif";  // holds every depth and channel count without loss
        job_.chain = testChain();
        job_.jobs = 2;
        job_.maxInFlight = 3;
    }

    void expectInputsUntouched() const
    {
        for (const auto& [path, bytes] : made_.hashes) {
            EXPECT_EQ(test::readBytes(path), bytes) << path << " changed";
        }
    }

    std::uint32_t seed_ = 0;
    TempFolder in_{"in"};
    TempFolder out_{"out"};
    test::MixedFolder made_;
    BatchJob job_;
};

TEST_F(BatchRunner, EveryGoodFileExactEveryBadFileNamedNothingLeftOver)
{
    SCOPED_TRACE("seed " + std::to_string(seed_));
    const BatchSummary summary = runJob(job_);
    ASSERT_EQ(summary.files.size(), made_.good.size() + made_.bad.size());
    std::set<std::string> good(made_.good.begin(), made_.good.end());
    for (const FileResult& r : summary.files) {
        if (good.contains(r.input)) {
            expectExactOutput(r, job_.chain);
            EXPECT_EQ(r.device, "CPU");
        } else {
            ASSERT_TRUE(made_.bad.contains(r.input)) << r.input;
            EXPECT_EQ(r.status, FileStatus::Failed) << r.input;
            EXPECT_NE(r.error.find(r.input), std::string::npos) << r.error;
            EXPECT_NE(r.error.find(made_.bad.at(r.input)), std::string::npos) << r.error;
        }
    }
    EXPECT_EQ(summary.ok, static_cast<int>(made_.good.size()));
    EXPECT_EQ(summary.failed, static_cast<int>(made_.bad.size()));
    EXPECT_FALSE(summary.wasCancelled);
    EXPECT_EQ(std::distance(fs::directory_iterator(job_.outputDir), fs::directory_iterator()),
              static_cast<long>(made_.good.size()));
    EXPECT_TRUE(test::leftovers(job_.outputDir).empty());
    EXPECT_TRUE(test::leftovers(in_.path()).empty());
    expectInputsUntouched();
}

TEST_F(BatchRunner, CancelAfterSomeFilesLeavesOnlyCompleteOutputs)
{
    SCOPED_TRACE("seed " + std::to_string(seed_));
    std::atomic<bool> cancel{false};
    const int k = 5;
    const BatchSummary summary = runJob(
        job_, {cpuProcessor()},
        [&](const BatchProgress& p) {
            if (p.finished != nullptr && p.finished->status == FileStatus::Ok && p.done >= k) {
                cancel = true;
            }
        },
        &cancel);
    EXPECT_TRUE(summary.wasCancelled);
    EXPECT_GE(summary.ok, 1);
    EXPECT_GT(summary.cancelled, 0);
    std::set<std::string> written;
    for (const FileResult& r : summary.files) {
        if (r.status == FileStatus::Ok) {
            expectExactOutput(r, job_.chain);
            written.insert(r.output);
        } else if (r.status == FileStatus::Cancelled) {
            EXPECT_FALSE(fs::exists(r.output)) << r.output;
        }
    }
    for (const auto& entry : fs::directory_iterator(job_.outputDir)) {
        EXPECT_TRUE(written.contains(entry.path().string())) << "unexpected " << entry.path();
    }
    EXPECT_TRUE(test::leftovers(job_.outputDir).empty());
    expectInputsUntouched();
}

TEST_F(BatchRunner, ReadOnlyOutputFolderFailsEveryFileClearly)
{
    fs::create_directories(job_.outputDir);
    BatchSummary summary;
    {
        const test::ReadOnlyFolder readOnly(job_.outputDir);
        if (!readOnly.ok()) {
            GTEST_SKIP() << "running as root on a file system without the immutable attribute: "
                            "no folder is read-only here";
        }
        summary = runJob(job_);
    }
    EXPECT_EQ(summary.ok, 0);
    for (const FileResult& r : summary.files) {
        if (!made_.bad.contains(r.input)) {
            EXPECT_NE(r.error.find("not writable"), std::string::npos) << r.error;
            EXPECT_NE(r.error.find(r.input), std::string::npos) << r.error;
        }
    }
    EXPECT_TRUE(fs::is_empty(job_.outputDir));
    expectInputsUntouched();
}

TEST_F(BatchRunner, TemplateThatHitsAnInputIsRefusedBeforeTheRun)
{
    job_.outputDir = in_.path().string();
    job_.nameTemplate = "{stem}";
    job_.format.clear();
    try {
        planBatch(job_);
        FAIL() << "expected a refusal";
    } catch (const BatchRefused& e) {
        EXPECT_NE(std::string(e.what()).find("would replace the input"), std::string::npos) << e.what();
    }
    expectInputsUntouched();
}

TEST_F(BatchRunner, HardLinkToAnInputIsRefused)
{
    fs::create_directories(job_.outputDir);
    const std::string input = made_.good.front();
    job_.inputs = {input};
    const fs::path in(input);
    fs::create_hard_link(input, fs::path(job_.outputDir) /
                                    (in.stem().string() + "_" + in.extension().string().substr(1) + ".tif"));
    EXPECT_THROW(planBatch(job_), BatchRefused);
}

TEST_F(BatchRunner, TwoInputsWithOneOutputAreRefusedNamingBoth)
{
    job_.nameTemplate = "same";
    job_.inputs = {made_.good[0], made_.good[1]};
    try {
        planBatch(job_);
        FAIL() << "expected a refusal";
    } catch (const BatchRefused& e) {
        const std::string text = e.what();
        EXPECT_NE(text.find(made_.good[0]), std::string::npos) << text;
        EXPECT_NE(text.find(made_.good[1]), std::string::npos) << text;
    }
    EXPECT_FALSE(fs::exists(job_.outputDir));
}

TEST_F(BatchRunner, FormatThatCannotHoldTheDepthIsRefused)
{
    job_.format = "jpg";
    job_.depth = filters::OutputDepth::U16;
    try {
        planBatch(job_);
        FAIL() << "expected a refusal";
    } catch (const BatchRefused& e) {
        EXPECT_NE(std::string(e.what()).find("JPEG cannot hold u16"), std::string::npos) << e.what();
    }
    job_.format = "xyz";
    job_.depth = filters::OutputDepth::Same;
    EXPECT_THROW(planBatch(job_), BatchRefused);
}

TEST_F(BatchRunner, AFloatDepthSetInTheStackIsCheckedAgainstTheFormatToo)
{
    // The job keeps the stack's depths; the stack's first step writes float and the last keeps
    // it, so JPEG cannot hold the outputs and nothing starts.
    job_.format = "jpg";
    job_.depth = filters::OutputDepth::Same;
    ASSERT_GE(job_.chain.steps.size(), 1u);
    job_.chain.steps.front().depth = filters::OutputDepth::F32;
    for (size_t i = 1; i < job_.chain.steps.size(); ++i) {
        job_.chain.steps[i].depth = filters::OutputDepth::Same;
    }
    try {
        planBatch(job_);
        FAIL() << "expected a refusal";
    } catch (const BatchRefused& e) {
        EXPECT_NE(std::string(e.what()).find("JPEG cannot hold f32"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(job_.outputDir));
    // A later step back to 8 bits makes JPEG fine again.
    job_.chain.steps.back().depth = filters::OutputDepth::U8;
    EXPECT_NO_THROW(planBatch(job_));
}

TEST_F(BatchRunner, AFloatStackWithTheFormatKeptIsRefusedBeforeTheRun)
{
    // "Same as input" for the format while the stack writes float: the PNG and JPEG inputs'
    // outputs cannot hold it. Refused up front, naming the outputs, instead of failing each.
    job_.format.clear();
    job_.depth = filters::OutputDepth::Same;
    ASSERT_GE(job_.chain.steps.size(), 1u);
    for (filters::FilterSpec& step : job_.chain.steps) {
        step.depth = filters::OutputDepth::F32;
    }
    try {
        planBatch(job_);
        FAIL() << "expected a refusal";
    } catch (const BatchRefused& e) {
        const std::string why = e.what();
        EXPECT_NE(why.find("the filters write f32 data"), std::string::npos) << why;
        EXPECT_NE(why.find("cannot hold f32"), std::string::npos) << why;
        EXPECT_NE(why.find(".png"), std::string::npos) << why;
    }
    EXPECT_FALSE(fs::exists(job_.outputDir));
    expectInputsUntouched();
}

TEST_F(BatchRunner, AKeptInputDepthTheFormatCannotHoldIsRefusedBeforeTheRun)
{
    // Every depth kept, into PNG: the float TIFFs among the inputs cannot go there, which their
    // headers tell before anything is decoded or written.
    job_.format = "png";
    job_.depth = filters::OutputDepth::Same;
    try {
        planBatch(job_);
        FAIL() << "expected a refusal";
    } catch (const BatchRefused& e) {
        const std::string why = e.what();
        EXPECT_NE(why.find("PNG cannot hold f32"), std::string::npos) << why;
        EXPECT_NE(why.find(".tif (f32)"), std::string::npos) << why;
        EXPECT_NE(why.find("the depth is kept"), std::string::npos) << why;
    }
    EXPECT_FALSE(fs::exists(job_.outputDir));
    // Converted to 16 bits, the same inputs fit PNG.
    job_.depth = filters::OutputDepth::U16;
    EXPECT_NO_THROW(planBatch(job_));
    // Kept in their own formats, each input's depth fits by nature.
    job_.format.clear();
    job_.depth = filters::OutputDepth::Same;
    EXPECT_NO_THROW(planBatch(job_));
}

// A kept format that cannot hold the depth asked for used to fail each file in the run; it is
// now refused before the run, with the same reason.
TEST_F(BatchRunner, KeptFormatThatCannotHoldTheChosenDepthIsRefusedBeforeTheRun)
{
    job_.format.clear();
    job_.nameTemplate = "{stem}";
    job_.inputs = {made_.good[2]};  // u16 PNG
    job_.depth = filters::OutputDepth::F32;
    try {
        planBatch(job_);
        FAIL() << "expected a refusal";
    } catch (const BatchRefused& e) {
        EXPECT_NE(std::string(e.what()).find("PNG cannot hold f32"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(job_.outputDir));
}

TEST_F(BatchRunner, PoliciesSkipRenameOverwrite)
{
    job_.inputs = {made_.good[0], made_.good[1], made_.good[2]};
    ASSERT_EQ(runJob(job_).ok, 3);
    const std::string first = test::readBytes(fs::path(job_.outputDir) / "img100_png.tif");

    job_.chain = {{filters::makeBox(5)}};
    job_.policy = OverwritePolicy::Skip;
    const BatchSummary skipped = runJob(job_);
    EXPECT_EQ(skipped.skipped, 3);
    EXPECT_NE(skipped.files[0].error.find("exists"), std::string::npos);
    EXPECT_EQ(test::readBytes(fs::path(job_.outputDir) / "img100_png.tif"), first);

    job_.policy = OverwritePolicy::Rename;
    const BatchSummary renamed = runJob(job_);
    ASSERT_EQ(renamed.ok, 3);
    EXPECT_EQ(renamed.files[0].output, (fs::path(job_.outputDir) / "img100_png-1.tif").string());
    expectExactOutput(renamed.files[0], job_.chain);
    EXPECT_EQ(test::readBytes(fs::path(job_.outputDir) / "img100_png.tif"), first);
    EXPECT_EQ(runJob(job_).files[0].output, (fs::path(job_.outputDir) / "img100_png-2.tif").string());

    job_.policy = OverwritePolicy::Overwrite;
    const BatchSummary replaced = runJob(job_);
    ASSERT_EQ(replaced.ok, 3);
    EXPECT_EQ(replaced.files[0].output, (fs::path(job_.outputDir) / "img100_png.tif").string());
    expectExactOutput(replaced.files[0], job_.chain);
    EXPECT_TRUE(test::leftovers(job_.outputDir).empty());
}

TEST_F(BatchRunner, ManifestHoldsInputHashFiltersDeviceAndVersions)
{
    job_.inputs = {made_.good[0]};
    job_.manifest = true;
    const BatchSummary summary = runJob(job_);
    ASSERT_EQ(summary.ok, 1);
    const auto doc = nlohmann::json::parse(test::readBytes(manifestPath(summary.files[0].output)));
    EXPECT_EQ(doc["input_sha256"], sha256File(made_.good[0]));
    EXPECT_EQ(doc["input_sha256"].get<std::string>().size(), 64u);
    ASSERT_EQ(doc["filters"].size(), 2u);
    EXPECT_EQ(doc["filters"][0]["id"], "gaussian");
    EXPECT_EQ(doc["filters"][0]["weights"].size(), 25u);
    EXPECT_EQ(doc["filters"][1]["border"], "reflect101");
    EXPECT_EQ(doc["device"], "CPU");
    EXPECT_FALSE(doc["versions"]["opencv"].get<std::string>().empty());
    EXPECT_TRUE(doc["timings_ms"].contains("compute"));
}

TEST(BatchHash, Sha256OfKnownText)
{
    TempFolder dir("hash");
    test::writeBytes(dir.file("abc"), "abc");
    EXPECT_EQ(sha256File(dir.file("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_F(BatchRunner, EachProcessorTakesFilesAndErrorsNameTheFile)
{
    std::mutex mutex;
    std::set<std::thread::id> threads;
    std::map<std::string, int> calls;
    auto fake = [&](const std::string& label, bool failOnGray) -> BatchProcessor {
        return
            [&, label, failOnGray](const cv::Mat& image, const filters::FilterChain& chain, const std::atomic<bool>&) {
                {
                    const std::lock_guard lock(mutex);
                    threads.insert(std::this_thread::get_id());
                    ++calls[label];
                }
                if (failOnGray && image.channels() == 1) {
                    throw std::runtime_error("device lost");
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                return ProcessOutcome{filters::applyCpu(image, chain), label, 1.0};
            };
    };
    job_.inputs = made_.good;
    const BatchSummary summary = runJob(job_, {fake("GPU 0", false), fake("GPU 1", true)});
    std::set<std::string> devices;
    for (const FileResult& r : summary.files) {
        if (r.status == FileStatus::Ok) {
            devices.insert(r.device);
            expectExactOutput(r, job_.chain);
        } else {
            EXPECT_NE(r.error.find(r.input), std::string::npos);
            EXPECT_NE(r.error.find("device lost"), std::string::npos);
        }
    }
    // The batch's own workers call the processors (no thread of a processor's own), and each
    // processor is given files.
    EXPECT_LE(threads.size(), static_cast<std::size_t>(job_.jobs));
    EXPECT_GE(calls["GPU 0"], 1);
    EXPECT_GE(calls["GPU 1"], 1);
    EXPECT_TRUE(devices.contains("GPU 0"));
    EXPECT_EQ(summary.ok + summary.failed, static_cast<int>(made_.good.size()));
}

TEST_F(BatchRunner, NoMoreImagesInFlightThanAllowed)
{
    // A slow processor lets decoders run ahead; the bound must stop them.
    std::atomic<int> decodedBeyondProcessed{0};
    std::atomic<int> processed{0};
    std::atomic<int> worst{0};
    job_.inputs = made_.good;
    job_.jobs = 4;
    job_.maxInFlight = 2;
    const BatchSummary summary =
        runJob(job_, {[&](const cv::Mat& image, const filters::FilterChain& chain, const std::atomic<bool>&) {
                   std::this_thread::sleep_for(std::chrono::milliseconds(3));
                   ++processed;
                   return ProcessOutcome{filters::applyCpu(image, chain), "CPU", 0.0};
               }},
               [&](const BatchProgress& p) {
                   if (p.finished == nullptr && p.fileFraction == 0.0) {
                       const int started = ++decodedBeyondProcessed;
                       const int ahead = started - p.done;
                       worst = std::max(worst.load(), ahead);
                   }
               });
    EXPECT_EQ(summary.ok, static_cast<int>(made_.good.size()));
    EXPECT_LE(worst.load(), job_.maxInFlight);
}

// Several files are on one processor at once, each worker carrying its own file through every
// stage, and the report lists the files in the plan's order whatever order they finish in.
TEST_F(BatchRunner, ProcessorsTakeSeveralFilesAtOnceAndTheReportKeepsThePlansOrder)
{
    std::atomic<int> now{0};
    std::atomic<int> most{0};
    std::atomic<int> calls{0};
    job_.inputs = made_.good;
    job_.jobs = 4;
    job_.maxInFlight = 4;
    const BatchSummary summary =
        runJob(job_, {[&](const cv::Mat& image, const filters::FilterChain& chain, const std::atomic<bool>&) {
                   const int at = ++now;
                   most = std::max(most.load(), at);
                   // Later files finish sooner: the order of finishing is not the order of the plan.
                   std::this_thread::sleep_for(std::chrono::milliseconds(40 / (1 + calls++ % 4)));
                   --now;
                   return ProcessOutcome{filters::applyCpu(image, chain), "CPU", 0.0};
               }});
    ASSERT_EQ(summary.ok, static_cast<int>(made_.good.size()));
    EXPECT_GE(most.load(), 2) << "one file at a time on the processor";
    EXPECT_LE(most.load(), job_.maxInFlight);
    const BatchPlan plan = planBatch(job_);
    ASSERT_EQ(summary.files.size(), plan.files.size());
    for (std::size_t i = 0; i < plan.files.size(); ++i) {
        EXPECT_EQ(summary.files[i].input, plan.files[i].input) << i;
        expectExactOutput(summary.files[i], job_.chain);
    }
}

// An identity chain is a copy: no processor runs, and every output holds the input's pixels.
TEST_F(BatchRunner, AnIdentityChainCopiesWithoutAProcessor)
{
    std::atomic<int> calls{0};
    job_.inputs = made_.good;
    job_.chain = filters::FilterChain{{filters::FilterSpec{}}};  // 1 x 1, weight 1
    ASSERT_TRUE(job_.chain.isIdentity());
    const BatchSummary summary =
        runJob(job_, {[&](const cv::Mat& image, const filters::FilterChain& chain, const std::atomic<bool>&) {
                   ++calls;
                   return ProcessOutcome{filters::applyCpu(image, chain), "CPU", 0.0};
               }});
    EXPECT_EQ(calls.load(), 0);
    ASSERT_EQ(summary.ok, static_cast<int>(made_.good.size()));
    for (const FileResult& r : summary.files) {
        EXPECT_EQ(r.device, kIdentityDevice);
        const cv::Mat in = readImage(r.input);
        const cv::Mat out = readImage(r.output);
        ASSERT_EQ(out.type(), in.type()) << r.input;
        EXPECT_EQ(cv::norm(out, in, cv::NORM_INF), 0.0) << r.input;
    }
}

// The processors keep their pipelines for the batch, and a lone CPU slot runs on the batch's
// own threads: no slot thread is started for any file, nor by a second batch on the same
// processors.
TEST_F(BatchRunner, SlotThreadsStartOncePerProcessorNotPerFile)
{
    DeviceScheduler scheduler;
    const std::vector<BatchProcessor> processors = makeProcessors({}, scheduler);
    const std::uint64_t before = gpu::slotWorkerStarts();
    const BatchSummary first = runJob(job_, processors);
    ASSERT_GE(first.ok, 8);
    EXPECT_EQ(gpu::slotWorkerStarts() - before, 0u) << first.ok << " files";

    BatchJob again = job_;
    again.outputDir = out_.file("again");
    const BatchSummary second = runJob(again, processors);
    EXPECT_EQ(second.ok, first.ok);
    EXPECT_EQ(gpu::slotWorkerStarts() - before, 0u) << "the second batch started threads";
}

}  // namespace
}  // namespace tessera::app
