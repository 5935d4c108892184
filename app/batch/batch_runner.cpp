// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_runner.h"

#include "app/batch/batch_devices.h"
#include "app/batch/batch_manifest.h"
#include "app/io/image_io.h"
#include "tessera/gpu/engine.h"

#include <opencv2/core/utility.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include <sys/resource.h>

namespace tessera::app {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Sets OpenCV's thread count for its life and puts the previous one back.
class OpenCvThreads {
public:
    explicit OpenCvThreads(int threads) : previous_(cv::getNumThreads()) { cv::setNumThreads(threads); }
    ~OpenCvThreads() { cv::setNumThreads(previous_); }
    OpenCvThreads(const OpenCvThreads&) = delete;
    OpenCvThreads& operator=(const OpenCvThreads&) = delete;

private:
    int previous_;
};

// Bounds the images held between the start of decoding and the end of encoding, so memory
// stays flat however many workers there are.
class InFlight {
public:
    explicit InFlight(int slots) : free_(slots) {}

    // False when cancel was set before a slot came free.
    bool acquire(const std::atomic<bool>& cancel)
    {
        std::unique_lock lock(mutex_);
        while (free_ == 0) {
            if (cancel) {
                return false;
            }
            freed_.wait_for(lock, std::chrono::milliseconds(20));
        }
        --free_;
        return true;
    }

    void release()
    {
        {
            const std::lock_guard lock(mutex_);
            ++free_;
        }
        freed_.notify_one();
    }

private:
    std::mutex mutex_;
    std::condition_variable freed_;
    int free_;
};

struct Item {
    size_t slot = 0;  // position in the plan
    cv::Mat image;
    std::string inputSha256;
    ImageMetadata metadata;
};

class Pipeline {
public:
    Pipeline(const BatchPlan& plan, const BatchJob& job, const std::vector<BatchProcessor>& processors,
             const std::atomic<bool>& cancel, const BatchProgressCallback& progress)
        : plan_(plan), job_(job), processors_(processors), cancel_(cancel), progress_(progress),
          workers_(workerCount(job, plan)), inFlight_(job.maxInFlight > 0 ? job.maxInFlight : workers_),
          active_(processors.size(), 0), results_(plan.files.size())
    {
        if (job_.manifest) {
            manifest_ = ManifestContext::collect(plan_, job_);
        }
        openJpegDecoders();
    }

    BatchSummary run()
    {
        const auto start = Clock::now();
        for (size_t i = 0; i < plan_.files.size(); ++i) {
            const PlannedFile& file = plan_.files[i];
            results_[i].index = file.index;
            results_[i].position = file.position;
            results_[i].input = file.input;
            results_[i].output = file.output;
            if (file.status != FileStatus::Ok) {
                results_[i].status = file.status;
                results_[i].error = file.error;
                finish(i);
            } else {
                todo_.push_back(i);
            }
        }
        {
            // Every core has a file of its own, so OpenCV's parallel loops (the CPU filters,
            // conversions) run on the worker that calls them: no second set of threads competes
            // with the workers. With fewer files than cores the loops get the cores left over.
            const OpenCvThreads threadsPerWorker(
                std::max(1, cores() / std::max(1, std::min<int>(workers_, todo_.size()))));
            std::vector<std::thread> threads;
            for (int i = 0; i < workers_; ++i) {
                threads.emplace_back([this] { workLoop(); });
            }
            for (std::thread& t : threads) {
                t.join();
            }
        }

        BatchSummary summary;
        summary.files = std::move(results_);
        summary.wallMs = msSince(start);
        rusage usage{};
        if (getrusage(RUSAGE_SELF, &usage) == 0) {
            summary.peakResidentMiB = static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: KiB
        }
        summary.wasCancelled = cancel_;
        std::set<std::string> devices;
        for (const FileResult& r : summary.files) {
            summary.ok += r.status == FileStatus::Ok;
            summary.skipped += r.status == FileStatus::Skipped;
            summary.failed += r.status == FileStatus::Failed;
            summary.cancelled += r.status == FileStatus::Cancelled;
            if (!r.device.empty() && devices.insert(r.device).second) {
                summary.devices.push_back(r.device);
            }
        }
        return summary;
    }

private:
    static int cores() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

    static int workerCount(const BatchJob& job, const BatchPlan& plan)
    {
        const int wanted = job.jobs > 0 ? job.jobs : cores();
        return std::clamp<int>(
            static_cast<int>(std::min<std::size_t>(plan.files.size(), static_cast<std::size_t>(wanted))), 1, 256);
    }

