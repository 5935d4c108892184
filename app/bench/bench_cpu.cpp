// SPDX-License-Identifier: Apache-2.0
#include "app/bench/bench_runner.h"

#include "values/device_label.h"
#include "filters/cpu_executor.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <chrono>
#include <exception>

namespace tessera::app::bench {

namespace {

constexpr int kSampledPixels = 1024;

template <typename F>
std::vector<double> timeWallClock(F&& body, int runs, int warmup)
{
    for (int i = 0; i < warmup; ++i) {
        body();
    }
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(runs));
    for (int i = 0; i < runs; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        body();
        const auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    return ms;
}

}  // namespace

Result measureCopyCpu(const Options& options)
{
    cv::Mat a(options.height, options.width, CV_8UC4, cv::Scalar::all(0x5A));
    cv::Mat b(options.height, options.width, CV_8UC4, cv::Scalar::all(0));
    Result r;
    r.caseName = "copy";
    r.format = "bytes";
    r.kernel = "none";
    r.method = "memcpy";
    r.chosen = "cv::Mat::copyTo host to host";
    r.plan = "reads and writes a " + std::to_string(options.width) + "x" + std::to_string(options.height) +
             " image of 4-byte pixels";
    r.width = options.width;
    r.height = options.height;
    r.deviceName = values::deviceLabel(values::DeviceId::cpu(), nullptr, values::LabelForm::Key);
    r.bytes = 2.0 * static_cast<double>(a.total() * a.elemSize());
    r.ms = timeWallClock([&] { a.copyTo(b); }, options.runs, 1);
    return r;
}

Result runCaseCpu(const BenchCase& c, const cv::Mat& input, const Options& options, std::optional<double> ceilingGBs)
{
    Result r;
    r.caseName = c.name;
    r.format = c.format;
    r.kernel = c.kernel;
    r.method = "opencv";
    r.chosen = c.spec.separable ? "sepFilter2D" : "filter2D";
    r.plan = "filters::applyCpu, " + std::to_string(cv::getNumThreads()) + " threads";
    r.width = input.cols;
    r.height = input.rows;
    r.deviceName = values::deviceLabel(values::DeviceId::cpu(), nullptr, values::LabelForm::Key);
    r.bytes = 2.0 * static_cast<double>(input.total() * input.elemSize());
    r.ceilingGBs = ceilingGBs;
    try {
        cv::Mat out;
        // One warm-up at most: at full size a single CPU run can take seconds.
        r.ms =
            timeWallClock([&] { out = filters::applyCpu(input, c.spec); }, options.runs, std::min(options.warmup, 1));
        if (options.check) {
            const Comparison cmp = compareSampled(input, out, c.spec, kSampledPixels, options.seed);
            r.check = "direct-double:" + std::to_string(kSampledPixels);
            r.maxAbsErr = cmp.maxAbsErr;
            r.checkFinite = cmp.finite;
            r.checkOk = cmp.ok;
        }
    } catch (const std::exception& e) {
        r.error = e.what();
        r.ms.clear();
    }
    return r;
}

}  // namespace tessera::app::bench
