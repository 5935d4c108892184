// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the row-spectrum FFT variant (fft_rows.cu), sizes the planner and the host
// tests need without CUDA.

#include <cstddef>
#include <vector>

namespace tessera::gpu::detail {

/// Real samples per transformed row segment; a block keeps 129 - kw of them.
inline constexpr int kFftRowsLength = 128;
/// Output rows per block.
inline constexpr int kFftRowsTile = 64;
/// Largest kernel side: at least 65 of the 128 columns stay valid.
inline constexpr int kFftRowsMaxSide = 64;

/// Dynamic shared memory of one block for a kernel kh rows tall. Never throws.
std::size_t fftRowsSharedBytes(int kh);
/// The kernel rows' spectra as the kernel reads them: kh x 64 slots of two floats (a complex
/// factor; slot 0 the real factors of bins 0 and 64), with the transforms' scale folded in. `taps` is kw x kh,
/// row-major. Never throws beyond std::bad_alloc.
std::vector<float> fftRowsSpectrum(const std::vector<float>& taps, int kw, int kh);

}  // namespace tessera::gpu::detail
