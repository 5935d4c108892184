// SPDX-License-Identifier: Apache-2.0
#include "app/apply/apply_run.h"

#include "app/io/trace_export.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/engine.h"
#include "values/device_selection.h"
#include "values/log.h"

#include <chrono>
#include <ostream>
#include <stdexcept>
#include <utility>

namespace tessera::app {

ApplyRun::ApplyRun(ApplyRequest request) : request_(std::move(request))
{
    gpus_ = values::resolve(values::parseDeviceSelection(request_.device, values::kDeviceOption),
                            gpu::enumerateDevices(), note_, values::kDeviceOption);
    values::logIf(values::LogCategory::Device, [&] {
        return "--device " + request_.device + ": " +
               (gpus_.empty() ? std::string("the CPU path") : values::toString(values::selectionOf(gpus_))) +
               (note_.empty() ? "" : " (" + note_ + ")");
    });
    if (!gpus_.empty()) {
        gpu::requireMethod(request_.method);  // said here, before the file is read, not per tile
    }
}

ApplyResult ApplyRun::run()
{
    using Clock = std::chrono::steady_clock;
    const auto ms = [](Clock::time_point a, Clock::time_point b) {
        return std::chrono::duration<double, std::milli>(b - a).count();
    };
    ApplyResult result;
    result.gpus = gpus_;
    result.note = note_;
    const auto t0 = Clock::now();
    const bool fromStream = request_.input == "-";
    if (!fromStream && request_.output != "-") {
        refuseSameFile(request_.input, request_.output);
    }
    if (fromStream && request_.standardInput == nullptr) {
        throw ImageError(kStandardInputName, "no standard input to read");
    }
    const cv::Mat src = fromStream ? readImage(*request_.standardInput, kStandardInputName, {}, &result.metadata)
                                   : readImage(request_.input, {}, &result.metadata);
    result.size = src.size();
    result.typeIn = src.type();
    const auto t1 = Clock::now();

    // One GPU or several, or the CPU slot when there is none or the CPU is asked for: the same
    // tiled run.
    gpu::RunOptions options;
    options.deviceSlots = gpus_.empty() ? gpu::cpuSlots() : gpu::slotsFor(gpus_, {}, request_.gpuMemoryLimit);
    options.method = request_.method;
    options.tileSize = request_.tile;
    cv::Mat dst;
    try {
        dst = gpu::runStreamed(src, request_.chain, options, &result.report);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(request_.input + ": " + e.what());
    }
    if (!gpus_.empty()) {
        result.ranOn = values::toString(values::selectionOf(gpus_));
        // What fell back is the pipeline's to say; the events tell the rest.
        result.note = result.report.fellBack.describe();
        for (const std::string& e : result.report.events) {
            result.note += (result.note.empty() ? "" : "; ") + e;
        }
    }
    const auto t2 = Clock::now();
    writeOutputs(dst, result);
    const auto t3 = Clock::now();
    result.readMs = ms(t0, t1);
    result.runMs = ms(t1, t2);
    result.writeMs = ms(t2, t3);
    return result;
}

ApplyResult ApplyRun::write(const cv::Mat& source, const cv::Mat& result, const ImageMetadata& metadata,
                            const values::RunReport& report)
{
    const auto t0 = std::chrono::steady_clock::now();
    ApplyResult out;
    out.gpus = gpus_;
    out.note = note_;
    out.size = source.size();
    out.typeIn = source.type();
    out.metadata = metadata;
    out.report = report;
    if (!request_.input.empty() && request_.input != "-" && request_.output != "-") {
        refuseSameFile(request_.input, request_.output);
    }
    writeOutputs(result, out);
    out.writeMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

void ApplyRun::writeOutputs(const cv::Mat& dst, ApplyResult& result) const
{
    result.typeOut = dst.type();
    // What the output holds is what its writer put there, not what was offered.
    const ImageMetadata* metadata = request_.stripMetadata ? nullptr : &result.metadata;
    if (request_.output == "-") {
        if (request_.standardOutput == nullptr) {
            throw ImageError(kStandardOutputName, "no standard output to write");
        }
        const std::vector<std::uint8_t> bytes =
            encodeImage(kStandardOutputName, dst, request_.format, metadata, request_.encode, result.kept);
        request_.standardOutput->write(reinterpret_cast<const char*>(bytes.data()),
                                       static_cast<std::streamsize>(bytes.size()));
        request_.standardOutput->flush();
        if (!*request_.standardOutput) {
            throw ImageError(kStandardOutputName, "cannot write the image (a closed pipe or a full disk)");
        }
        values::logIf(values::LogCategory::Io, [&] {
            return "wrote " + std::string(kStandardOutputName) + " (" + std::to_string(bytes.size()) + " bytes)";
        });
    } else {
        result.kept = writeImage(request_.output, dst, metadata, request_.encode, request_.format);
    }
    if (!request_.trace.empty()) {
        writeTrace(request_.trace, TraceFormat::ChromeTrace, result.report.records,
                   gpus_.empty() ? values::DeviceSnapshot{} : gpu::enumerateDevices());
    }
}

}  // namespace tessera::app
