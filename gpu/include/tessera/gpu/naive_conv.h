// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "tessera/gpu/pixel_format.h"
#include "tessera/gpu/resources.h"

#include <vector>

namespace tessera::gpu {

// The textbook baseline the benchmark measures the engine against: one thread per output
// pixel, every tap read straight from global memory, the border rule applied per tap. It is
// deliberately unoptimised; correctness matches the CPU path (cv::filter2D semantics).

/// The spec's full 2D weights times its scale, row-major, as runNaive expects them in device
/// memory (kernel.width * kernel.height floats). Host-only; never throws for a valid spec.
std::vector<float> naiveTaps(const filters::FilterSpec& spec);

/// Enqueues the baseline on `stream` and returns without synchronising. src and dst are device
/// images of the same size on the stream's device; dst's depth is src's or f32 with the same
/// channels; `deviceTaps` holds naiveTaps(spec) on that device and must stay alive until the
/// stream has run the kernel. Throws InvalidInput (a std::invalid_argument) on mismatched images, CudaError if
/// the launch fails. `stream` may be a Stream or a stream the caller owns.
void runNaive(const filters::FilterSpec& spec, const DeviceImage& src, const DeviceImage& dst, const float* deviceTaps,
              StreamView stream);

}  // namespace tessera::gpu
