// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_devices.h"

#include "tessera/gpu/engine.h"
#include "values/device_label.h"

#include <chrono>
#include <condition_variable>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>

namespace tessera::app {

namespace {

// A pipeline kept for a whole batch, its slot threads started once. The lock covers a
// pipeline that two callers share (the one over every GPU).
struct HeldPipeline {
    explicit HeldPipeline(gpu::RunOptions options) : pipeline(std::move(options)) {}
    std::mutex mutex;
    gpu::Pipeline pipeline;
};

// Pipelines of one device for files in flight at once: a caller borrows a free one, or makes a
// new one while fewer than `most` exist, or waits. Each keeps its streams, buffers and slot
// threads for the batch, so nothing is set up per file.
class PipelinePool {
public:
    PipelinePool(gpu::RunOptions options, int most) : options_(std::move(options)), most_(std::max(1, most)) {}

    class Borrowed {
    public:
        Borrowed(PipelinePool& pool, HeldPipeline* held) : pool_(pool), held_(held) {}
        Borrowed(const Borrowed&) = delete;
        Borrowed& operator=(const Borrowed&) = delete;
        ~Borrowed() { pool_.giveBack(held_); }
        HeldPipeline& operator*() const { return *held_; }

    private:
        PipelinePool& pool_;
        HeldPipeline* held_;
    };

    Borrowed borrow()
    {
        std::unique_lock lock(mutex_);
        freed_.wait(lock, [&] { return !free_.empty() || static_cast<int>(all_.size()) < most_; });
        if (free_.empty()) {
            all_.push_back(std::make_unique<HeldPipeline>(options_));
            return Borrowed(*this, all_.back().get());
        }
        HeldPipeline* held = free_.back();
        free_.pop_back();
        return Borrowed(*this, held);
    }

private:
    void giveBack(HeldPipeline* held)
    {
        {
            const std::lock_guard lock(mutex_);
            free_.push_back(held);
        }
        freed_.notify_one();
    }

