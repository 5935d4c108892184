// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/engine.h"
#include "gpu/runtime/cufft_loader.h"

#include "values/errors.h"
#include "tessera/gpu/values.h"
#include "filters/cpu_executor.h"
#include "tessera/gpu/pixel_format.h"
#include "gpu/exec/resident/resident_bands.h"
#include "gpu/exec/streamed/streamed_executor.h"
#include "gpu/exec/streamed/tile_worker.h"
#include "values/log.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace tessera::gpu {

int chainOutputType(const filters::FilterChain& chain, int cvType)
{
    int depth = CV_MAT_DEPTH(cvType);
    for (const auto& spec : chain.steps) {
        depth = filters::resolveOutputDepth(spec.depth, depth);
    }
    return CV_MAKETYPE(depth, CV_MAT_CN(cvType));
}

std::vector<DeviceSlot> slotsFor(const std::vector<DeviceId>& gpus, const DeviceSpeeds& speeds, std::size_t memoryLimit)
{
    std::vector<DeviceSlot> slots;
    for (const DeviceId id : gpus) {
        const auto at = std::find_if(speeds.begin(), speeds.end(), [&](const auto& s) { return s.first == id; });
        const double speed = at != speeds.end() && at->second > 0.0 ? at->second : 1.0;
        slots.push_back({id, memoryLimit, speed});
    }
    return slots;
}

namespace {

void checkOptions(const RunOptions& options)
{
    if (options.deviceSlots.empty()) {
        throw InvalidInput("a pipeline needs at least one device slot");
    }
    if (options.streamsPerGpu < 1) {
        throw InvalidInput("a pipeline needs at least one stream per GPU");
    }
    if (options.placement == Placement::Resident && options.deviceSlots.size() > 1) {
        for (const auto& s : options.deviceSlots) {
            if (s.isCpu()) {
                throw InvalidInput("resident placement keeps the image in GPU bands or in host memory for one "
                                   "CPU slot alone; a CPU slot beside others has no place in it");
            }
        }
    }
    // A forced method no GPU here can run is the caller's to hear about, not a device failure
    // for the CPU path to hide.
    const bool anyGpu = std::any_of(options.deviceSlots.begin(), options.deviceSlots.end(),
                                    [](const DeviceSlot& s) { return !s.isCpu(); });
    if (anyGpu) {
        requireMethod(options.method);
    }
}

/// What a run may be asked; checked before any device is touched, so that bad input throws
/// instead of being taken for a device failure.
cv::Rect checkInput(const cv::Mat& image, const cv::Mat& dst, const cv::Rect& region, Placement placement)
{
    if (image.empty()) {
        throw InvalidInput("the image is empty");
    }
    pixelFormatFromCvType(image.type());  // throws for depths and channel counts Tessera does not filter
    if (!dst.empty() && dst.data == image.data) {
        throw InvalidInput("the result cannot overwrite its input");
    }
    const cv::Rect whole(0, 0, image.cols, image.rows);
    if (region.empty()) {
        return whole;
    }
    if (placement == Placement::Streamed) {
        throw InvalidInput("a streamed run computes the whole image; a region needs the resident placement");
    }
    const cv::Rect inside = region & whole;
    if (inside.empty()) {
        throw InvalidInput("the requested region lies outside the image");
    }
    return inside;
}

std::string slotNames(const std::vector<DeviceSlot>& slots)
{
    std::string text;
    for (const auto& s : slots) {
        text += (text.empty() ? "" : ", ") + s.name();
    }
    return text;
}

bool cpuOnly(const RunOptions& options)
{
    return options.deviceSlots.size() == 1 && options.deviceSlots.front().isCpu();
}

/// The resident placement's CPU path, for a CPU slot and for a fallback alike: `inside` of the
/// chain's result, one Host record labelled `label`, one tile.
void runResidentOnCpu(const cv::Mat& src, const filters::FilterChain& chain, const cv::Rect& inside, cv::Mat& dst,
                      RunReport& report, const char* label)
{
    const auto t0 = std::chrono::steady_clock::now();
    computeRegionOnCpu(src, chain, inside, dst);
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    report.records = {TimingRecord{DeviceId::cpu(), 0, 0, Phase::Host, label, 0.0, us,
                                   static_cast<std::uint64_t>(dst.total()) * (src.elemSize() + dst.elemSize()),
                                   inside.x, inside.y, inside.width, inside.height}};
    Tile tile;
    tile.out = {inside.x, inside.y, inside.width, inside.height};
    tile.in = tile.out;
    report.tiles = {tile};
    report.computed = {true};
    report.wallMs = us / 1000.0;
}

std::vector<DeviceId> devicesOf(const std::vector<DeviceSlot>& slots)
{
    std::vector<DeviceId> ids;
    for (const auto& s : slots) {
        if (std::find(ids.begin(), ids.end(), s.gpu) == ids.end()) {
            ids.push_back(s.gpu);
        }
    }
    return ids;
}

/// The plan category's lines of a finished run: where it ran, its tiles, each step's method.
void logPlan(const RunOptions& options, const cv::Mat& image, const filters::FilterChain& chain,
             const RunReport& report)
{
    if (!values::logEnabled(values::LogCategory::Plan) || chain.steps.empty()) {
        return;
    }
    values::logLine(values::LogCategory::Plan,
                    std::string(options.placement == Placement::Streamed ? "streamed" : "resident") + " run of " +
                        std::to_string(image.cols) + "x" + std::to_string(image.rows) + " on " +
                        slotNames(options.deviceSlots) + (report.plan.empty() ? "" : ": " + report.plan));
    for (std::size_t i = 0; i < chain.steps.size(); ++i) {
        const filters::FilterSpec& spec = chain.steps[i];
        std::string how;
        if (i < report.methods.size()) {
            how = report.methods[i];
        } else {
            // The CPU path's choice (filters/cpu_executor.cpp): the separable form when the spec has one.
            how = std::to_string(spec.kernel.width) + "x" + std::to_string(spec.kernel.height) + " on the CPU path, " +
                  (spec.separable ? "separable (OpenCV sepFilter2D)" : "direct (OpenCV filter2D)");
        }
        values::logLine(values::LogCategory::Plan, "step " + std::to_string(i + 1) + ": " + how);
    }
}

/// The fallback category's line for an event of the resident placement.
void logFallback(const std::string& event)
{
    values::logIf(values::LogCategory::Fallback, [&] { return event; });
}

}  // namespace

