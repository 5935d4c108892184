// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/batch/batch_job.h"
#include "app/devices/device_scheduler.h"
#include "values/device_id.h"
#include "tessera/gpu/engine.h"

#include <string>
#include <vector>

namespace tessera::app {

/// Files one GPU processor holds at once (each on a pipeline of its own, with its own streams).
inline constexpr int kFilesPerGpu = 4;

/// The workers a batch on gpus (none: the CPU) wants when the user chose none: one per core,
/// and one more for each file the GPUs hold, since a worker whose file is on a GPU waits there
/// without using its core.
int defaultWorkers(std::size_t gpuCount);

/// A streamed pipeline on the CPU slot, labelled "CPU", kept for every file the processor takes
/// (its slot thread starts once); a cancelled run gives an empty image.
BatchProcessor cpuProcessor();

/// Runs inner under a batch lease of scheduler on devices, one lease per file, holding the
/// file's source and result and as much again for working buffers on each (a GPU that for each
/// tile in flight): so files wait for calibrations and
/// comparisons, and a batch yields to previews between files. A cancel while waiting returns
/// an empty image. notice hears why a file waits (from the processor's thread). Never throws
/// beyond what inner throws; scheduler must outlive the processor.
BatchProcessor leasedProcessor(BatchProcessor inner, DeviceScheduler& scheduler, std::vector<values::DeviceId> devices,
                               DeviceScheduler::WaitNotice notice = {});

/// One processor per GPU of gpus (each takes the next decoded file when it is free), or the CPU
/// when gpus is empty (values::resolve()'s answer), each file under a batch lease of scheduler
/// whose granted bytes are the run's memory budget (the pipeline tiles within them).
/// A GPU processor keeps one streamed pipeline for the whole batch (streams and buffers reused
/// from file to file), labelled "GPU N", and times the run's wall; a GPU failure falls back as
/// the pipeline's policy decides (the label adds the report's account of it), other errors
/// reach the runner.
/// With several GPUs, the images gpu::spreadOverAllGpus() picks (the large ones) are split in
/// tiles over all of them, one such image at a time. gpuMemoryLimit caps each GPU's memory (0: from its free memory).
/// scheduler must outlive the processors; notice as leasedProcessor().
std::vector<BatchProcessor> makeProcessors(const std::vector<values::DeviceId>& gpus, DeviceScheduler& scheduler,
                                           values::Method method = values::Method::Auto, std::size_t gpuMemoryLimit = 0,
                                           const DeviceScheduler::WaitNotice& notice = {});

}  // namespace tessera::app