    // One file at a time from start to end: decode, filter, encode on this thread, so that the
    // codecs of as many files as there are workers run at once and no stage waits on a thread
    // of its own.
    void workLoop()
    {
        for (;;) {
            const size_t next = next_.fetch_add(1);
            if (next >= todo_.size()) {
                break;
            }
            const size_t i = todo_[next];
            if (cancel_ || !inFlight_.acquire(cancel_)) {
                cancelled(i);
                continue;
            }
            started(i);
            std::optional<Item> item = decode(i);
            if (item && filter(*item)) {
                encode(*item);
            }
        }
    }

    std::optional<Item> decode(size_t i)
    {
        Item item{i, {}, {}, {}};
        const auto begin = Clock::now();
        try {
            // A cancel stops even a decode under way (within about 50 ms of its work).
            ImageLimits limits;
            limits.cancel = &cancel_;
            limits.decoderUsed = &results_[i].decoder;
            useJpegDecoder(limits);
            item.image = readImage(plan_.files[i].input, limits, &item.metadata);
            results_[i].orientation = describeOrientation(item.metadata.orientation);
            if (job_.manifest) {
                item.inputSha256 = sha256File(plan_.files[i].input);
            }
        } catch (const ImageReadCancelled&) {
            cancelled(i, true);
            return std::nullopt;
        } catch (const std::exception& e) {
            fail(i, e.what());
            return std::nullopt;
        }
        results_[i].decodeMs = msSince(begin);
        stage(i, 0.3);
        return item;
    }

    // One nvJPEG decoder per GPU of the job's jpegGpus, opened once for the run; where none
    // opens, the reason is kept for the JPEG files' reports.
    void openJpegDecoders()
    {
        for (const values::DeviceId device : job_.jpegGpus) {
            std::string why;
            if (std::shared_ptr<gpu::GpuJpegDecoder> d = gpu::GpuJpegDecoder::open(device, why)) {
                jpegDecoders_.push_back(std::move(d));
            } else {
                jpegUnavailable_ = why;
            }
        }
    }

    // JPEG files go to the decoders in turn; libjpeg-turbo reads whatever they do not take.
    void useJpegDecoder(ImageLimits& limits)
    {
        if (!jpegDecoders_.empty()) {
            const std::shared_ptr<gpu::GpuJpegDecoder>& d =
                jpegDecoders_[nextJpegDecoder_.fetch_add(1) % jpegDecoders_.size()];
            limits.jpegDecoderName = d->label();
            limits.jpegDecoder = [d](std::span<const std::uint8_t> file, std::string& why) {
                return d->decode(file, why);
            };
        } else if (!job_.jpegGpus.empty()) {
            limits.jpegDecoderName = "nvJPEG";
            limits.jpegDecoder = [this](std::span<const std::uint8_t>, std::string& why) -> std::optional<cv::Mat> {
                why = jpegUnavailable_;
                return std::nullopt;
            };
        }
    }

    // The processor with the fewest files on it now takes this one.
    size_t chooseProcessor()
    {
        const std::lock_guard lock(mutex_);
        const size_t p = static_cast<size_t>(std::min_element(active_.begin(), active_.end()) - active_.begin());
        ++active_[p];
        return p;
    }

    void doneWith(size_t p)
    {
        const std::lock_guard lock(mutex_);
        --active_[p];
    }

    bool filter(Item& item)
    {
        const size_t i = item.slot;
        if (cancel_) {
            cancelled(i, true);
            return false;
        }
        if (plan_.chain.isIdentity()) {
            // Nothing to compute: the decoded pixels are the output.
            results_[i].device = kIdentityDevice;
            stage(i, 0.8);
            return true;
        }
        const size_t p = chooseProcessor();
        try {
            ProcessOutcome outcome = processors_[p](item.image, plan_.chain, cancel_);
            doneWith(p);
            if (outcome.image.empty()) {
                if (cancel_) {
                    cancelled(i, true);
                } else {
                    fail(i, plan_.files[i].input + ": the filter produced no image");
                }
                return false;
            }
            results_[i].device = outcome.device;
            results_[i].computeMs = outcome.milliseconds;
            item.image = std::move(outcome.image);
        } catch (const std::exception& e) {
            doneWith(p);
            fail(i, plan_.files[i].input + ": filtering failed: " + e.what());
            return false;
        }
        stage(i, 0.8);
        return true;
    }

