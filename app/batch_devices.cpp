#include "app/batch_devices.h"

#include "filters/cpu_executor.h"
#include "gpu/gpu_apply.h"

#include <chrono>
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

BatchProcessor gpuProcessor(int device, gpu::Method method)
{
    return [device, method](const cv::Mat& image, const filters::FilterChain& chain, const std::atomic<bool>&) {
        gpu::GpuRunInfo info;
        ProcessOutcome outcome;
        outcome.image = gpu::applyGpu(image, chain, device, method, &info);
        outcome.device = "GPU " + std::to_string(info.device >= 0 ? info.device : device);
        outcome.milliseconds = info.uploadMs + info.kernelMs + info.downloadMs;
        return outcome;
    };
}

std::vector<BatchProcessor> makeProcessors(const DeviceChoice& choice, gpu::Method method)
{
    std::vector<BatchProcessor> processors;
    if (choice.cpu || choice.gpus.empty()) {
        processors.push_back(cpuProcessor());
        return processors;
    }
    for (int id : choice.gpus) {
        processors.push_back(gpuProcessor(id, method));
    }
    return processors;
}

}  // namespace tessera::app
