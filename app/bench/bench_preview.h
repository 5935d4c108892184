// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/bench/bench_options.h"
#include "app/bench/bench_result.h"

#include <string>

namespace tessera::app::bench {

/// The preview latency case of the desktop app: an 8-bit RGBA image of the options' size is
/// opened in an Engine (GPU 0 with the image resident, or the CPU path when gpu is false), then
/// a 1920 x 1080 view in its middle is previewed over and over while a Gaussian's sigma moves,
/// as a slider would move it. Each run is the time from requestPreview() to the previewReady()
/// signal on the asking thread: filtering, download and the display conversion included. The
/// first and last results are compared with the CPU path (8-bit, within 1). Needs a
/// QCoreApplication on the calling thread (the Engine's results arrive as queued signals).
Result runPreview(bool gpu, values::DeviceId device, const std::string& deviceName, const Options& options);

}  // namespace tessera::app::bench
