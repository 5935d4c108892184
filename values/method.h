// SPDX-License-Identifier: Apache-2.0
#pragma once

// The GPU methods a user may ask for and the tensor-core switch: names shared by the planner,
// the CLI, the window and the reports.

#include <string>

namespace tessera::values {

/// How a spec is computed on a GPU.
enum class Method {
    Auto,       ///< let the planner choose
    Direct,     ///< shared-memory tiles, all taps per output
    Separable,  ///< row then column pass, fused in one kernel (rank-1 specs only)
    Fft,        ///< products of spectra: row spectra on chip up to 64 taps per side, else cuFFT on a border-padded copy
};

/// Whether the direct and separable methods may run on tensor cores (8-bit images only: fp16
/// operands, fp32 sums, taken only when the fp16 rounding of the taps cannot move a result by
/// half an output step; see gpu/kernels/tensor/tensor_conv.h).
enum class TensorCores {
    Auto,  ///< when eligible and estimated faster than the fp32 kernels
    Off,   ///< never
    On,    ///< always; planning throws NotSupported (with the reason) when not eligible
};

/// "auto", "direct", "separable", "fft". Never throws.
std::string toString(Method m);
/// Throws InvalidInput (a std::invalid_argument) naming the bad text.
Method parseMethod(const std::string& text);

}  // namespace tessera::values
