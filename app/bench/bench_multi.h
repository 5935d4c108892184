// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/bench/bench_options.h"
#include "app/bench/bench_result.h"
#include "values/device_info.h"

#include <functional>
#include <vector>

namespace tessera::app::bench {

/// The multi-GPU cases of docs/performance.md on 1, 2, 4 (and all) of `gpus`:
///  - resident RGBA8 31x31 and 3x3: the image lives on the GPUs in bands; each run filters every
///    band and waits for all of them (host wall clock), nothing copied; speed-up against one GPU;
///  - host to host RGBA8 3x3: pinned image in, pinned result out, streamed in tiles over the
///    GPUs, next to a plain pinned copy of the same bytes over the same GPUs (each GPU uploads
///    its share of the input while it downloads its share of the output), in the same run.
/// Each result is checked against one GPU's (resident) or the CPU path (host to host).
void runMulti(const std::vector<values::DeviceInfo>& gpus, const Options& options,
              const std::function<void(const Result&)>& sink);

/// The closing table of the multi lines: GPUs, median, speed-up, efficiency, pinned-copy ratio.
std::string formatMultiTable(const std::vector<Result>& results);

}  // namespace tessera::app::bench