bool spreadOverAllGpus(std::size_t pixels, std::size_t gpuCount)
{
    // Below this size one image per GPU keeps every GPU busy with less cutting; above it one
    // image alone would hold a GPU for long while the others wait at the end of the batch.
    return gpuCount > 1 && pixels >= kSpreadPixels;
}

std::vector<DeviceSlot> cpuSlots()
{
    return {DeviceSlot{DeviceId::cpu(), 0, 1.0}};
}

struct Pipeline::State {
    RunOptions options;
    std::unique_ptr<StreamedExecutor> streamed;
    std::unique_ptr<ResidentBands> resident;
    cv::Mat image;           // what `resident` holds
    FallbackRecord failure;  // resident: why the GPUs are no longer used, until the options change

    bool holds(const cv::Mat& m) const
    {
        return resident && image.data == m.data && image.size() == m.size() && image.type() == m.type() &&
               image.step == m.step;
    }

    /// The text of the resident failure, as fallback and events have always said it.
    std::string failureText() const { return slotNames(options.deviceSlots) + " failed (" + failure.reason + ")"; }

    /// The one fallback rule of the resident placement under Fallback::Cpu: the CPU path
    /// computes the result, the report says why, and later runs stay on the CPU path.
    void fallBack(const cv::Mat& src, const filters::FilterChain& chain, const cv::Rect& inside, cv::Mat& dst,
                  RunReport& report)
    {
        runResidentOnCpu(src, chain, inside, dst, report, "cpu fallback");
        report.fallback = failureText();
        report.fellBack = failure;
    }
};

void requireMethod(Method method)
{
    if (method == Method::Fft) {
        detail::cufftApi();
    }
}

Pipeline::Pipeline(RunOptions options) : state_(std::make_unique<State>())
{
    setOptions(std::move(options));
}

Pipeline::~Pipeline() = default;

const RunOptions& Pipeline::options() const
{
    return state_->options;
}

void Pipeline::setOptions(RunOptions options)
{
    checkOptions(options);
    auto& s = *state_;
    const bool sameResident = s.options.placement == Placement::Resident && options.placement == Placement::Resident &&
                              s.options.deviceSlots == options.deviceSlots && s.options.haloRows == options.haloRows;
    if (!sameResident) {
        s.resident.reset();
        s.image.release();
    }
    s.failure = FallbackRecord{};
    if (options.placement == Placement::Streamed) {
        if (s.streamed) {
            s.streamed->setOptions(options);
        } else {
            s.streamed = std::make_unique<StreamedExecutor>(options);
        }
    } else {
        s.streamed.reset();
    }
    s.options = std::move(options);
}

