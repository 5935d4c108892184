// SPDX-License-Identifier: Apache-2.0
// The fault suite's soak: a batch of 1,000 files with failures injected all through it, against
// one of 100 files. One input in ten cannot be decoded (cut short, empty, text), one in twenty
// fails while its output is written (a file-size limit makes write() fail with EFBIG, as a full
// disk would), and every image is filtered by the engine on two CPU slots whose second one throws
// device faults through the engine's fault hook, so tiles are handed back and finished on the
// other slot. Every good file must come out exact, every bad one reported with its name and
// reason, nothing else left in the output folder, and the process's peak memory the same for
// 1,000 files as for 100 (the runner holds a bounded number of images, whatever the count).

#include "app/batch/batch_plan.h"
#include "app/batch/batch_runner.h"
#include "app/io/image_io.h"
#include "batch_test_data.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "tessera/gpu/cuda_error.h"
#include "tessera/gpu/engine.h"

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>

#include <sys/resource.h>

#include <atomic>
#include <csignal>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace tessera::app {
namespace {

using test::TempFolder;
namespace fs = std::filesystem;

// Large enough that holding every image of the batch would show (1,000 x 110 KiB decoded), small
// enough that the soak stays a few seconds.
constexpr int kWidth = 200;
constexpr int kHeight = 188;
// Outputs above this fail to write; the "large" inputs' outputs are above it, the others below.
constexpr rlim_t kFileLimit = 400 * 1024;

enum class Kind { Good, Truncated, Empty, Text, TooLargeToWrite };

Kind kindOf(int i)
{
    switch (i % 20) {
    case 3: return Kind::Truncated;
    case 9: return Kind::Empty;
    case 16: return Kind::Text;
    case 13: return Kind::TooLargeToWrite;
    default: return Kind::Good;
    }
}

struct Made {
    std::map<std::string, Kind> kinds;
    /// A hash of each input's bytes, to see they are untouched: holding the bytes themselves
    /// would put every input in this process's memory, which is what the soak measures.
    std::map<std::string, std::size_t> hashes;
};

Made makeInputs(const fs::path& folder, int count, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    fs::create_directories(folder);
    Made made;
    std::vector<uchar> png;
    for (int i = 0; i < count; ++i) {
        const Kind kind = kindOf(i);
        const fs::path path = folder / ("f" + std::to_string(10000 + i) + ".png");
        // Noise does not compress: a 640 x 480 RGB output is about 900 KiB, above the limit.
        const cv::Mat image = kind == Kind::TooLargeToWrite ? test::randomImage(rng, 480, 640, CV_8UC3)
                                                            : test::randomImage(rng, kHeight, kWidth, CV_8UC3);
        cv::imencode(".png", image, png);
        std::string bytes(png.begin(), png.end());
        if (kind == Kind::Truncated) {
            bytes.resize(bytes.size() / 2);
        } else if (kind == Kind::Empty) {
            bytes.clear();
        } else if (kind == Kind::Text) {
            bytes = "not an image, only a name that says so\n";
        }
        test::writeBytes(path, bytes);
        made.kinds[path.string()] = kind;
        made.hashes[path.string()] = std::hash<std::string>{}(bytes);
    }
    return made;
}

/// The peak resident memory (VmHWM) of this process in MiB, after resetting it when reset.
double peakMiB(bool reset)
{
    if (reset) {
        std::ofstream("/proc/self/clear_refs") << "5";
    }
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmHWM:", 0) == 0) {
            return std::stod(line.substr(6)) / 1024.0;
        }
    }
    return -1.0;
}

struct Faults {
    std::atomic<long> calls{0};
    std::atomic<int> thrown{0};
};

/// The engine on two CPU slots in small tiles; slot 1 throws a device fault on one call in seven.
BatchProcessor faultyEngine(Faults& faults)
{
    gpu::RunOptions options;
    options.placement = values::Placement::Streamed;
    options.deviceSlots = {values::DeviceSlot{values::DeviceId::cpu(), 0, 1.0},
                           values::DeviceSlot{values::DeviceId::cpu(), 0, 1.0}};
    options.tileSize = values::TileSize{64, 48};
    options.streamsPerGpu = 1;
    options.fault = [&faults](values::SlotIndex slot, int, values::Phase) {
        if (slot == values::SlotIndex{1} && faults.calls.fetch_add(1) % 7 == 3) {
            ++faults.thrown;
            throw gpu::CudaError(700, "kernel(injected)", __FILE__, __LINE__, "injected device fault");
        }
    };
    // The batch calls its processors from several workers at once, and a Pipeline serves one
    // thread at a time: each call takes an idle pipeline (or makes one) and gives it back.
    struct Pool {
        std::mutex mutex;
        std::vector<std::unique_ptr<gpu::Pipeline>> idle;
    };
    auto pool = std::make_shared<Pool>();
    return [pool, options](const cv::Mat& image, const filters::FilterChain& chain, const std::atomic<bool>&) {
        std::unique_ptr<gpu::Pipeline> pipeline;
        {
            const std::lock_guard<std::mutex> lock(pool->mutex);
            if (!pool->idle.empty()) {
                pipeline = std::move(pool->idle.back());
                pool->idle.pop_back();
            }
        }
        if (!pipeline) {
            pipeline = std::make_unique<gpu::Pipeline>(options);
        }
        struct GiveBack {
            Pool& pool;
            std::unique_ptr<gpu::Pipeline>& pipeline;
            ~GiveBack()
            {
                const std::lock_guard<std::mutex> lock(pool.mutex);
                pool.idle.push_back(std::move(pipeline));
            }
        } giveBack{*pool, pipeline};
        ProcessOutcome outcome;
        pipeline->run(image, chain, outcome.image);
        outcome.device = "CPU slots";
        return outcome;
    };
}

