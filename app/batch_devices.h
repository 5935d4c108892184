#pragma once

#include "app/batch_job.h"
#include "gpu/device_id.h"
#include "gpu/engine.h"

#include <string>
#include <vector>

namespace tessera::app {

/// The CPU path (filters::applyCpu), labelled "CPU".
BatchProcessor cpuProcessor();

/// One GPU through a streamed pipeline kept for the whole batch (streams and buffers reused
/// from file to file), labelled "GPU N"; the time is the run's wall time. A GPU failure falls
/// back to the CPU path inside the run (said in the label); other errors reach the runner.
BatchProcessor gpuProcessor(gpu::DeviceId device, gpu::Method method = gpu::Method::Auto);

/// One processor per GPU of gpus (each takes the next decoded file when it is free), or the CPU
/// when gpus is empty (gpu::resolve()'s answer).
/// With several GPUs, large images (24 Mpixel and up) are split in tiles over all of them, one
/// such image at a time. gpuMemoryLimit caps each GPU's memory (0: from its free memory).
std::vector<BatchProcessor> makeProcessors(const std::vector<gpu::DeviceId>& gpus, gpu::Method method = gpu::Method::Auto,
                                           std::size_t gpuMemoryLimit = 0);

}  // namespace tessera::app