void Pipeline::forgetImage()
{
    state_->resident.reset();
    state_->image.release();
}

std::vector<Tile> Pipeline::bands() const
{
    return state_->resident ? state_->resident->bands() : std::vector<Tile>{};
}

bool Pipeline::run(const cv::Mat& image, const filters::FilterChain& chain, cv::Mat& dst, RunReport* report,
                   const cv::Rect& region)
{
    return run(image, chain, dst, RunControl{}, report, region);
}

bool Pipeline::run(const cv::Mat& image, const filters::FilterChain& chain, cv::Mat& dst, const RunControl& control,
                   RunReport* report, const cv::Rect& region)
{
    auto& s = *state_;
    const cv::Rect inside = checkInput(image, dst, region, s.options.placement);
    RunReport local;
    local.placement = s.options.placement;
    local.policy = s.options.fallback;
    bool done = true;
    if (s.options.placement == Placement::Streamed) {
        done = s.streamed->run(image, dst, chain, control, local);
    } else if (chain.steps.empty()) {
        image(inside).copyTo(dst);
    } else if (cpuOnly(s.options)) {
        runResidentOnCpu(image, chain, inside, dst, local, "cpu");
    } else {
        if (s.failure.happened()) {
            local.events.push_back("GPUs not used since an earlier failure: " + s.failureText());
            logFallback(local.events.back());
        } else {
            try {
                if (!s.holds(image)) {
                    s.resident.reset();  // free the old copy before the new one is made
                    s.resident = std::make_unique<ResidentBands>(image, s.options.deviceSlots, s.options.haloRows);
                    s.image = image;
                }
                dst = s.resident->apply(chain, inside, s.options.method, s.options.tensorCores, &local, control.reduce);
            } catch (const std::exception& e) {
                s.resident.reset();
                s.image.release();
                FallbackRecord failed;
                failed.from = devicesOf(s.options.deviceSlots);
                failed.reason = e.what();
                local = RunReport{};
                local.placement = Placement::Resident;
                local.policy = s.options.fallback;
                // Bands cannot move to other GPUs: short of the CPU path there is no stand-in.
                const FallbackStep step = decideFallback(s.options.fallback, true, false, 1);
                if (step.action == FallbackStep::Action::Refuse) {
                    local.fellBack = failed;
                    const std::string text =
                        slotNames(s.options.deviceSlots) + " failed (" + failed.reason + "); " + step.why;
                    local.events.push_back(text);
                    logFallback(text);
                    throw DeviceFailed(text, std::move(local));
                }
                failed.to = {DeviceId::cpu()};
                failed.tiles = 1;
                s.failure = std::move(failed);
                local.events.push_back(s.failureText() + "; the CPU path computed the result");
                logFallback(local.events.back());
            }
        }
        if (s.failure.happened()) {
            s.fallBack(image, chain, inside, dst, local);
        }
    }
    logPlan(s.options, image, chain, local);
    if (report != nullptr) {
        *report = std::move(local);
    }
    return done;
}

double Pipeline::runInPlace(const cv::Mat& image, const filters::FilterChain& chain, RunReport* report)
{
    auto& s = *state_;
    if (s.options.placement != Placement::Resident || cpuOnly(s.options)) {
        throw InvalidInput("runInPlace keeps results on the GPUs: it needs the resident placement on GPUs");
    }
    checkInput(image, cv::Mat(), {}, Placement::Resident);
    if (!s.holds(image)) {
        s.resident.reset();
        s.resident = std::make_unique<ResidentBands>(image, s.options.deviceSlots, s.options.haloRows);
        s.image = image;
    }
    return s.resident->runInPlace(chain, s.options.method, s.options.tensorCores, report);
}

cv::Mat runStreamed(const cv::Mat& src, const filters::FilterChain& chain, RunOptions options, RunReport* report)
{
    options.placement = Placement::Streamed;
    Pipeline pipeline(std::move(options));
    cv::Mat dst;
    if (!pipeline.run(src, chain, dst, report)) {
        return {};
    }
    return dst;
}

}  // namespace tessera::gpu
