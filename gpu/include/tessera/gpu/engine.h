// SPDX-License-Identifier: Apache-2.0
#pragma once

// The face of gpu/ that the rest of Tessera uses: the devices, a chain run on an image with a
// placement policy, and one report of what ran where. Everything else in gpu/ is its machinery
// (tessera/gpu/kernels.h is the kernel-level face for the benchmark and the tests).

#include "filters/filter_spec.h"
#include "tessera/gpu/calibration.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/jpeg_decoder_gpu.h"  // GpuJpegDecoder: JPEG decoding on a GPU (nvJPEG)
#include "values/device_selection.h"
#include "tessera/gpu/kernel_variant.h"
#include "values/run_report.h"
#include "values/geometry.h"  // Tile, TileSize
#include "tessera/gpu/values.h"

#include <opencv2/core/mat.hpp>
#include <opencv2/core/types.hpp>

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::gpu {

/// A run under Fallback::None (or OtherGpus with no slot left) lost a device: what() says which
/// and why; report() is what the run did up to then.
class DeviceFailed : public std::runtime_error {
public:
    DeviceFailed(const std::string& what, RunReport report) : std::runtime_error(what), report_(std::move(report)) {}
    const RunReport& report() const { return report_; }

private:
    RunReport report_;
};

/// How a Pipeline runs: where, with which placement, and the knobs of each placement.
struct RunOptions {
    Placement placement = Placement::Streamed;
    std::vector<DeviceSlot> deviceSlots;  ///< at least one; resident runs take GPU slots only
    Method method = Method::Auto;         ///< forced where a step can use it, else that step plans Auto
    TensorCores tensorCores = TensorCores::Auto;
    Fallback fallback = Fallback::Cpu;  ///< what a failing device's work becomes (RunReport::fellBack)
    // Streamed only:
    std::optional<TileSize> tileSize;           ///< empty: chosen by the planner from the budgets
    int streamsPerGpu = 3;                      ///< tiles in flight per GPU slot (upload, kernels, download overlap)
    int tilesPerSlot = 6;                       ///< auto tile size aims at this many tiles per slot
    FaultHook fault;                            ///< test hook; empty in normal runs
    const std::atomic<bool>* cancel = nullptr;  ///< checked between tiles
    // Resident only:
    int haloRows = 32;  ///< rows each band stores above and below its own, at least
};

/// What one run of a Pipeline is told besides its options, so that a pipeline kept for many
/// images (a batch) needs no new options per image. Plain value; the flag must outlive the run.
struct RunControl {
    const std::atomic<bool>* cancel = nullptr;  ///< checked between tiles; when set, replaces RunOptions::cancel
    /// Streamed: the bytes this run may hold on each device it uses (what a device lease
    /// granted), shared by the slots on one device; a slot's own memoryLimit still caps it.
    /// 0: each slot's memoryLimit, else (GPU) 0.8 x the free memory, (CPU) no limit.
    std::uint64_t memoryBudget = 0;
    /// Resident on GPUs, for the whole image: above 1, dst gets the means of reduce x reduce
    /// blocks of the result (ceil(width / reduce) x ceil(height / reduce), the output's depth,
    /// rounded), summed on the GPUs so that only the blocks are downloaded (a fit-zoom preview).
    /// Runs on the CPU path give the full result: dst's size says which came back.
    int reduce = 1;
};

/// Runs filter chains over host images on the slots of its options: the one way Tessera runs a
/// chain on GPUs. Resident placement keeps the image on the GPUs (one band per GPU, heights in
/// proportion to the slots' speeds) between runs, so previews and comparisons upload nothing
/// after the first run; streamed placement cuts each image in tiles that every slot takes from
/// one queue (files, batches, images larger than the GPUs).
///
/// The CPU is a slot like a GPU: a streamed run may mix them, and a resident pipeline on one CPU
/// slot alone keeps the image in host memory and computes each run (a region too) on the CPU
/// path. A "CPU only" run and a fallback to the CPU are the same code.
///
/// The fallback rule, decided here and nowhere else, by RunOptions::fallback. Under
/// Fallback::Cpu (the default) a device that fails never makes a run throw: streamed, the
/// failing slot hands its tiles back and the other slots (at last the CPU path) finish them;
/// resident, the CPU path computes the result and later runs go to the CPU path until the
/// options are set again. Under OtherGpus only other slots may take the work (a resident run,
/// whose bands cannot move, then fails as under None); under None the run throws DeviceFailed.
/// RunReport::fellBack, fallback and events say what happened; callers read them and never
/// decide again. Bad input (an empty or unsupported image, a region outside it, bad options)
/// throws InvalidInput whatever the policy.
///
/// Not thread-safe: use a Pipeline from one thread at a time.
class Pipeline {
public:
    /// Throws InvalidInput (gpu/errors.h) when options has no slots, fewer than one stream per GPU,
    /// or a CPU slot beside others in a resident placement; NotSupported when options.method is forced onto
    /// GPU slots but cannot run here (requireMethod).
    explicit Pipeline(RunOptions options);
    ~Pipeline();
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

    /// The chain over `image` into dst (reallocated unless it already has the output's size and
    /// type; a pinned dst skips output staging in streamed runs). `region` (resident only;
    /// clipped to the image, empty: all of it) limits the output to that part. A resident
    /// pipeline keeps `image` (shared, not copied) on the GPUs until a different image is
    /// passed or forgetImage() is called. Returns false when cancelled (dst then holds a partial
    /// result). Throws InvalidInput for bad input, DeviceFailed as the fallback policy says (see
    /// the class comment).
    bool run(const cv::Mat& image, const filters::FilterChain& chain, cv::Mat& dst, RunReport* report = nullptr,
             const cv::Rect& region = {});
    /// As above, under `control` for this run alone (the options stay as they are).
    bool run(const cv::Mat& image, const filters::FilterChain& chain, cv::Mat& dst, const RunControl& control,
             RunReport* report = nullptr, const cv::Rect& region = {});

    /// Resident only: runs the chain over every band and keeps the results on the GPUs (nothing
    /// downloaded), then waits: the benchmark's and the comparison's timed run. Returns host wall
    /// milliseconds from the first launch to the last band done. Throws what the GPUs throw
    /// (a timed run has no fallback) and std::invalid_argument in a streamed or CPU pipeline.
    double runInPlace(const cv::Mat& image, const filters::FilterChain& chain, RunReport* report = nullptr);

    /// Resident: the next run uploads the image again (call it after changing pixels in place).
    void forgetImage();

    /// The resident bands as laid out now (out rows per GPU, stored rows); empty otherwise.
    std::vector<Tile> bands() const;

    const RunOptions& options() const;
    /// Replaces the options; streams, buffers and the resident copy are kept where the slots and
    /// the placement are unchanged. Clears a resident pipeline's failed state. Throws as the
    /// constructor.
    void setOptions(RunOptions options);

private:
    struct State;
    std::unique_ptr<State> state_;
};

/// The slots of a pipeline on `gpus` (a resolved DeviceSelection), in that order: the one place a
/// selection becomes what the planner works with. A GPU's speed comes from `speeds` (1 when it
/// is not listed or not positive); every slot may hold `memoryLimit` bytes (0: from free memory).
std::vector<DeviceSlot> slotsFor(const std::vector<DeviceId>& gpus, const DeviceSpeeds& speeds = {},
                                 std::size_t memoryLimit = 0);

/// Images from this many pixels up go to every GPU of a job at once rather than whole to one.
inline constexpr std::size_t kSpreadPixels = std::size_t{24} << 20;

/// The placement rule of jobs with many images on several GPUs (the batch): true when an image
/// of `pixels` is better cut in tiles over all `gpuCount` GPUs at once than given whole to one
/// GPU while the others take other images: from kSpreadPixels up, with two GPUs or more.
/// Never throws.
bool spreadOverAllGpus(std::size_t pixels, std::size_t gpuCount);

/// The slots of a run on the CPU path alone: one CPU slot.
std::vector<DeviceSlot> cpuSlots();

/// Throws NotSupported, with the reason, when `method` cannot run on any GPU of this machine:
/// Method::Fft where cuFFT could not be opened. Never throws for the other methods.
void requireMethod(Method method);

/// One streamed run with a temporary pipeline: the result, or an empty Mat when cancelled.
cv::Mat runStreamed(const cv::Mat& src, const filters::FilterChain& chain, RunOptions options,
                    RunReport* report = nullptr);

/// How many slot threads streamed pipelines have started in this process: one per slot and
/// pipeline, kept until the pipeline or its slot goes, never one per run. For tests. Never throws.
std::uint64_t slotWorkerStarts() noexcept;

/// The OpenCV type of the chain's output for an input of cvType.
int chainOutputType(const filters::FilterChain& chain, int cvType);

}  // namespace tessera::gpu
