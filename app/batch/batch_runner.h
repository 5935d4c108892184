// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/batch/batch_job.h"
#include "app/batch/batch_plan.h"

#include <atomic>
#include <vector>

namespace tessera::app {

/// Runs a planned batch on job.jobs worker threads (one per core by default), each taking the
/// next file through decode, filter and encode, so the codecs of that many files run at once;
/// at most job.maxInFlight images are held at once. The filter goes to the processor with the
/// fewest files on it (processors take several at once); an identity chain is a copy and runs
/// on none. While the batch runs, OpenCV's parallel loops get the cores the workers leave. Each output is written to a temporary file in
/// the output folder and renamed when complete (writeImage). Once cancel is set no new input is
/// started and images not yet filtered are dropped; the ones already filtered are written, so
/// only whole outputs remain. A failing input is recorded with its reason and the rest go on.
/// progress is called from worker threads, one call at a time. Creates the output folder; throws
/// BatchRefused when it cannot, otherwise never throws. Returns when every thread has finished.
BatchSummary runBatch(const BatchPlan& plan, const BatchJob& job, const std::vector<BatchProcessor>& processors,
                      const std::atomic<bool>& cancel, const BatchProgressCallback& progress = {});

}  // namespace tessera::app