    gpu::RunOptions options_;
    int most_;
    std::mutex mutex_;
    std::condition_variable freed_;
    std::vector<std::unique_ptr<HeldPipeline>> all_;
    std::vector<HeldPipeline*> free_;
};

// What the GPU processors of one batch share: the pipeline over every chosen GPU, which one
// large file at a time uses.
struct SharedGpus {
    std::mutex large;
    std::unique_ptr<HeldPipeline> all;
    std::vector<values::DeviceId> gpus;
    std::string label;
};

// lease: the bytes it grants are the run's memory budget; none (a processor without a
// scheduler): the pipeline's own rule.
ProcessOutcome runOn(HeldPipeline& held, const std::string& label, const cv::Mat& image,
                     const filters::FilterChain& chain, const std::atomic<bool>& cancel,
                     const DeviceLease* lease = nullptr)
{
    const std::lock_guard lock(held.mutex);
    gpu::RunControl control;
    control.cancel = &cancel;
    control.memoryBudget = lease != nullptr ? lease->bytes() : 0;
    values::RunReport report;
    ProcessOutcome outcome;
    if (!held.pipeline.run(image, chain, outcome.image, control, &report)) {
        outcome.image.release();  // cancelled: nothing half-done leaves the processor
    }
    outcome.device = label;
    if (report.fellBack.happened()) {
        // What the pipeline's fallback policy did, as its report says it.
        outcome.device += " (" + report.fellBack.describe() + ")";
    }
    outcome.milliseconds = report.wallMs;
    outcome.tiles = report.tiles.size();
    return outcome;
}

// What one file asks of each device it runs on: source and result, and as much again for the
// working buffers (what the CPU path needs to take the image in one piece); a GPU holds that
// for each of its tiles in flight. The grant, capped by the device's budget, is the run's
// memory budget, so the pipeline tiles within what the scheduler counts.
std::uint64_t fileBytes(const cv::Mat& image, const filters::FilterChain& chain,
                        const std::vector<values::DeviceId>& devices)
{
    const auto outBytes = static_cast<std::uint64_t>(CV_ELEM_SIZE(gpu::chainOutputType(chain, image.type())));
    const std::uint64_t whole = 2 * static_cast<std::uint64_t>(image.total()) * (image.elemSize() + outBytes);
    const bool cpu = devices.size() == 1 && devices.front().isCpu();
    return cpu ? whole : whole * static_cast<std::uint64_t>(gpu::RunOptions{}.streamsPerGpu);
}

DeviceLease leaseFor(DeviceScheduler& scheduler, const std::vector<values::DeviceId>& devices, const cv::Mat& image,
                     const filters::FilterChain& chain, const std::atomic<bool>& cancel,
                     const DeviceScheduler::WaitNotice& notice)
{
    return scheduler.acquire(
        {devices, LeaseKind::Batch, fileBytes(image, chain, devices), "batch"}, [&cancel] { return cancel.load(); },
        notice);
}

ProcessOutcome cancelledOutcome(const std::string& label)
{
    ProcessOutcome outcome;
    outcome.device = label;
    return outcome;
}

BatchProcessor gpuProcessorSharing(values::DeviceId device, values::Method method, std::size_t memoryLimit,
                                   std::shared_ptr<SharedGpus> shared, DeviceScheduler& scheduler,
                                   DeviceScheduler::WaitNotice notice)
{
    gpu::RunOptions options;
    options.deviceSlots = gpu::slotsFor({device}, {}, memoryLimit);
    options.method = method;
    auto own = std::make_shared<PipelinePool>(options, kFilesPerGpu);
    const std::string label = values::deviceLabel(device);
    return [own, label, shared, device, &scheduler, notice](const cv::Mat& image, const filters::FilterChain& chain,
                                                            const std::atomic<bool>& cancel) {
        if (shared && shared->all && gpu::spreadOverAllGpus(image.total(), shared->gpus.size())) {
            std::lock_guard lock(shared->large);
            const DeviceLease lease = leaseFor(scheduler, shared->gpus, image, chain, cancel, notice);
            if (!lease) {
                return cancelledOutcome(shared->label);
            }
            return runOn(*shared->all, shared->label, image, chain, cancel, &lease);
        }
        const DeviceLease lease = leaseFor(scheduler, {device}, image, chain, cancel, notice);
        if (!lease) {
            return cancelledOutcome(label);
        }
        const PipelinePool::Borrowed held = own->borrow();
        return runOn(*held, label, image, chain, cancel, &lease);
    };
}

// The CPU's pipelines: one for each file filtered at once (the batch's workers decide how many
// that is), each running its CPU slot on the caller's thread.
std::shared_ptr<PipelinePool> cpuPipelines()
{
    gpu::RunOptions options;
    options.deviceSlots = gpu::cpuSlots();
    return std::make_shared<PipelinePool>(options, std::numeric_limits<int>::max());
}

}  // namespace

int defaultWorkers(std::size_t gpuCount)
{
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    return std::min(256, cores + kFilesPerGpu * static_cast<int>(gpuCount));
}

BatchProcessor cpuProcessor()
{
    return [pool = cpuPipelines()](const cv::Mat& image, const filters::FilterChain& chain,
                                   const std::atomic<bool>& cancel) {
        const PipelinePool::Borrowed held = pool->borrow();
        return runOn(*held, values::deviceLabel(values::DeviceId::cpu()), image, chain,
                     cancel);  // empty image when cancelled
    };
}

BatchProcessor leasedProcessor(BatchProcessor inner, DeviceScheduler& scheduler, std::vector<values::DeviceId> devices,
                               DeviceScheduler::WaitNotice notice)
{
    return [inner = std::move(inner), &scheduler, devices = std::move(devices), notice = std::move(notice)](
               const cv::Mat& image, const filters::FilterChain& chain, const std::atomic<bool>& cancel) {
        const DeviceLease lease = leaseFor(scheduler, devices, image, chain, cancel, notice);
        return lease ? inner(image, chain, cancel) : cancelledOutcome(values::describe(devices.front()));
    };
}

std::vector<BatchProcessor> makeProcessors(const std::vector<values::DeviceId>& gpus, DeviceScheduler& scheduler,
                                           values::Method method, std::size_t gpuMemoryLimit,
                                           const DeviceScheduler::WaitNotice& notice)
{
    std::vector<BatchProcessor> processors;
    if (gpus.empty()) {
        const values::DeviceId cpu = values::DeviceId::cpu();
        processors.push_back([pool = cpuPipelines(), &scheduler, cpu, notice](const cv::Mat& image,
                                                                              const filters::FilterChain& chain,
                                                                              const std::atomic<bool>& cancel) {
            const DeviceLease lease = leaseFor(scheduler, {cpu}, image, chain, cancel, notice);
            const std::string label = values::deviceLabel(cpu);
            if (!lease) {
                return cancelledOutcome(label);
            }
            const PipelinePool::Borrowed held = pool->borrow();
            return runOn(*held, label, image, chain, cancel, &lease);
        });
        return processors;
    }
    std::shared_ptr<SharedGpus> shared;
    if (gpus.size() > 1) {
        shared = std::make_shared<SharedGpus>();
        gpu::RunOptions options;
        options.deviceSlots = gpu::slotsFor(gpus, {}, gpuMemoryLimit);
        options.method = method;
        shared->all = std::make_unique<HeldPipeline>(options);
        shared->label = values::gpusLabel(gpus);
        shared->gpus = gpus;
    }
    for (const values::DeviceId id : gpus) {
        processors.push_back(gpuProcessorSharing(id, method, gpuMemoryLimit, shared, scheduler, notice));
    }
    return processors;
}

}  // namespace tessera::app
