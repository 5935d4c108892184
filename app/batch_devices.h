#pragma once

#include "app/batch_job.h"
#include "gpu/device_info.h"
#include "gpu/executor.h"

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

/// One GPU through gpu::applyGpu, labelled "GPU N"; the compute time is the kernels' CUDA-event
/// time plus the copies. Errors (CudaError, OutOfDeviceMemory) propagate to the runner.
BatchProcessor gpuProcessor(int device, gpu::Method method = gpu::Method::Auto);

/// One processor per chosen GPU (each takes the next decoded file when it is free), or the CPU.
std::vector<BatchProcessor> makeProcessors(const DeviceChoice& choice, gpu::Method method = gpu::Method::Auto);

}  // namespace tessera::app
