// SPDX-License-Identifier: Apache-2.0
#pragma once

// A chain run on images that already live in device memory, on a stream the caller owns: what
// the Python bindings use for CuPy arrays and PyTorch tensors. No host copy, no staging; the
// only device memory besides the caller's images is the scratch the plans need.

#include "filters/filter_spec.h"
#include "tessera/gpu/executor.h"
#include "tessera/gpu/pixel_format.h"
#include "tessera/gpu/resources.h"
#include "values/device_id.h"
#include "values/method.h"
#include "values/run_report.h"
#include "tessera/gpu/values.h"

#include <cstddef>
#include <string>
#include <vector>

namespace tessera::gpu {

/// A chain planned once for one input format and size on one GPU. Immutable after
/// construction, so one DeviceChain may run from several threads on several streams at once.
class DeviceChain {
public:
    /// Plans every step with planSteps (gpu/exec/chain_runner.h): a forced method where the step can
    /// use it, else the planner's choice, as Pipeline does. Throws InvalidInput for an empty image, a bad channel count, an
    /// empty chain or a device that is not there, NotSupported when `method` is Fft without
    /// cuFFT.
    DeviceChain(const filters::FilterChain& chain, PixelFormat input, int width, int height, DeviceId device,
                Method method = Method::Auto);

    /// The format the last step writes. Never throws.
    PixelFormat output() const { return output_; }
    /// Bytes of scratch run() needs: the largest step workspace plus the intermediate images
    /// between steps. 0 for a single step without workspace. Never throws.
    std::size_t scratchBytes() const { return scratchBytes_; }
    /// Never throws.
    DeviceId device() const { return device_; }
    /// The planned input format and size. Never throw.
    PixelFormat input() const { return input_; }
    int width() const { return width_; }
    int height() const { return height_; }
    /// One line per step: the plan's description. Never throws but for bad_alloc.
    std::vector<std::string> describe() const;
    /// The plans, one per step. Never throws.
    const std::vector<Plan>& plans() const { return plans_; }

    /// What a run of this chain reports without timing it: placement Device, the methods of the
    /// steps, one slot and one tile on the chain's GPU, one zero-length kernel record per step
    /// (device and method, no time), no fallback (Fallback::None). Never throws but for bad_alloc.
    RunReport report() const;

    /// Enqueues every step on `stream` and returns without waiting. src and dst are device
    /// images of the planned size and formats that must not overlap. `scratch` holds
    /// scratchBytes() bytes (256-byte aligned) that stay untouched by others until the stream
    /// passes this work; when null and scratch is needed, it is allocated and freed in stream
    /// order on `stream`. Throws InvalidInput for images that do not match the plan, overlap
    /// or are misaligned for their pixel type, CudaError when a launch or allocation fails.
    /// With `report`, it is set to report() with wallMs the host time of the call; with
    /// `timeSteps` as well, each step's kernel record holds its time from CUDA events around it
    /// on `stream`, and the call then waits for the stream to pass this work (so the events can
    /// be read): for profiling, not for pipelines that must not block.
    void run(const DeviceImage& src, const DeviceImage& dst, void* scratch, StreamView stream,
             RunReport* report = nullptr, bool timeSteps = false) const;

private:
    std::vector<Plan> plans_;
    PixelFormat input_;
    PixelFormat output_;
    int width_ = 0;
    int height_ = 0;
    DeviceId device_;
    std::size_t workspaceBytes_ = 0;  ///< the largest step's workspace, at offset 0 of scratch
    std::size_t bufferPitch_ = 0;     ///< pitch of the two intermediate images
    std::size_t bufferBytes_ = 0;     ///< bytes of one intermediate image
    std::size_t scratchBytes_ = 0;
};

/// Makes `waiting` wait (on the device, the host does not block) for the work queued on
/// `producer` so far: both cudaStream_t handles of `device` (the legacy and per-thread default
/// streams included). Throws CudaError.
void streamWaits(DeviceId device, void* waiting, void* producer);

/// The GPU a device pointer belongs to (the CUDA ordinal of its allocation; managed memory
/// counts as the current device). Throws InvalidInput for host memory or a pointer CUDA does
/// not know, CudaError when the runtime cannot answer.
DeviceId deviceOfPointer(const void* pointer);

}  // namespace tessera::gpu
