// SPDX-License-Identifier: Apache-2.0
#include "app/bench/bench_multi.h"

#include "app/bench/bench_cases.h"
#include "filters/cpu_executor.h"
#include "tessera/gpu/kernels.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>

namespace tessera::app::bench {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// 1, 2, 4 and every GPU, as far as there are that many.
std::vector<std::size_t> gpuCounts(std::size_t available)
{
    std::vector<std::size_t> counts;
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{4}, available}) {
        if (n <= available && std::find(counts.begin(), counts.end(), n) == counts.end()) {
            counts.push_back(n);
        }
    }
    return counts;
}

std::vector<values::DeviceSlot> slotsOf(const std::vector<values::DeviceInfo>& gpus, std::size_t n)
{
    std::vector<values::DeviceId> ids;
    for (std::size_t i = 0; i < n; ++i) {
        ids.push_back(gpus[i].id);
    }
    return gpu::slotsFor(ids);
}

Result baseResult(const std::string& name, const BenchCase& c, const std::vector<values::DeviceInfo>& gpus,
                  std::size_t n, const Options& options)
{
    Result r;
    r.caseName = name;
    r.format = c.format;
    r.kernel = c.kernel;
    r.method = "auto";
    r.width = options.width;
    r.height = options.height;
    r.device = gpus.front().id;
    for (std::size_t i = 0; i < n; ++i) {
        r.gpus.push_back(gpus[i].id);
    }
    r.deviceName = std::to_string(n) + " x " + gpus.front().name;
    r.bytes = 2.0 * static_cast<double>(options.width) * options.height * CV_ELEM_SIZE(c.cvType);
    return r;
}

// The one-GPU line is the reference of the lines with more GPUs.
void noteSpeedup(Result& r, std::size_t gpus, std::optional<double>& oneGpuMs)
{
    if (gpus == 1) {
        oneGpuMs = r.median();
    } else if (oneGpuMs) {
        r.speedup = *oneGpuMs / r.median();
    }
}

// A Mat over page-locked memory, kept alive by `keep`.
cv::Mat pinnedMat(int rows, int cols, int type, std::vector<gpu::RawPinnedBuffer>& keep)
{
    keep.emplace_back(static_cast<std::size_t>(rows) * cols * CV_ELEM_SIZE(type));
    return cv::Mat(rows, cols, type, keep.back().data());
}

void runResident(const BenchCase& c, const cv::Mat& image, const std::vector<values::DeviceInfo>& gpus,
                 const Options& options, const std::function<void(const Result&)>& sink)
{
    const filters::FilterChain chain{{c.spec}};
    std::optional<double> oneGpuMs;
    cv::Mat oneGpu;
    for (const std::size_t n : gpuCounts(gpus.size())) {
        Result r = baseResult("multi-resident-" + c.name, c, gpus, n, options);
        try {
            gpu::RunOptions resident;
            resident.placement = values::Placement::Resident;
            resident.deviceSlots = slotsOf(gpus, n);
            gpu::Pipeline bands(resident);
            if (options.check) {
                cv::Mat out;
                values::RunReport checked;
                bands.run(image, chain, out, &checked);
                if (!checked.fallback.empty()) {
                    throw std::runtime_error(checked.fallback);  // the bench times GPUs, never the CPU in their place
                }
                if (n == 1) {
                    oneGpu = out;
                } else if (!oneGpu.empty()) {
                    r.check = "max |difference| from the 1-GPU result";
                    r.maxAbsErr = cv::norm(out, oneGpu, cv::NORM_INF);
                    r.checkOk = r.maxAbsErr <= 1.0;
                }
            }
            values::RunReport report;
            for (int i = 0; i < std::max(options.warmup, 1); ++i) {
                bands.runInPlace(image, chain);
            }
            for (int i = 0; i < options.runs; ++i) {
                r.ms.push_back(bands.runInPlace(image, chain, &report));
            }
            r.chosen = report.records.empty() ? "" : report.records.front().label;
            // Where the wall time goes: each band's kernels (CUDA events) and how far apart the
            // bands started on the host clock.
            std::string kernels;
            double first = 1e300;
            double last = 0.0;
            for (const auto& rec : report.records) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%s%.3f", kernels.empty() ? "" : "/", rec.durationUs() / 1000.0);
                kernels += buf;
                first = std::min(first, rec.beginUs);
                last = std::max(last, rec.beginUs);
            }
            char spread[64];
            std::snprintf(spread, sizeof spread, "; band kernels %s ms; launch spread %.0f us", kernels.c_str(),
                          last - first);
            r.plan = std::to_string(n) + " resident band(s) of about " +
                     std::to_string(options.height / static_cast<int>(n)) +
                     " rows; host wall time from the first launch until every band is done" + spread;
            noteSpeedup(r, n, oneGpuMs);
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        sink(r);
    }
}

