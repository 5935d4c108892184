// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: what the planner needs to know of the TF32 walking separable kernel
// (separable_tf32.cu; its launch is declared in separable_walk.h): its error bound and its work.

#include "filters/filter_spec.h"

namespace tessera::gpu::detail {

/// e such that the kernel's result differs from the exact correlation by at most e x S, where
/// S = |scale| sum|row taps| sum|column taps| max|input| + |offset|, for a kw x kh kernel with
/// its anchor at column anchorX. Never throws.
double tf32WalkRelativeBound(int kw, int kh, int anchorX);

/// The kernel's mma.sync count (m16n8k8) for a kw x kh kernel on `pixels` outputs, for the
/// cost model. Never throws.
double tf32WalkMmaCount(int kw, int kh, int anchorX, double pixels);

}  // namespace tessera::gpu::detail
