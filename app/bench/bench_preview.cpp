// SPDX-License-Identifier: Apache-2.0
#include "app/bench/bench_preview.h"

#include "app/engine/engine.h"
#include "app/engine/reduced_preview.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace tessera::app::bench {

namespace {

constexpr int kViewWidth = 1920;
constexpr int kViewHeight = 1080;
constexpr int kGaussianSize = 15;
constexpr double kTargetMs = 16.0;
constexpr int kTimeoutMs = 60000;

/// Requests a preview and waits for it on this thread's event loop (error set on timeout).
PreviewResult previewAndWait(Engine& engine, const filters::FilterChain& chain, const values::Rect& region,
                             int reduce = 1)
{
    PreviewResult got;
    bool done = false;
    QEventLoop loop;
    quint64 id = 0;
    const auto connection = QObject::connect(&engine, &Engine::previewReady, &loop, [&](const PreviewResult& r) {
        if (r.id == id) {
            got = r;
            done = true;
            loop.quit();
        }
    });
    QTimer::singleShot(kTimeoutMs, &loop, &QEventLoop::quit);
    id = engine.requestPreview(chain, region, reduce);
    loop.exec();
    QObject::disconnect(connection);
    if (!done) {
        got.error = QStringLiteral("no preview within %1 s").arg(kTimeoutMs / 1000);
    }
    return got;
}

filters::FilterChain gaussianStep(int run)
{
    const double sigma = 1.0 + 0.25 * (run % 13);
    return filters::FilterChain{{filters::makeGaussian(sigma, kGaussianSize)}};
}

/// The rest of the warm-up runs (the first preview was made), then the timed runs, each of
/// chainOf(run) over region at reduce, request to result: their times go to r.ms. Returns the
/// last result; on a failed run, sets r.error and returns it.
template <typename ChainOf>
PreviewResult timedSweep(Engine& engine, const ChainOf& chainOf, const values::Rect& region, int reduce,
                         const Options& options, Result& r)
{
    for (int i = 1; i < options.warmup; ++i) {
        previewAndWait(engine, chainOf(i), region, reduce);
    }
    PreviewResult last;
    for (int i = 0; i < options.runs; ++i) {
        const auto chain = chainOf(options.warmup + i);
        const auto t0 = std::chrono::steady_clock::now();
        last = previewAndWait(engine, chain, region, reduce);
        const auto t1 = std::chrono::steady_clock::now();
        if (!last.error.isEmpty()) {
            r.error = last.error.toStdString();
            return last;
        }
        r.ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    return last;
}

/// Largest |a - b| over all values (both 8-bit, same size).
double maxDifference(const cv::Mat& a, const cv::Mat& b)
{
    if (a.size() != b.size() || a.type() != b.type()) {
        return 1e9;
    }
    return cv::norm(a, b, cv::NORM_INF);
}

}  // namespace

Result runPreview(bool gpu, values::DeviceId device, const std::string& deviceName, const Options& options)
{
    Result r;
    r.caseName = "preview";
    r.format = "rgba8";
    r.kernel = "gaussian" + std::to_string(kGaussianSize) + " (sigma sweep)";
    r.method = "engine";
    r.width = options.width;
    r.height = options.height;
    r.device = gpu ? device : values::DeviceId::cpu();
    r.deviceName = deviceName;
    const values::Rect view =
        values::Rect{(options.width - kViewWidth) / 2, (options.height - kViewHeight) / 2, kViewWidth, kViewHeight}
            .intersected(values::imageRect(options.width, options.height));
    r.plan = "request to result of a " + std::to_string(view.width) + "x" + std::to_string(view.height) +
             " view of the image, display conversion included";
    r.bytes = static_cast<double>(view.width) * view.height * 4.0 * 2.0;
    if (options.width == 8192 && options.height == 8192) {
        r.targetMs = kTargetMs;
    }

    cv::Mat image(options.height, options.width, CV_8UC4);
    cv::RNG rng(options.seed);
    rng.fill(image, cv::RNG::UNIFORM, 0, 256);
    Engine engine(gpu);
    engine.setImage(image);
    // The first request makes the image resident (an upload the user pays once per image).
    const PreviewResult first = previewAndWait(engine, gaussianStep(0), view);
    if (!first.error.isEmpty()) {
        r.error = first.error.toStdString();
        return r;
    }
    r.chosen = (first.device + (first.methods.isEmpty() ? QString() : " " + first.methods)).toStdString();
    const cv::Rect region(view.x, view.y, view.width, view.height);
    const PreviewResult last = timedSweep(engine, gaussianStep, view, 1, options, r);
    if (!r.error.empty()) {
        return r;
    }
    if (options.check) {
        const double a = maxDifference(first.data, filters::applyCpuRegion(image, gaussianStep(0), region));
        const double b = maxDifference(
            last.data, filters::applyCpuRegion(image, gaussianStep(options.warmup + options.runs - 1), region));
        r.check = "first and last preview against the CPU path on the view";
        r.maxAbsErr = std::max(a, b);
        r.checkOk = r.maxAbsErr <= 1.0;
    }
    return r;
}

namespace {

constexpr int kPhotoWidth = 6000;
constexpr int kPhotoHeight = 4000;
constexpr int kFitReduce = 4;  // a 1600 x 1000 view shows the photo at 1/4
constexpr double kFitCpuTargetMs = 250.0;
constexpr double kFitGpuTargetMs = 16.0;

/// Smooth regions with edges and fine texture, over the whole 8-bit range: what a photo offers
/// a filter, made quickly (noise blurred at a small size and scaled up, then detail added).
cv::Mat photoLike(unsigned seed)
{
    cv::RNG rng(seed);
    cv::Mat coarse(kPhotoHeight / 16, kPhotoWidth / 16, CV_8UC3);
    rng.fill(coarse, cv::RNG::UNIFORM, 0, 256);
    cv::GaussianBlur(coarse, coarse, cv::Size(0, 0), 2.0);
    cv::Mat image;
    cv::resize(coarse, image, cv::Size(kPhotoWidth, kPhotoHeight), 0, 0, cv::INTER_CUBIC);
    cv::Mat detail(image.size(), CV_8UC3);
    rng.fill(detail, cv::RNG::NORMAL, 0, 12);
    cv::add(image, detail, image);
    for (int i = 0; i < 40; ++i) {
        const cv::Point a(rng.uniform(0, kPhotoWidth), rng.uniform(0, kPhotoHeight));
        cv::rectangle(image, cv::Rect(a, cv::Size(rng.uniform(50, 600), rng.uniform(50, 600))),
                      cv::Scalar(rng.uniform(0, 256), rng.uniform(0, 256), rng.uniform(0, 256)), cv::FILLED);
    }
    return image;
}

filters::FilterChain fitStep(const std::string& filter, int run)
{
    if (filter == "sharpen") {
        return filters::FilterChain{{filters::makeSharpen(0.5 + 0.25 * (run % 9))}};
    }
    return filters::FilterChain{{filters::makeGaussian(1.0 + 0.25 * (run % 13), kGaussianSize)}};
}

}  // namespace

Result runFitPreview(bool gpu, values::DeviceId device, const std::string& deviceName, const Options& options,
                     const std::string& filter)
{
    Result r;
    r.caseName = "fit-preview";
    r.format = "rgb8";
    r.kernel = filter == "sharpen" ? std::string("sharpen3 (amount sweep)")
                                   : "gaussian" + std::to_string(kGaussianSize) + " (sigma sweep)";
    r.method = "engine";
    r.width = kPhotoWidth;
    r.height = kPhotoHeight;
    r.device = gpu ? device : values::DeviceId::cpu();
    r.deviceName = deviceName;
    r.plan = "request to result of the whole photo at fit zoom 1/" + std::to_string(kFitReduce) + " (" +
             std::to_string(kPhotoWidth / kFitReduce) + "x" + std::to_string(kPhotoHeight / kFitReduce) +
             " block means), display conversion included";
    r.bytes = static_cast<double>(kPhotoWidth) * kPhotoHeight * 3.0;
    r.targetMs = gpu ? kFitGpuTargetMs : kFitCpuTargetMs;

    const cv::Mat image = photoLike(options.seed);
    Engine engine(gpu);
    engine.setImage(image);
    const values::Rect whole = values::imageRect(kPhotoWidth, kPhotoHeight);
    const PreviewResult first = previewAndWait(engine, fitStep(filter, 0), whole, kFitReduce);
    if (!first.error.isEmpty()) {
        r.error = first.error.toStdString();
        return r;
    }
    r.chosen = (first.device + (first.methods.isEmpty() ? QString() : " " + first.methods)).toStdString();
    const PreviewResult last = timedSweep(
        engine, [&filter](int run) { return fitStep(filter, run); }, whole, kFitReduce, options, r);
    if (!r.error.empty()) {
        return r;
    }
    if (options.check) {
        const auto reference = [&](int run) {
            return reduceByBlocks(filters::applyCpu(image, fitStep(filter, run)), kFitReduce);
        };
        const double a = maxDifference(first.data, reference(0));
        const double b = maxDifference(last.data, reference(options.warmup + options.runs - 1));
        r.check = "first and last preview against the full-resolution CPU result reduced in 4x4 block means";
        r.maxAbsErr = std::max(a, b);
        r.checkOk = r.maxAbsErr <= 1.0;
    }
    return r;
}

}  // namespace tessera::app::bench
