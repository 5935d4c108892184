#include "app/batch_devices.h"

#include "filters/cpu_executor.h"
#include "gpu/engine.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace tessera::app {

std::string DeviceChoice::label() const
{
    if (cpu) {
        return "cpu";
    }
    std::string text = "gpu:";
    for (size_t i = 0; i < gpus.size(); ++i) {
        text += (i ? "," : "") + std::to_string(gpus[i]);
    }
    return text;
}

DeviceChoice resolveDevice(const std::string& text, const gpu::DeviceSnapshot& snapshot, std::string& note)
{
    DeviceChoice choice;
    if (text == "cpu") {
        return choice;
    }
    auto allGpus = [&] {
        choice.cpu = false;
        for (const auto& d : snapshot.devices) {
            choice.gpus.push_back(d.id);
        }
    };
    if (text == "auto") {
        if (snapshot.hasGpu()) {
            allGpus();
        } else {
            note = "no GPU (" + snapshot.reason + "); ran on the CPU";
        }
        return choice;
    }
    std::vector<int> ids;
    if (text != "gpu" && text != "all") {
        if (text.rfind("gpu:", 0) != 0) {
            throw std::invalid_argument("--device expects auto, cpu, gpu, gpu:N[,M...] or all, got '" + text + "'");
        }
        std::stringstream list(text.substr(4));
        std::string id;
        while (std::getline(list, id, ',')) {
            if (id.empty() || id.size() > 4 || id.find_first_not_of("0123456789") != std::string::npos) {
                throw std::invalid_argument("--device: '" + text + "' is not a list of GPU numbers");
            }
            ids.push_back(std::stoi(id));
        }
        if (ids.empty()) {
            throw std::invalid_argument("--device: '" + text + "' names no GPU");
        }
    }
    if (!snapshot.hasGpu()) {
        throw std::runtime_error("--device " + text + ": no GPU is available (" + snapshot.reason +
                                 "); use --device cpu or auto");
    }
    if (ids.empty()) {
        allGpus();
        return choice;
    }
    for (int id : ids) {
        if (id >= static_cast<int>(snapshot.devices.size())) {
            throw std::runtime_error("--device " + text + ": there is no GPU " + std::to_string(id) +
                                     " (this machine has " + std::to_string(snapshot.devices.size()) + ")");
        }
    }
    choice.cpu = false;
    choice.gpus = ids;
    return choice;
}

BatchProcessor cpuProcessor()
{
    return [](const cv::Mat& image, const filters::FilterChain& chain, const std::atomic<bool>&) {
        const auto start = std::chrono::steady_clock::now();
        ProcessOutcome outcome;
        outcome.image = filters::applyCpu(image, chain);
        outcome.device = "CPU";
        outcome.milliseconds =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        return outcome;
    };
}

namespace {

// What the GPU processors of one batch share: the pipeline over every chosen GPU, which one
// large file at a time uses.
struct SharedGpus {
    std::mutex large;
    std::unique_ptr<gpu::Pipeline> all;
    std::string label;
};

// Images from this many pixels up are split over every chosen GPU instead of going whole to one.
constexpr std::size_t kLargePixels = std::size_t{24} << 20;

std::string gpusLabel(const std::vector<int>& gpus)
{
    std::string text = gpus.size() == 1 ? "GPU " : "GPUs ";
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        text += (i ? "," : "") + std::to_string(gpus[i]);
    }
    return text;
}

ProcessOutcome runOn(gpu::Pipeline& pipeline, const std::string& label, const cv::Mat& image,
                     const filters::FilterChain& chain, const std::atomic<bool>& cancel)
{
    gpu::RunOptions options = pipeline.options();
    options.cancel = &cancel;
    pipeline.setOptions(options);
    gpu::RunReport report;
    ProcessOutcome outcome;
    if (!pipeline.run(image, chain, outcome.image, &report)) {
        outcome.image.release();  // cancelled: nothing half-done leaves the processor
    }
    outcome.device = label;
    if (report.cpuFallbackTiles > 0) {
        outcome.device += " + CPU (" + std::to_string(report.cpuFallbackTiles) + " tiles after a GPU failure)";
    }
    outcome.milliseconds = report.wallMs;
    return outcome;
}

BatchProcessor gpuProcessorSharing(int device, gpu::Method method, std::size_t memoryLimit,
                                   std::shared_ptr<SharedGpus> shared)
{
    gpu::RunOptions options;
    options.deviceSlots = {gpu::DeviceSlot{device, memoryLimit, 1.0}};
    options.method = method;
    auto own = std::make_shared<gpu::Pipeline>(options);
    const std::string label = gpusLabel({device});
    return [own, label, shared](const cv::Mat& image, const filters::FilterChain& chain,
                                const std::atomic<bool>& cancel) {
        if (shared && shared->all && image.total() >= kLargePixels) {
            std::lock_guard lock(shared->large);
            return runOn(*shared->all, shared->label, image, chain, cancel);
        }
        return runOn(*own, label, image, chain, cancel);
    };
}

}  // namespace

BatchProcessor gpuProcessor(int device, gpu::Method method)
{
    return gpuProcessorSharing(device, method, 0, nullptr);
}

std::vector<BatchProcessor> makeProcessors(const DeviceChoice& choice, gpu::Method method, std::size_t gpuMemoryLimit)
{
    std::vector<BatchProcessor> processors;
    if (choice.cpu || choice.gpus.empty()) {
        processors.push_back(cpuProcessor());
        return processors;
    }
    std::shared_ptr<SharedGpus> shared;
    if (choice.gpus.size() > 1) {
        shared = std::make_shared<SharedGpus>();
        gpu::RunOptions options;
        for (const int id : choice.gpus) {
            options.deviceSlots.push_back({id, gpuMemoryLimit, 1.0});
        }
        options.method = method;
        shared->all = std::make_unique<gpu::Pipeline>(options);
        shared->label = gpusLabel(choice.gpus);
    }
    for (const int id : choice.gpus) {
        processors.push_back(gpuProcessorSharing(id, method, gpuMemoryLimit, shared));
    }
    return processors;
}

}  // namespace tessera::app
