#pragma once

#include "app/batch_job.h"
#include "gpu/device_info.h"
#include "gpu/engine.h"

#include <string>
#include <vector>

namespace tessera::app {

/// Where filtering runs: the CPU, or a list of GPU ids.
struct DeviceChoice {
    bool cpu = true;
    std::vector<int> gpus;
    /// "cpu" or "gpu:0,1".
    std::string label() const;
};

/// Checks a device text (auto, cpu, gpu, gpu:N[,M...], all) against the machine. `auto` is every
/// GPU when there is one, else the CPU, with note saying why. Throws std::invalid_argument for bad
/// syntax and std::runtime_error for GPUs that are not there.
DeviceChoice resolveDevice(const std::string& text, const gpu::DeviceSnapshot& snapshot, std::string& note);

/// The CPU path (filters::applyCpu), labelled "CPU".
BatchProcessor cpuProcessor();

/// One GPU through a streamed pipeline kept for the whole batch (streams and buffers reused
/// from file to file), labelled "GPU N"; the time is the run's wall time. A GPU failure falls
/// back to the CPU path inside the run (said in the label); other errors reach the runner.
BatchProcessor gpuProcessor(int device, gpu::Method method = gpu::Method::Auto);

/// One processor per chosen GPU (each takes the next decoded file when it is free), or the CPU.
/// With several GPUs, large images (24 Mpixel and up) are split in tiles over all of them, one
/// such image at a time. gpuMemoryLimit caps each GPU's memory (0: from its free memory).
std::vector<BatchProcessor> makeProcessors(const DeviceChoice& choice, gpu::Method method = gpu::Method::Auto,
                                           std::size_t gpuMemoryLimit = 0);

}  // namespace tessera::app