// A plain pinned copy of the same bytes over the same GPUs: each GPU uploads its share of the
// input while it downloads its share of the output, all GPUs at once.
std::vector<double> pinnedCopyMs(const cv::Mat& src, cv::Mat& dst, const std::vector<values::DeviceInfo>& gpus,
                                 std::size_t n, const Options& options)
{
    struct Share {
        std::unique_ptr<gpu::Stream> up;
        std::unique_ptr<gpu::Stream> down;
        gpu::RawDeviceBuffer in;
        gpu::RawDeviceBuffer out;
        int row0 = 0;
        int rows = 0;
    };
    std::vector<Share> shares(n);
    const std::size_t rowBytes = src.cols * src.elemSize();
    for (std::size_t i = 0; i < n; ++i) {
        Share& s = shares[i];
        s.row0 = static_cast<int>(src.rows * i / n);
        s.rows = static_cast<int>(src.rows * (i + 1) / n) - s.row0;
        s.up = std::make_unique<gpu::Stream>(gpus[i].id);
        s.down = std::make_unique<gpu::Stream>(gpus[i].id);
        s.in = gpu::RawDeviceBuffer(rowBytes * static_cast<std::size_t>(s.rows), gpus[i].id);
        s.out = gpu::RawDeviceBuffer(rowBytes * static_cast<std::size_t>(s.rows), gpus[i].id);
    }
    std::vector<double> ms;
    for (int run = 0; run < options.runs + std::max(options.warmup, 1); ++run) {
        const auto t0 = Clock::now();
        for (auto& s : shares) {
            gpu::copy2DAsync(s.in.data(), rowBytes, src.ptr(s.row0), src.step, rowBytes,
                             static_cast<std::size_t>(s.rows), *s.up);
            gpu::copy2DAsync(dst.ptr(s.row0), dst.step, s.out.data(), rowBytes, rowBytes,
                             static_cast<std::size_t>(s.rows), *s.down);
        }
        for (auto& s : shares) {
            s.up->synchronize();
            s.down->synchronize();
        }
        if (run >= std::max(options.warmup, 1)) {
            ms.push_back(msSince(t0));
        }
    }
    return ms;
}

void runHostToHost(const BenchCase& c, const cv::Mat& image, const std::vector<values::DeviceInfo>& gpus,
                   const Options& options, const std::function<void(const Result&)>& sink)
{
    const filters::FilterChain chain{{c.spec}};
    std::vector<gpu::RawPinnedBuffer> keep;
    cv::Mat src = pinnedMat(image.rows, image.cols, image.type(), keep);
    image.copyTo(src);
    cv::Mat dst = pinnedMat(image.rows, image.cols, gpu::chainOutputType(chain, image.type()), keep);
    const cv::Mat reference = options.check ? filters::applyCpu(image, chain) : cv::Mat();
    std::optional<double> oneGpuMs;
    for (const std::size_t n : gpuCounts(gpus.size())) {
        Result r = baseResult("multi-h2h-" + c.name, c, gpus, n, options);
        try {
            gpu::RunOptions o;
            o.deviceSlots = slotsOf(gpus, n);
            o.tilesPerSlot = 8;
            gpu::Pipeline executor(o);
            values::RunReport report;
            for (int i = 0; i < std::max(options.warmup, 1); ++i) {
                executor.run(src, chain, dst, &report);
            }
            if (options.check) {
                r.check = "max |difference| from the CPU path";
                r.maxAbsErr = cv::norm(dst, reference, cv::NORM_INF);
                r.checkOk = r.maxAbsErr <= 1.0;
            }
            for (int i = 0; i < options.runs; ++i) {
                const auto t0 = Clock::now();
                executor.run(src, chain, dst, &report);
                r.ms.push_back(msSince(t0));
            }
            r.chosen = report.methods.empty() ? "" : report.methods.front();
            r.plan = report.plan + "; pinned in and out, " + std::to_string(o.streamsPerGpu) + " streams per GPU";
            const auto copy = pinnedCopyMs(src, dst, gpus, n, options);
            Result tmp;
            tmp.ms = copy;
            r.baselineMs = tmp.median();
            noteSpeedup(r, n, oneGpuMs);
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        sink(r);
    }
}

}  // namespace

void runMulti(const std::vector<values::DeviceInfo>& gpus, const Options& options,
              const std::function<void(const Result&)>& sink)
{
    if (gpus.empty()) {
        return;
    }
    const auto sel = selectCases({"rgba8-custom31", "rgba8-custom3"}, options.seed);
    cv::Mat image(options.height, options.width, CV_8UC4);
    cv::RNG rng(options.seed);
    rng.fill(image, cv::RNG::UNIFORM, 0, 256);
    for (const auto& c : sel.cases) {
        runResident(c, image, gpus, options, sink);
    }
    for (const auto& c : sel.cases) {
        if (c.name == "rgba8-custom3") {
            runHostToHost(c, image, gpus, options, sink);
        }
    }
}

std::string formatMultiTable(const std::vector<Result>& results)
{
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "%-30s %4s %10s %9s %8s %11s %12s %8s\n", "multi case", "GPUs", "median ms",
                  "speed-up", "effic.", "pinned copy", "x pinned cp", "max err");
    out += line;
    out += std::string(100, '-') + "\n";
    for (const auto& r : results) {
        if (r.gpus.empty()) {
            continue;
        }
        if (!r.error.empty()) {
            std::snprintf(line, sizeof line, "%-30s %4zu error: %.60s\n", r.caseName.c_str(), r.gpus.size(),
                          r.error.c_str());
            out += line;
            continue;
        }
        const double med = r.median();
        char speed[16] = "-";
        char eff[16] = "-";
        if (r.speedup) {
            std::snprintf(speed, sizeof speed, "%.2fx", *r.speedup);
            std::snprintf(eff, sizeof eff, "%.0f%%", 100.0 * *r.speedup / static_cast<double>(r.gpus.size()));
        }
        char copy[16] = "-";
        char ratio[16] = "-";
        if (r.baselineMs) {
            std::snprintf(copy, sizeof copy, "%.4g", *r.baselineMs);
            std::snprintf(ratio, sizeof ratio, "%.3fx", med / *r.baselineMs);
        }
        char err[16] = "-";
        if (!r.check.empty()) {
            std::snprintf(err, sizeof err, "%.2g%s", r.maxAbsErr, r.checkOk ? "" : "!");
        }
        std::snprintf(line, sizeof line, "%-30s %4zu %10.4g %9s %8s %11s %12s %8s\n", r.caseName.c_str(), r.gpus.size(),
                      med, speed, eff, copy, ratio, err);
        out += line;
    }
    return out;
}

}  // namespace tessera::app::bench
