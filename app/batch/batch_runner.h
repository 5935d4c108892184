// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/batch/batch_job.h"
#include "app/batch/batch_plan.h"

#include <atomic>
#include <vector>

namespace tessera::app {

/// Runs a planned batch as a bounded pipeline: job.jobs threads decode, one thread per processor
/// filters (whichever processor is free takes the next image), job.jobs threads encode, and at
/// most job.maxInFlight images are held at once. Each output is written to a temporary file in
/// the output folder and renamed when complete (writeImage). Once cancel is set no new input is
/// started and images not yet filtered are dropped; the ones already filtered are written, so
/// only whole outputs remain. A failing input is recorded with its reason and the rest go on.
/// progress is called from worker threads, one call at a time. Creates the output folder; throws
/// BatchRefused when it cannot, otherwise never throws. Returns when every thread has finished.
BatchSummary runBatch(const BatchPlan& plan, const BatchJob& job, const std::vector<BatchProcessor>& processors,
                      const std::atomic<bool>& cancel, const BatchProgressCallback& progress = {});

}  // namespace tessera::app
