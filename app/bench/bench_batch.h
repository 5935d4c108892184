// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/bench/bench_options.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tessera::app::bench {

/// One run of the batch case: a set of files through the real batch runner.
struct BatchLine {
    std::string images;  ///< the file set, e.g. "jpeg-q92-12mp"
    std::string run;     ///< "codec floor" (identity: decode and encode only), "CPU", "GPU 0"
    int files = 0;
    int workers = 0;
    double megapixels = 0;  ///< of one file
    double wallMs = 0;
    double filesPerSecond = 0;
    double mpPerSecond = 0;
    double coresBusy = 0;  ///< the process's CPU time over the wall time
    double peakMiB = 0;    ///< the process's peak resident memory during this run
    double decodeMs = 0;   ///< medians over the files
    double filterMs = 0;
    double encodeMs = 0;
    /// The run against its target: the codec floor's files/s for a GPU run; for the CPU run,
    /// the rate of every core kept on files that each cost this run's median decode, filter and
    /// encode times.
    double ratio = 0;
    double target = 0;    ///< 0.9 (GPU) or 0.85 (CPU); 0 for the floor itself
    std::string ratioOf;  ///< what the ratio is taken against, in words
    std::string error;
};

/// The batch case of tessera-bench: writes its own files into a temporary folder (--batch-files
/// 12 MP JPEGs of quality 92 and as many 24 MP 16-bit TIFFs, both scaled by --batch-mp), then for
/// each set times the codec floor (the batch with an identity chain, which copies) and the batch
/// with a Gaussian of sigma 3 on each of the options' devices, with the workers the CLI would
/// use (one per core, plus the files the GPUs hold). Prints nothing; the caller prints the lines.
std::vector<BatchLine> runBatchCases(const Options& options, const std::vector<Target>& targets);

nlohmann::ordered_json toJson(const BatchLine& line);

/// The closing table of the batch lines.
std::string formatBatchTable(const std::vector<BatchLine>& lines);

}  // namespace tessera::app::bench
