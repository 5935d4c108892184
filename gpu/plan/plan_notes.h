// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: what a plan says of itself beyond its shape: the notes on the error bounds of
// the kernels that state one (plan_notes.cpp, which also holds Plan::describe). CUDA-free.

#include "filters/filter_spec.h"

#include <string>

namespace tessera::gpu::detail {

/// The TF32 walk's note in a plan's reason: its split and its error bound relative to S.
std::string tf32Note(const filters::FilterSpec& spec);
/// The integer RGBA8 kernel's note in a plan's reason: its fixed-point taps and their error bound.
std::string rgba8FixedNote(const filters::FilterSpec& spec);

}  // namespace tessera::gpu::detail