    void encode(Item& item)
    {
        const size_t i = item.slot;
        const std::string& output = plan_.files[i].output;
        std::error_code ec;
        // Something else may have made the file since the plan looked.
        if (job_.policy != OverwritePolicy::Overwrite && fs::exists(fs::symlink_status(output, ec))) {
            results_[i].status = FileStatus::Skipped;
            results_[i].error = plan_.files[i].input + ": the output " + output + " appeared during the run";
            release(i);
            return;
        }
        const auto begin = Clock::now();
        try {
            const MetadataReport kept =
                writeImage(output, item.image, job_.stripMetadata ? nullptr : &item.metadata, job_.encode);
            results_[i].metadata = kept.summary();
            results_[i].encodeMs = msSince(begin);
            if (manifest_) {
                writeManifest(*manifest_, results_[i], item.inputSha256);
            }
        } catch (const std::exception& e) {
            fail(i, plan_.files[i].input + ": " + e.what());
            return;
        }
        results_[i].status = FileStatus::Ok;
        release(i);
    }

    void started(size_t i)
    {
        const std::lock_guard lock(mutex_);
        current_ = plan_.files[i].input;
        report(0.0, nullptr);
    }

    void stage(size_t i, double fraction)
    {
        const std::lock_guard lock(mutex_);
        if (current_ == plan_.files[i].input) {
            report(fraction, nullptr);
        }
    }

    void fail(size_t i, const std::string& reason)
    {
        results_[i].status = FileStatus::Failed;
        results_[i].error = reason;
        release(i);
    }

    void cancelled(size_t i, bool holdsSlot = false)
    {
        results_[i].status = FileStatus::Cancelled;
        results_[i].error = plan_.files[i].input + ": cancelled before it was written";
        if (holdsSlot) {
            release(i);
        } else {
            finish(i);
        }
    }

    // Counted as done before the slot is freed, so that done + held never exceeds the bound.
    void release(size_t i)
    {
        finish(i);
        inFlight_.release();
    }

    void finish(size_t i)
    {
        const std::lock_guard lock(mutex_);
        ++done_;
        report(current_ == plan_.files[i].input ? 1.0 : lastFraction_, &results_[i]);
    }

    // Called with mutex_ held, which also keeps progress_ calls one at a time.
    void report(double fraction, const FileResult* finished)
    {
        lastFraction_ = fraction;
        if (!progress_) {
            return;
        }
        BatchProgress p;
        p.done = done_;
        p.total = static_cast<int>(plan_.files.size());
        p.currentFile = current_;
        p.fileFraction = fraction;
        p.finished = finished;
        progress_(p);
    }

    const BatchPlan& plan_;
    const BatchJob& job_;
    const std::vector<BatchProcessor>& processors_;
    const std::atomic<bool>& cancel_;
    const BatchProgressCallback& progress_;
    const int workers_;
    InFlight inFlight_;
    std::vector<int> active_;          // files on each processor now, under mutex_
    std::vector<FileResult> results_;  // each element written by the one thread holding that file
    std::vector<size_t> todo_;
    std::atomic<size_t> next_{0};
    std::optional<ManifestContext> manifest_;
    std::vector<std::shared_ptr<gpu::GpuJpegDecoder>> jpegDecoders_;  // set before the workers start
    std::string jpegUnavailable_;                                     // why no decoder of jpegGpus opened
    std::atomic<size_t> nextJpegDecoder_{0};
    std::mutex mutex_;
    int done_ = 0;
    std::string current_;
    double lastFraction_ = 0.0;
};

}  // namespace

BatchSummary runBatch(const BatchPlan& plan, const BatchJob& job, const std::vector<BatchProcessor>& processors,
                      const std::atomic<bool>& cancel, const BatchProgressCallback& progress)
{
    std::error_code ec;
    fs::create_directories(plan.outputDir, ec);
    if (ec || !fs::is_directory(plan.outputDir, ec)) {
        throw BatchRefused("cannot create the output folder " + plan.outputDir + ": " +
                           (ec ? ec.message() : std::string("a file has that name")));
    }
    const std::vector<BatchProcessor> fallback{cpuProcessor()};
    Pipeline pipeline(plan, job, processors.empty() ? fallback : processors, cancel, progress);
    return pipeline.run();
}

}  // namespace tessera::app
