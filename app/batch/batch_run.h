// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/batch/batch_job.h"
#include "app/batch/batch_plan.h"
#include "app/batch/batch_report.h"
#include "app/batch/batch_shard.h"
#include "app/devices/device_scheduler.h"
#include "values/device_id.h"
#include "values/device_info.h"
#include "values/method.h"

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tessera::app {

/// What a front end chooses for a batch besides the job itself.
struct BatchRunOptions {
    std::string device = "auto";  ///< a device selection, as --device takes it
    values::Method method = values::Method::Auto;
    std::size_t gpuMemoryLimit = 0;       ///< bytes per GPU; 0: the device's own budget
    bool jpegOnGpu = false;               ///< JPEGs decoded by nvJPEG on the batch's GPUs
    std::optional<BatchShard> shard;      ///< run only this shard of the whole list
    DeviceScheduler::WaitNotice waiting;  ///< told when a file waits for its device
};

/// One batch from its job to its summary, the same for every front end: the plan of the whole
/// list (every shard refuses alike), this shard's part of it, the devices resolved from the
/// selection against the machine's, the processors, the number of workers and the nvJPEG
/// choice. Front ends turn their options into a BatchJob and BatchRunOptions, then show
/// progress and the summary.
class BatchRun {
public:
    /// Plans the job and resolves its devices (the machine's GPUs are enumerated once, here,
    /// and adopted by scheduler, which must outlive the run). Throws what planBatch throws,
    /// std::invalid_argument for a device selection that does not resolve, and NotSupported
    /// (values/errors.h, a std::invalid_argument) for a method no GPU here can run.
    BatchRun(BatchJob job, BatchRunOptions options, DeviceScheduler& scheduler);

    /// The whole list's plan, before the shard's part is taken.
    const BatchPlan& wholePlan() const { return whole_; }
    /// The files this run writes (the shard's part, or the whole list).
    std::size_t fileCount() const;
    const BatchJob& job() const { return job_; }
    /// Why the devices are not what was asked ("no GPU: the CPU runs it"), or empty.
    const std::string& note() const { return note_; }
    const values::DeviceSnapshot& snapshot() const { return snapshot_; }
    /// The GPUs the batch runs on; empty: the CPU.
    const std::vector<values::DeviceId>& gpus() const { return gpus_; }
    ReportScope scope() const;

    /// Runs it once: every file of this run, at most the job's workers at a time, cancel
    /// checked between stages. The summary's note is note() unless the run set its own.
    BatchSummary run(const std::atomic<bool>& cancel, const BatchProgressCallback& progress = {});

private:
    BatchJob job_;
    BatchRunOptions options_;
    DeviceScheduler& scheduler_;
    BatchPlan whole_;
    values::DeviceSnapshot snapshot_;
    std::vector<values::DeviceId> gpus_;
    std::string note_;
};

}  // namespace tessera::app
