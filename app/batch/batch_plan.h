// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/batch/batch_job.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::app {

/// A batch that cannot start as given (no filter, a bad template, a format that cannot hold the
/// depth, an output that would replace an input, two inputs with one output). Nothing was written.
class BatchRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// One input with the output it will get. status Ok means "to run"; Skipped and Failed are
/// decided before the run (error says why).
struct PlannedFile {
    int index = 0;
    int position = 0;  ///< place in the whole expanded list, from 1
    std::string input;
    std::string output;
    FileStatus status = FileStatus::Ok;
    std::string error;
};

/// The inputs of a job in order, each with its output path.
struct BatchPlan {
    std::vector<PlannedFile> files;
    filters::FilterChain chain;  ///< the job's chain with its depth applied to the last step
    std::string outputDir;
    std::string date;  ///< what {date} became
};

/// Expands the inputs and names every output, applying the overwrite policy to files already
/// there. Reads the file system, writes nothing. Throws BatchRefused with the reason; a
/// collision names both inputs.
BatchPlan planBatch(const BatchJob& job);

/// The output file name (without folder) the job gives input number index of count; for the
/// dialog's live example. Throws std::invalid_argument for a bad template.
std::string outputNameFor(const BatchJob& job, const std::string& input, int index = 1, int count = 1,
                          const std::string& date = {});

}  // namespace tessera::app
