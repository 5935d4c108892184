// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/executor.h"
#include "tessera/gpu/resources.h"

#include <opencv2/core/mat.hpp>

#include <cstddef>
#include <map>
#include <utility>
#include <vector>

namespace tessera::gpu {

/// Whether a step of `spec` on an input of `format` and size can run with `method` forced
/// under `tensor` (some kernel variant of that method takes it): the one rule for "forced
/// where the step can use it". True for Method::Auto. Never throws but for bad_alloc.
bool stepTakes(const filters::FilterSpec& spec, PixelFormat format, int width, int height, const DeviceInfo& device,
               Method method, TensorCores tensor = TensorCores::Auto);

/// Plans every step of `chain` for an input of `format` and size: `method` where stepTakes()
/// says the step can use it, else Auto; the first step plans with `values`, each later one
/// with the bound the step before keeps (Plan::outputMaxExponent) and the same
/// transformsSafe. The chain walker of ChainRunner and DeviceChain. Throws as makePlan.
std::vector<Plan> planSteps(const filters::FilterChain& chain, PixelFormat format, int width, int height,
                            const DeviceInfo& device, Method method, TensorCores tensor = TensorCores::Auto,
                            SourceValues values = {});

/// Where enqueueSteps() puts what lies between steps: two intermediate images (step i writes
/// buffers[i % 2]) and the workspace every step shares.
struct StepBuffers {
    void* ping = nullptr;
    void* pong = nullptr;
    std::size_t pitch = 0;      ///< row pitch of the intermediates; 0: a tight row of each step's output
    void* workspace = nullptr;  ///< the largest Plan::workspaceBytes of the steps
};

/// Enqueues `plans` (from planSteps) on `stream`: src through the intermediates into dst (the
/// last step's output). `rows` narrows the last step's output rows (see gpu::run); earlier steps
/// compute every row. With `marks` (plans.size() + 1 events of the stream's device), marks[0]
/// is recorded before the first step and marks[i + 1] after step i. Never synchronises; throws
/// InvalidInput / CudaError as gpu::run.
void enqueueSteps(const std::vector<Plan>& plans, const DeviceImage& src, const DeviceImage& dst,
                  const StepBuffers& buffers, StreamView stream, RowSpan rows = {},
                  std::vector<Event>* marks = nullptr);

/// Runs a filter chain on device images, tile after tile, keeping its buffers (two
/// intermediates, the output and the workspace) from one run to the next so a stream of tiles
/// allocates only when a tile is larger than every one before. One runner per stream: the
/// buffers of a run are in use until that stream has passed it. Not thread-safe.
class ChainRunner {
public:
    explicit ChainRunner(const DeviceInfo& device);

    /// Enqueues the chain on `stream`, reading `input` (any pitch; it may be a view into a
    /// larger image), and returns the output, valid until the next run. An empty chain returns
    /// `input`. `method` is forced where a step can use it, else that step plans Auto. `rows`:
    /// the output rows the caller needs; the last step may leave the others unwritten (see
    /// gpu::run), earlier steps compute every row. Throws OutOfDeviceMemory / CudaError /
    /// std::invalid_argument; never synchronises.
    DeviceImage run(const filters::FilterChain& chain, const DeviceImage& input, Method method, const Stream& stream,
                    std::vector<Plan>* plans = nullptr, RowSpan rows = {});

    /// The plans run() would use for an input of `format` and size (cached).
    const std::vector<Plan>& plansFor(const filters::FilterChain& chain, PixelFormat format, int width, int height,
                                      Method method);

    /// Device bytes run() needs besides the input, for an input of `format` and size.
    std::size_t bytesFor(const filters::FilterChain& chain, PixelFormat format, int width, int height, Method method);

    /// Whether later plans may use tensor cores (see makePlan); clears the cached plans.
    void setTensorCores(TensorCores tensor);
    /// What is known of the values of the inputs later runs read (makePlan's SourceValues);
    /// a change drops the remembered plans. Later steps of a chain plan with the bound the
    /// step before them keeps (Plan::outputMaxExponent) and the same transformsSafe.
    void setSourceValues(const SourceValues& values);

    /// Frees every buffer (waits for the device first, as cudaFree does).
    void release();

    const DeviceInfo& device() const { return device_; }

private:
    struct Key {
        int width;
        int height;
        PixelFormat format;
        Method method;
        bool operator<(const Key& o) const;
    };

    static void ensure(RawDeviceBuffer& buffer, std::size_t bytes, DeviceId device);

    DeviceInfo device_;
    TensorCores tensor_ = TensorCores::Auto;
    SourceValues values_;
    filters::FilterChain chain_;
    std::map<Key, std::vector<Plan>> plans_;
    RawDeviceBuffer ping_;
    RawDeviceBuffer pong_;
    RawDeviceBuffer output_;
    RawDeviceBuffer workspace_;
};

/// Whether some step of `chain` could take the FFT method automatically (a full kernel of at
/// least kFftMinTaps taps).
bool mayTakeTransform(const filters::FilterChain& chain);

/// What the planner should know of `image` for `chain`: an f32 image is scanned when some step
/// could take the FFT method automatically, and nothing is assumed of it otherwise (integer
/// images are bounded by their depth, which the planner knows).
SourceValues sourceValuesFor(const cv::Mat& image, const filters::FilterChain& chain);

}  // namespace tessera::gpu
