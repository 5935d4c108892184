// SPDX-License-Identifier: Apache-2.0
#pragma once

// Inside gpu/: the resident placement of a Pipeline (tessera/gpu/engine.h).

#include "filters/filter_spec.h"
#include "tessera/gpu/engine.h"

#include <opencv2/core/mat.hpp>

#include <memory>
#include <vector>

namespace tessera::gpu {

/// An image kept on several GPUs at once, one horizontal band per GPU (heights in proportion to
/// the slots' speeds) with halo rows above and below, so that filtering it, or any part of it,
/// uploads nothing and every GPU works on its own rows: the interactive preview and benchmark
/// mode. A chain that reaches further than the stored halo, or wraps differently, has the bands
/// laid out again from the host copy. One GPU is the same code with one band. Not thread-safe;
/// use it from one thread (the Engine's worker).
class ResidentBands {
public:
    /// Uploads the image (shared, not copied: keep it unchanged) to the slots' GPUs and waits.
    /// Throws std::invalid_argument (no slots, a CPU slot, an unsupported image, a missing GPU),
    /// OutOfDeviceMemory or CudaError.
    ResidentBands(const cv::Mat& image, std::vector<DeviceSlot> gpus, int haloRows = 32);
    ~ResidentBands();
    ResidentBands(const ResidentBands&) = delete;
    ResidentBands& operator=(const ResidentBands&) = delete;

    /// The chain's output inside region (clipped to the image; empty: all of it), computed by
    /// the GPUs whose bands it crosses, downloaded and waited for. report gets one kernel and
    /// one download record per band used. reduce above 1 with the whole image: the means of
    /// reduce x reduce blocks of the output (ceil(width / reduce) x ceil(height / reduce), in the
    /// output's depth, rounded), summed on the GPUs so only the blocks are downloaded. Throws
    /// CudaError / OutOfDeviceMemory / std::invalid_argument; a caller falls back to another
    /// path when it does.
    cv::Mat apply(const filters::FilterChain& chain, const cv::Rect& region = {}, Method method = Method::Auto,
                  TensorCores tensor = TensorCores::Auto, RunReport* report = nullptr, int reduce = 1);

    /// Runs the chain over every band and keeps the results on the GPUs (nothing downloaded),
    /// then waits for all of them: the benchmark's resident case. Returns host wall milliseconds
    /// from the first launch to the last band done; report gets each band's kernel record.
    double runInPlace(const filters::FilterChain& chain, Method method = Method::Auto,
                      TensorCores tensor = TensorCores::Auto, RunReport* report = nullptr);

    /// The bands as laid out now (out rows per GPU, stored input rows).
    std::vector<Tile> bands() const;
    /// Milliseconds the last layout's uploads took (host wall, all GPUs in parallel).
    double uploadMilliseconds() const;
    const std::vector<DeviceSlot>& deviceSlots() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace tessera::gpu
