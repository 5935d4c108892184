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

/// The fit-zoom case of the desktop app: a 6000 x 4000 (24 Mpixel) photo-like 8-bit RGB image
/// shown whole in a 1600 x 1000 view (zoom 1/4, so the Engine computes the means of 4 x 4
/// blocks), previewed while a filter's parameter moves: `filter` "gaussian" (sigma sweep, a blur
/// that cannot clip) or "sharpen" (amount sweep, which clips and so is partly filtered in full).
/// Each run is request to result, display conversion included; the first and last previews are
/// checked against the full-resolution CPU result reduced the same way (8-bit, within 1). Target:
/// 250 ms on the CPU path of a 2-core machine, 16 ms on a GPU. Needs a QCoreApplication.
Result runFitPreview(bool gpu, values::DeviceId device, const std::string& deviceName, const Options& options,
                     const std::string& filter);

}  // namespace tessera::app::bench
