// SPDX-License-Identifier: Apache-2.0
#include "app/compare/compare_runner.h"

#include "values/device_label.h"

#include "app/devices/device_scheduler.h"

#include "filters/cpu_executor.h"
#include "tessera/gpu/engine.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

namespace tessera::app {

namespace {

using Clock = std::chrono::steady_clock;

double medianOf(std::vector<double> values)
{
    if (values.empty()) {
        return 0.0;
    }
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double peakOf(int depth)
{
    switch (depth) {
    case CV_8U: return 255.0;
    case CV_16U: return 65535.0;
    default: return 1.0;
    }
}

std::string describeChain(const filters::FilterChain& chain)
{
    std::ostringstream os;
    for (std::size_t i = 0; i < chain.steps.size(); ++i) {
        const auto& s = chain.steps[i];
        os << (i ? ", " : "") << s.kernel.width << "x" << s.kernel.height << (s.separable ? " separable" : "");
    }
    return os.str();
}

/// Per-step taps as the method that ran them counts them: a separable pass touches width +
/// height taps per pixel, every other method the whole kernel.
double stepTaps(const filters::FilterSpec& spec, const std::string& method)
{
    const bool separable = spec.separable.has_value() && method.find("separable") != std::string::npos;
    return separable ? double(spec.kernel.width + spec.kernel.height) : double(spec.kernel.width) * spec.kernel.height;
}

/// Splits "separable, direct" into its methods.
std::vector<std::string> splitMethods(const std::string& label)
{
    std::vector<std::string> out;
    std::stringstream in(label);
    std::string item;
    while (std::getline(in, item, ',')) {
        item.erase(0, item.find_first_not_of(' '));
        out.push_back(item);
    }
    return out;
}

/// Flops and bytes of the chain over size pixels, steps counted as methods says.
std::pair<double, double> workOf(const filters::FilterChain& chain, cv::Size size, int cvType,
                                 const std::vector<std::string>& methods)
{
    const double pixels = double(size.width) * size.height;
    const int channels = CV_MAT_CN(cvType);
    int depth = CV_MAT_DEPTH(cvType);
    double flops = 0.0;
    double bytes = 0.0;
    for (std::size_t i = 0; i < chain.steps.size(); ++i) {
        const auto& spec = chain.steps[i];
        const std::string method = i < methods.size() ? methods[i] : std::string("direct");
        const int outDepth = filters::resolveOutputDepth(spec.depth, depth);
        flops += 2.0 * stepTaps(spec, method) * pixels * channels;
        bytes += pixels * channels * double(CV_ELEM_SIZE1(depth) + CV_ELEM_SIZE1(outDepth));
        depth = outDepth;
    }
    return {flops, bytes};
}

}  // namespace

void fillTimings(TargetResult& r, double pixels)
{
    if (r.runMs.empty()) {
        return;
    }
    r.minMs = *std::min_element(r.runMs.begin(), r.runMs.end());
    r.maxMs = *std::max_element(r.runMs.begin(), r.runMs.end());
    r.medianMs = medianOf(r.runMs);
    const auto rate = [pixels](double ms) { return ms > 0.0 ? pixels / (ms * 1e3) : 0.0; };
    r.mpixS = rate(r.medianMs);
    r.mpixMin = rate(r.maxMs);
    r.mpixMax = rate(r.minMs);
}

std::string fillSpeedups(std::vector<TargetResult>& results)
{
    const TargetResult* base = nullptr;
    for (const auto& r : results) {
        if (r.ok() && r.gpus.size() == 1 && r.medianMs > 0.0 && (base == nullptr || r.medianMs < base->medianMs)) {
            base = &r;
        }
    }
    if (base == nullptr) {
        for (const auto& r : results) {
            if (r.ok() && r.gpus.empty() && r.medianMs > 0.0) {
                base = &r;
            }
        }
    }
    if (base == nullptr) {
        return {};
    }
    const double baseMs = base->medianMs;
    const std::string key = base->key;
    for (auto& r : results) {
        if (!r.ok() || r.medianMs <= 0.0) {
            continue;
        }
        r.speedup = baseMs / r.medianMs;
        r.efficiency = r.gpus.empty() ? 0.0 : r.speedup / double(r.gpus.size());
    }
    return key;
}

double maxAbsError(const cv::Mat& a, const cv::Mat& b)
{
    return a.empty() || b.empty() ? 0.0 : cv::norm(a, b, cv::NORM_INF);
}

double psnr(const cv::Mat& a, const cv::Mat& b)
{
    cv::Mat da;
    cv::Mat db;
    a.convertTo(da, CV_64F);
    b.convertTo(db, CV_64F);
    const double sq = cv::norm(da, db, cv::NORM_L2SQR);
    const double count = double(a.total()) * a.channels();
    if (sq <= 0.0 || count <= 0.0) {
        return std::numeric_limits<double>::infinity();
    }
    const double peak = peakOf(b.depth());
    return 10.0 * std::log10(peak * peak / (sq / count));
}

cv::Mat errorHeatMap(const cv::Mat& a, const cv::Mat& b)
{
    cv::Mat diff;
    cv::Mat fa;
    cv::Mat fb;
    a.convertTo(fa, CV_32F);
    b.convertTo(fb, CV_32F);
    cv::absdiff(fa, fb, diff);
    cv::Mat worst = diff.reshape(1, static_cast<int>(diff.total()));
    cv::reduce(worst, worst, 1, cv::REDUCE_MAX);
    worst = worst.reshape(1, a.rows);
    double largest = 0.0;
    cv::minMaxLoc(worst, nullptr, &largest);
    cv::Mat scaled;
    worst.convertTo(scaled, CV_8U, largest > 0.0 ? 255.0 / largest : 0.0);
    cv::Mat heat;
    cv::applyColorMap(scaled, heat, cv::COLORMAP_TURBO);
    if (largest <= 0.0) {
        heat.setTo(cv::Scalar::all(0));  // equal everywhere: no colour at all, not the map's dark blue
    }
    return heat;
}

std::pair<double, double> chainWork(const filters::FilterChain& chain, cv::Size size, int cvType,
                                    const std::vector<std::string>& methods)
{
    return workOf(chain, size, cvType, methods);
}

std::vector<RooflinePoint> rooflinePoints(const std::vector<KernelSample>& samples)
{
    std::map<std::pair<values::DeviceId, std::string>, KernelSample> sums;
    for (const auto& s : samples) {
        auto& sum = sums[{s.device, s.method}];
        sum.device = s.device;
        sum.method = s.method;
        sum.ms += s.ms;
        sum.flops += s.flops;
        sum.bytes += s.bytes;
    }
    std::vector<RooflinePoint> points;
    for (const auto& [key, s] : sums) {
        if (s.ms <= 0.0 || s.bytes <= 0.0) {
            continue;
        }
        const double seconds = s.ms / 1e3;
        points.push_back({s.device, s.method, s.flops / s.bytes, s.flops / seconds / 1e9, s.bytes / seconds / 1e9});
    }
    return points;
}

namespace {

/// The CPU path reports no kernels: its whole run is its one "kernel". OpenCV runs separable
/// kernels as two passes, so those count as separable work.
std::vector<KernelSample> cpuRunsAsKernels(const filters::FilterChain& chain, const cv::Mat& src,
                                           const std::vector<double>& runMs)
{
    std::vector<std::string> methods;
    for (const auto& step : chain.steps) {
        methods.push_back(step.separable ? "separable" : "direct");
    }
    const auto [flops, bytes] = chainWork(chain, src.size(), src.type(), methods);
    std::vector<KernelSample> kernels;
    for (double ms : runMs) {
        kernels.push_back({values::DeviceId::cpu(), "cpu", ms, flops, bytes});
    }
    return kernels;
}

/// A target's output held against the CPU path's: the largest difference, PSNR and heat map.
void compareWithReference(TargetResult& r, const cv::Mat& out, const cv::Mat& reference)
{
    if (!r.ok() || out.empty()) {
        return;
    }
    if (out.size() != reference.size() || out.type() != reference.type()) {
        r.error = "output differs in size or type from the CPU path's";
        return;
    }
    r.maxAbsError = maxAbsError(out, reference);
    r.psnr = psnr(out, reference);
    r.heatMap = errorHeatMap(out, reference);
}

/// The report's description of the work, before any target ran.
CompareReport emptyReport(const cv::Mat& src, const filters::FilterChain& chain, const CompareOptions& options)
{
    CompareReport report;
    report.width = src.cols;
    report.height = src.rows;
    report.channels = src.channels();
    report.format = filters::cvDepthName(src.depth()) + "x" + std::to_string(src.channels());
    report.chain = describeChain(chain);
    report.warmup = std::max(options.warmup, 0);
    report.repeats = std::max(options.repeats, 1);
    return report;
}

/// The target's devices (the CPU for a CPU target) for it alone, waiting for them; an empty
/// lease when cancelled meanwhile.
DeviceLease exclusiveLease(const CompareTarget& target, const CompareOptions& options)
{
    std::vector<values::DeviceId> devices = target.gpus;
    if (devices.empty()) {
        devices.push_back(values::DeviceId::cpu());
    }
    const auto cancelled = [&] { return options.cancel != nullptr && options.cancel->load(); };
    return options.scheduler->acquire({devices, LeaseKind::Exclusive, 0, "comparison"}, cancelled, options.waiting);
}

}  // namespace

CompareReport runComparison(const cv::Mat& src, const filters::FilterChain& chain,
                            const std::vector<CompareTarget>& targets, const CompareOptions& options)
{
    CompareReport report = emptyReport(src, chain, options);
    const int perTarget = report.warmup + report.repeats;
    const int total = perTarget * static_cast<int>(targets.size());
    int done = 0;
    const auto cancelled = [&] { return options.cancel != nullptr && options.cancel->load(); };

    cv::Mat reference;
    std::vector<cv::Mat> outputs;
    for (const CompareTarget& target : targets) {
        TargetResult r;
        r.key = target.key;
        r.label = target.label;
        for (const values::DeviceId id : target.gpus) {
            r.gpus.push_back(id.value());
        }
        cv::Mat output;
        std::vector<KernelSample> kernels;
        const int doneBefore = done;
        const DeviceLease lease = options.scheduler != nullptr ? exclusiveLease(target, options) : DeviceLease{};
        if (options.scheduler != nullptr && !lease) {
            report.cancelled = true;
            break;
        }
        try {
            for (int i = 0; i < perTarget && !cancelled(); ++i) {
                const auto start = Clock::now();
                TargetRun run = target.run(src, chain);
                const double hostMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
                if (i >= report.warmup) {
                    r.runMs.push_back(run.wallMs > 0.0 ? run.wallMs : hostMs);
                    kernels.insert(kernels.end(), run.kernels.begin(), run.kernels.end());
                }
                output = std::move(run.output);
                r.lastRun = std::move(run.report);
                ++done;
                if (options.progress) {
                    options.progress(done, total, target.label);
                }
            }
            if (output.empty() && !cancelled()) {
                r.error = "no output";
            }
        } catch (const std::exception& e) {
            r.error = e.what();
            done = doneBefore + perTarget;
        }
        if (cancelled()) {
            report.cancelled = true;
            break;
        }
        if (target.isCpu() && r.ok() && reference.empty()) {
            reference = output;
        }
        if (kernels.empty() && r.ok() && target.isCpu()) {
            kernels = cpuRunsAsKernels(chain, src, r.runMs);
        }
        fillTimings(r, double(src.total()));
        r.roofline = rooflinePoints(kernels);
        report.results.push_back(std::move(r));
        outputs.push_back(std::move(output));
    }
    if (report.cancelled) {
        return report;
    }
    if (reference.empty() && !src.empty()) {
        reference = filters::applyCpu(src, chain);
    }
    for (std::size_t i = 0; i < report.results.size(); ++i) {
        compareWithReference(report.results[i], outputs[i], reference);
    }
    report.baseline = fillSpeedups(report.results);
    return report;
}

CompareTarget gpuTarget(const std::vector<values::DeviceId>& gpus, const std::string& label,
                        const std::vector<double>& speeds)
{
    CompareTarget t;
    std::ostringstream key;
    key << (gpus.size() == 1 ? "gpu:" : "gpus:");
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        key << (i ? "," : "") << gpus[i].value();
    }
    t.key = key.str();
    t.label = label;
    t.gpus = gpus;
    // The image stays on the target's GPUs (in bands, as the previews keep it) from the first
    // run on, so a run's time is the filtering on the GPUs, every GPU of the target at once,
    // not the PCIe copies around it; the result is downloaded after the timed part.
    values::DeviceSpeeds bySpeed;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        bySpeed.emplace_back(gpus[i], i < speeds.size() ? speeds[i] : 1.0);
    }
    gpu::RunOptions options;
    options.placement = values::Placement::Resident;
    options.deviceSlots = gpu::slotsFor(gpus, bySpeed);
    // A comparison measures these GPUs: no other device may stand in for them.
    options.fallback = values::Fallback::None;
    // Made at the first run (on the comparison's thread), then kept with the image on its GPUs.
    auto resident = std::make_shared<std::unique_ptr<gpu::Pipeline>>();
    t.run = [options, resident](const cv::Mat& src, const filters::FilterChain& chain) {
        if (!*resident) {
            *resident = std::make_unique<gpu::Pipeline>(options);
        }
        gpu::Pipeline& pipeline = **resident;
        values::RunReport report;
        TargetRun run;
        run.wallMs = pipeline.runInPlace(src, chain, &report);
        for (const auto& rec : report.records) {
            if (rec.phase != values::Phase::Kernel) {
                continue;
            }
            const auto [flops, bytes] =
                workOf(chain, cv::Size(rec.width, rec.height), src.type(), splitMethods(rec.label));
            run.kernels.push_back({rec.device, rec.label, rec.durationUs() / 1e3, flops, bytes});
        }
        run.report = std::move(report);
        // Under Fallback::None a GPU that fails makes this throw: the target's error.
        pipeline.run(src, chain, run.output);
        return run;
    };
    return t;
}

