// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "values/device_calibration.h"
#include "values/device_info.h"
#include "values/run_report.h"

#include <opencv2/core/mat.hpp>

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace tessera::app {

class DeviceScheduler;

/// Time a kernel (or a method inside a tile) took, with the work it did, for the roofline.
struct KernelSample {
    values::DeviceId device;  ///< the GPU that ran it, or the CPU
    std::string method;       ///< "separable", "direct", "fft", "cpu"...
    double ms = 0.0;          ///< summed kernel time
    double flops = 0.0;       ///< 2 x taps x pixels x channels of the steps it ran
    double bytes = 0.0;       ///< input plus output bytes of those steps
};

/// One execution of the chain on one target: the output and how long it took.
struct TargetRun {
    cv::Mat output;
    double wallMs = 0.0;
    std::vector<KernelSample> kernels;  ///< may be empty (the CPU path, fakes)
    values::RunReport report;           ///< the pipeline's report of the timed run (empty from fakes)
};

/// Runs the chain over the image on one target: the real GPU and CPU paths, or a fake in tests.
using TargetFunction = std::function<TargetRun(const cv::Mat& src, const filters::FilterChain& chain)>;

/// Something to compare: one GPU, several together, or the CPU path.
struct CompareTarget {
    std::string key;                     ///< "gpu:0", "gpus:0,1,2,3", "cpu"
    std::string label;                   ///< "GPU 0 (NVIDIA H200)", "4 GPUs", "CPU"
    std::vector<values::DeviceId> gpus;  ///< empty for the CPU
    TargetFunction run;

    bool isCpu() const { return gpus.empty(); }
};

/// A method's achieved rates on one device, against that device's calibrated ceilings.
struct RooflinePoint {
    values::DeviceId device;
    std::string method;
    double intensity = 0.0;  ///< flops per byte
    double gflops = 0.0;     ///< achieved
    double gbs = 0.0;        ///< achieved
};

/// What one target did over the repeated runs.
struct TargetResult {
    std::string key;
    std::string label;
    std::vector<int> gpus;      ///< CUDA ordinals, as the JSON report writes and reads them back
    std::vector<double> runMs;  ///< every timed run, in order
    double minMs = 0.0;
    double medianMs = 0.0;
    double maxMs = 0.0;
    double mpixS = 0.0;        ///< at the median
    double mpixMin = 0.0;      ///< at the slowest run
    double mpixMax = 0.0;      ///< at the fastest run
    double speedup = 0.0;      ///< baseline median / this median; 0 when there is no baseline
    double efficiency = 0.0;   ///< speedup per GPU; 0 for the CPU
    double maxAbsError = 0.0;  ///< against the CPU reference, in the output's units
    double psnr = 0.0;         ///< dB; infinity when equal to the reference
    cv::Mat heatMap;           ///< CV_8UC3 BGR, |target - reference| scaled to the largest error
    std::vector<RooflinePoint> roofline;
    std::string error;          ///< why the target gave no result; empty when it did
    values::RunReport lastRun;  ///< the pipeline's report of the target's last run, as every front end reports

    bool ok() const { return error.empty(); }
};

/// A whole comparison.
struct CompareReport {
    int width = 0;
    int height = 0;
    int channels = 0;
    std::string format;  ///< e.g. "u8x4"
    std::string chain;   ///< a description of the filter chain
    int warmup = 0;
    int repeats = 0;
    std::string baseline;  ///< key of the target speed-ups are measured against
    std::vector<TargetResult> results;
    bool cancelled = false;
};

/// Settings of a comparison.
struct CompareOptions {
    int warmup = 1;   ///< untimed runs per target
    int repeats = 5;  ///< timed runs per target (at least 1)
    /// Called after every run (warm-up ones included) on the calling thread: done of total, and
    /// the target running.
    std::function<void(int done, int total, const std::string& target)> progress;
    const std::atomic<bool>* cancel = nullptr;  ///< checked between runs, and while a target waits
    /// When set, each target runs under an exclusive lease of its devices (nothing else runs on
    /// them while it is timed); waiting tells why a target waits for them (calling thread).
    DeviceScheduler* scheduler = nullptr;
    std::function<void(const std::string& why)> waiting;
};

/// Runs every target warmup + repeats times on src, then fills in the statistics: speed-ups
/// against the fastest single GPU (the CPU when no single GPU ran), scaling efficiency as
/// speed-up per GPU, and the difference from the CPU path's output (the CPU target's, or
/// filters::applyCpu when none ran). A target that throws gets its error and no numbers; the
/// others go on. Blocks; call it off the GUI thread.
CompareReport runComparison(const cv::Mat& src, const filters::FilterChain& chain,
                            const std::vector<CompareTarget>& targets, const CompareOptions& options);

/// Statistics of one target's timings for an image of `pixels`: min, median, max and the
/// megapixel rates (fills those fields of result).
void fillTimings(TargetResult& result, double pixels);
/// Speed-ups and efficiencies of every result against the fastest single-GPU one; returns its
/// key (the CPU's when no single GPU has a result, empty when nothing has).
std::string fillSpeedups(std::vector<TargetResult>& results);
/// Largest |a - b| over all pixels and channels; a and b have the same size and type.
double maxAbsError(const cv::Mat& a, const cv::Mat& b);
/// PSNR of a against reference b, peak 255 (8-bit), 65535 (16-bit) or 1 (float); infinity
/// when they are equal.
double psnr(const cv::Mat& a, const cv::Mat& b);
/// |a - b|, largest over channels, scaled so that the largest error is white-hot (turbo colour
/// map), as CV_8UC3 BGR; black everywhere when they are equal.
cv::Mat errorHeatMap(const cv::Mat& a, const cv::Mat& b);
/// Flops (2 x taps x pixels x channels per step) and bytes (input + output per step) of the
/// chain on an image of size and type cvType. A step whose method (methods[i]; "direct" when
/// missing) names "separable" counts width + height taps, any other the whole kernel.
std::pair<double, double> chainWork(const filters::FilterChain& chain, cv::Size size, int cvType,
                                    const std::vector<std::string>& methods = {});
/// Roofline points from kernel samples: per device and method, flops and bytes over time.
std::vector<RooflinePoint> rooflinePoints(const std::vector<KernelSample>& samples);

/// The targets to offer for snapshot: each GPU alone, all GPUs together (two or more), the CPU.
/// Their functions run the real paths: GPUs with the image resident in bands (gpu::ResidentBands,
/// band heights from calibrations by GPU id, when given), the CPU through a pipeline on the CPU slot.
std::vector<CompareTarget> defaultTargets(const values::DeviceSnapshot& snapshot,
                                          const std::vector<values::DeviceCalibration>& calibrations = {});

/// A target running on gpus with the image resident in one band per GPU, as previews keep it: a
/// run's time is the GPUs' filtering (all at once), the download after it is not counted.
CompareTarget gpuTarget(const std::vector<values::DeviceId>& gpus, const std::string& label,
                        const std::vector<double>& speeds = {});
/// The CPU path target.
CompareTarget cpuTarget();

}  // namespace tessera::app