struct SoakResult {
    double peakMiB = 0.0;
    int faultsThrown = 0;
};

void soak(int count, SoakResult& result)
{
    SCOPED_TRACE(std::to_string(count) + " files");
    TempFolder dir("soak-" + std::to_string(count));
    const std::uint32_t seed = std::random_device{}();
    SCOPED_TRACE("seed " + std::to_string(seed));
    const Made made = makeInputs(dir.path() / "in", count, seed);

    BatchJob job;
    job.inputs = {(dir.path() / "in").string()};
    job.outputDir = (dir.path() / "out").string();
    job.nameTemplate = "{stem}";
    job.format = "png";
    job.chain = {{filters::makeGaussian(1.0, 5), filters::makeBox(3)}};
    job.jobs = 2;
    job.maxInFlight = 4;
    Faults faults;
    const std::vector<BatchProcessor> processors{faultyEngine(faults)};

    rlimit previous{};
    ::getrlimit(RLIMIT_FSIZE, &previous);
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = previous;
    limited.rlim_cur = kFileLimit;
    EXPECT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
    const std::atomic<bool> never{false};
    peakMiB(true);
    const BatchSummary summary = runBatch(planBatch(job), job, processors, never);
    result.peakMiB = peakMiB(false);
    ::setrlimit(RLIMIT_FSIZE, &previous);
    std::signal(SIGXFSZ, oldHandler);
    result.faultsThrown = faults.thrown;

    int good = 0;
    EXPECT_EQ(summary.files.size(), static_cast<std::size_t>(count));
    for (const FileResult& r : summary.files) {
        SCOPED_TRACE(r.input);
        const Kind kind = made.kinds.at(r.input);
        if (kind == Kind::Good) {
            ++good;
            ASSERT_EQ(r.status, FileStatus::Ok) << r.error;
            const cv::Mat want = filters::applyCpu(readImage(r.input), job.chain);
            const cv::Mat got = readImage(r.output);
            ASSERT_EQ(got.size(), want.size());
            ASSERT_EQ(cv::norm(got, want, cv::NORM_INF), 0.0);
            continue;
        }
        EXPECT_EQ(r.status, FileStatus::Failed);
        EXPECT_NE(r.error.find(r.input), std::string::npos) << r.error;
        if (kind == Kind::TooLargeToWrite) {
            EXPECT_NE(r.error.find("cannot write"), std::string::npos) << r.error;
        }
        EXPECT_FALSE(fs::exists(fs::path(job.outputDir) / (fs::path(r.input).stem().string() + ".png")));
    }
    EXPECT_EQ(summary.ok, good);
    EXPECT_EQ(summary.failed, count - good);
    std::size_t outputs = 0;
    for (const auto& entry : fs::directory_iterator(job.outputDir)) {
        (void)entry;
        ++outputs;
    }
    EXPECT_EQ(outputs, static_cast<std::size_t>(good)) << "temporaries or partial outputs were left";
    for (const auto& [path, hash] : made.hashes) {
        ASSERT_EQ(std::hash<std::string>{}(test::readBytes(path)), hash) << path << " was changed";
    }
}

TEST(FaultSoak, ThousandFilesWithInjectedFailuresStayExactAndFlat)
{
    SoakResult hundred;
    SoakResult thousand;
    soak(100, hundred);
    soak(1000, thousand);
    // Device faults really were injected, and were survived.
    EXPECT_GT(hundred.faultsThrown, 0);
    EXPECT_GT(thousand.faultsThrown, 10 * hundred.faultsThrown / 2);
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer keeps freed memory in quarantine (256 MiB by default) and adds its shadow:
    // resident memory says nothing about the runner here. Exactness and the reports still count.
    std::cout << "peak memory not compared under AddressSanitizer\n";
    return;
#endif
    // Holding every image of the larger batch would add over 100 MiB; the bound allows noise.
    EXPECT_LT(thousand.peakMiB, hundred.peakMiB + 32.0)
        << "peak memory grew with the number of files: " << hundred.peakMiB << " MiB for 100, " << thousand.peakMiB
        << " MiB for 1,000";
    RecordProperty("peak_mib_100_files", std::to_string(hundred.peakMiB));
    RecordProperty("peak_mib_1000_files", std::to_string(thousand.peakMiB));
    std::cout << "peak resident memory: " << hundred.peakMiB << " MiB for 100 files, " << thousand.peakMiB
              << " MiB for 1,000; device faults injected: " << hundred.faultsThrown << ", " << thousand.faultsThrown
              << "\n";
}

}  // namespace
}  // namespace tessera::app
