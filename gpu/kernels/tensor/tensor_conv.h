// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the tensor-core forms of the direct and separable methods for 8-bit images.
// 8-bit pixels are exact in fp16, the taps are rounded to fp16 and every product is summed in
// fp32 by mma.sync, so the result differs from the exact sum by at most
// maxInput * sum|taps| * 2^-11 (plus the fp16 intermediate of the separable form); the planner
// takes this path only when that bound stays below half an output step.

#include "filters/filter_spec.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/executor.h"
#include "tessera/gpu/pixel_format.h"
#include "gpu/plan/variant_support.h"

#include <cstddef>
#include <string>

namespace tessera::gpu::detail {

/// Worst-case absolute error of the tensor-core form against the exact sum, before rounding.
double tensorErrorBound(const filters::FilterSpec& spec, bool separable);

/// Empty when the tensor-core form can compute spec (input in, kernel output out) on device;
/// otherwise why not, in words ("needs 8-bit input and output", ...).
std::string tensorRefusal(const filters::FilterSpec& spec, PixelFormat in, PixelFormat out, const DeviceInfo& device,
                          bool separable, std::size_t sharedLimit);

// The launch shapes are in variant_support.h (directTensorShape, separableTensorShape,
// separableTensorWalkShape); compiledSize holds the kernel-width class (8, 16, 32 or 64 taps).
// The direct shape's grid counts its 64 x 64 tiles; the wide classes (32 and 64 taps,
// DirectTensorPersistent) run them with persistent blocks that count tiles in
// tensorDirectCounterBytes of workspace (planned for every tensor-core direct plan; the narrow
// classes leave it unused).

/// Estimated mma.sync count (m16n8k16) of one run, for the cost model.
double tensorMmaCount(const filters::FilterSpec& spec, int channels, int width, int height, bool separable);

/// Device memory the direct form needs for its tile counter (the workspace's, one per run).
constexpr std::size_t tensorDirectCounterBytes = 256;

/// The tile grid both tensor-core tile kernels launch: kThreads threads per 64 x 64 tile.
LaunchShape tensorTileShape(int width, int height);
/// Width class a tensor-core form runs: the padded kernel width, or for the separable form the
/// wider of that and the height.
int tensorClass(const ShapeQuery& q, bool separable);
/// What every tensor-core variant of a method needs (tensorRefusal, and for the separable form
/// a rank-1 spec the launch parameters hold), as a Support.
Support tensorSupport(const ShapeQuery& q, bool separable);
/// The tensor-core direct kernels fit one tile's taps in registers up to this width class;
/// wider classes run the persistent kernel, which reads its taps from device memory.
inline constexpr int kWidestInlineClass = 16;

}  // namespace tessera::gpu::detail
