// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: what makePlan prepares for run().

#include "tessera/gpu/executor.h"
#include "tessera/gpu/resources.h"
#include "gpu/plan/variant_support.h"

#include <memory>
#include <mutex>
#include <vector>

namespace tessera::gpu {

class FftCache;  // device-side kernel spectrum and cuFFT plans, built at first run

/// A device copy of taps, made once.
struct DeviceTaps {
    std::once_flag once;
    RawDeviceBuffer buffer;
};

struct PlanData {
    std::vector<float> taps;     ///< kernel * scale, row-major (direct)
    double tapSum = 0.0;         ///< sum of taps: what the FFT methods' centring takes out
    std::vector<float> rowTaps;  ///< separable: horizontal taps, scale folded in
    std::vector<float> colTaps;  ///< separable: vertical taps
    /// Direct kernels too large for the launch parameters read their taps from the start of
    /// the workspace; this pinned copy is what run() uploads there.
    std::shared_ptr<RawPinnedBuffer> pinnedTaps;
    std::size_t tapsWorkspaceBytes = 0;
    /// Output depth written by the kernel: the plan's output, or f32 followed by a conversion.
    PixelFormat kernelOutput;
    bool needsConvert = false;
    std::size_t separableWorkspaceOffset = 0;  ///< float intermediate of SeparableTwoPass
    std::size_t convertWorkspaceOffset = 0;    ///< where the f32 intermediate lives, if any
    std::size_t tileCounterOffset = 0;         ///< tensor-core direct: its tile counter
    /// Taps kept on the plan's device in the layout a kernel reads, uploaded at the first run
    /// (the persistent tensor-core direct kernel reads them from there, not from its launch
    /// parameters). Shared by every run of the plan.
    std::shared_ptr<DeviceTaps> deviceTaps;
    std::size_t fftWorkspaceOffset = 0;
    std::size_t fftWorkspaceBytes = 0;
    std::shared_ptr<FftCache> fft;
    /// The variants whose sums take in pixels outside an output's window (the FFTs, the zero-
    /// padded separable walks): the direct taps (taps above) on the device, for the outputs
    /// they compute again as direct sums; uploaded at the first run.
    std::shared_ptr<DeviceTaps> directTaps;
};

namespace detail {

/// Prepares the FFT method for plan (sizes, the cache that will hold the kernel spectrum and
/// cuFFT plans) and returns the device workspace it needs per run (fft_conv.cu). Throws
/// NotSupported when cuFFT could not be loaded, PreconditionError when the plan's taps do not
/// match its kernel size.
std::size_t planFft(const Plan& plan, PlanData& data);
/// Converts between depths with rounding and saturation (used when a kernel cannot write the
/// requested depth directly). Throws InvalidInput on images that differ in size or channels.
void launchConvert(const DeviceImage& src, const DeviceImage& dst, StreamView stream);
/// The block rows of f x f blocks that image rows [firstRow, firstRow + rows) touch.
int blockSumRows(int firstRow, int rows, int f);
/// Writes into dst (blockSumRows x ceil(width / f) cells of channels floats, row-major) the sum
/// of each f x f block's pixels that lie in image, whose first row is image row firstRow (blocks
/// start at multiples of f in image rows and columns). Throws InvalidInput on a bad factor.
void launchBlockSums(const DeviceImage& image, int firstRow, int f, float* dst, StreamView stream);

}  // namespace detail

}  // namespace tessera::gpu
