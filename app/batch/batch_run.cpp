// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_run.h"

#include "app/batch/batch_devices.h"
#include "app/batch/batch_runner.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/engine.h"
#include "values/device_selection.h"

#include <utility>

namespace tessera::app {

BatchRun::BatchRun(BatchJob job, BatchRunOptions options, DeviceScheduler& scheduler)
    : job_(std::move(job)), options_(std::move(options)), scheduler_(scheduler)
{
    whole_ = planBatch(job_);
    const values::DeviceSelection selection = values::parseDeviceSelection(options_.device, values::kDeviceOption);
    snapshot_ = gpu::enumerateDevices();
    gpus_ = values::resolve(selection, snapshot_, note_, values::kDeviceOption);
    if (!gpus_.empty()) {
        gpu::requireMethod(options_.method);  // said once, before any file, not once per file
    }
    scheduler_.adoptDevices(snapshot_);
    if (job_.jobs == 0) {
        job_.jobs = defaultWorkers(gpus_.size());
    }
    if (options_.jpegOnGpu) {
        job_.jpegGpus = gpus_;  // nvJPEG on the batch's GPUs (libjpeg-turbo where it cannot)
    }
}

std::size_t BatchRun::fileCount() const
{
    if (!options_.shard) {
        return whole_.files.size();
    }
    std::size_t mine = 0;
    for (std::size_t p = 0; p < whole_.files.size(); ++p) {
        mine += options_.shard->holds(p) ? 1 : 0;
    }
    return mine;
}

ReportScope BatchRun::scope() const
{
    ReportScope scope;
    scope.shard = options_.shard;
    scope.listTotal = whole_.files.size();
    return scope;
}

BatchSummary BatchRun::run(const std::atomic<bool>& cancel, const BatchProgressCallback& progress)
{
    BatchPlan plan = whole_;
    if (options_.shard) {
        std::vector<PlannedFile> mine;
        for (std::size_t p = 0; p < plan.files.size(); ++p) {
            if (options_.shard->holds(p)) {
                mine.push_back(std::move(plan.files[p]));
            }
        }
        plan.files = std::move(mine);
    }
    BatchSummary summary = runBatch(
        plan, job_, makeProcessors(gpus_, scheduler_, options_.method, options_.gpuMemoryLimit, options_.waiting),
        cancel, progress);
    if (summary.note.empty()) {
        summary.note = note_;
    }
    return summary;
}

}  // namespace tessera::app