CompareTarget cpuTarget()
{
    CompareTarget t;
    t.key = values::deviceLabel(values::DeviceId::cpu(), nullptr, values::LabelForm::Key);
    t.label = values::deviceLabel(values::DeviceId::cpu());
    t.run = [](const cv::Mat& src, const filters::FilterChain& chain) {
        // The CPU slot of a pipeline, as every front end runs the CPU path.
        gpu::RunOptions options;
        options.deviceSlots = gpu::cpuSlots();
        options.fallback = values::Fallback::None;
        const auto start = Clock::now();
        TargetRun run;
        run.output = gpu::runStreamed(src, chain, options, &run.report);
        run.wallMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        return run;
    };
    return t;
}

std::vector<CompareTarget> defaultTargets(const values::DeviceSnapshot& snapshot,
                                          const std::vector<values::DeviceCalibration>& calibrations)
{
    std::vector<CompareTarget> targets;
    std::vector<values::DeviceId> all;
    for (const auto& d : snapshot.devices) {
        targets.push_back(gpuTarget({d.id}, values::describe(d.id) + " (" + d.name + ")"));
        all.push_back(d.id);
    }
    if (all.size() > 1) {
        std::vector<values::DeviceCalibration> chosen;
        for (const values::DeviceId id : all) {
            const auto at = static_cast<std::size_t>(id.value());
            chosen.push_back(at < calibrations.size() ? calibrations[at] : values::DeviceCalibration{});
        }
        targets.push_back(gpuTarget(all, std::to_string(all.size()) + " GPUs", values::relativeSpeeds(chosen)));
    }
    targets.push_back(cpuTarget());
    return targets;
}

}  // namespace tessera::app
