// SPDX-License-Identifier: Apache-2.0
#include "app/bench/bench_runner.h"

#include "filters/float_range.h"
#include "tessera/gpu/kernels.h"
#include "values/errors.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>

namespace tessera::app::bench {

namespace {

constexpr std::size_t kPitchAlign = 256;

std::size_t alignedPitch(std::size_t rowBytes)
{
    return (rowBytes + kPitchAlign - 1) / kPitchAlign * kPitchAlign;
}

/// Warm-up runs, then `runs` runs each between two events on `stream`; one wait at the end,
/// so the runs follow each other on the device without host gaps.
std::vector<double> timeOnStream(const std::function<void()>& enqueue, const gpu::Stream& stream, int runs, int warmup)
{
    for (int i = 0; i < warmup; ++i) {
        enqueue();
    }
    std::vector<gpu::Event> starts;
    std::vector<gpu::Event> stops;
    starts.reserve(static_cast<std::size_t>(runs));
    stops.reserve(static_cast<std::size_t>(runs));
    for (int i = 0; i < runs; ++i) {
        starts.emplace_back(stream.device());
        stops.emplace_back(stream.device());
    }
    for (int i = 0; i < runs; ++i) {
        starts[static_cast<std::size_t>(i)].record(stream);
        enqueue();
        stops[static_cast<std::size_t>(i)].record(stream);
    }
    stops.back().synchronize();
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(runs));
    for (int i = 0; i < runs; ++i) {
        ms.push_back(stops[static_cast<std::size_t>(i)].elapsedSince(starts[static_cast<std::size_t>(i)]));
    }
    return ms;
}

/// Device-resident input and output of one case on one device.
struct DeviceImages {
    gpu::RawDeviceBuffer srcBuf;
    gpu::RawDeviceBuffer dstBuf;
    gpu::DeviceImage src;
    gpu::DeviceImage dst;
};

DeviceImages uploadInput(const cv::Mat& input, values::DeviceId device, const gpu::Stream& stream)
{
    const gpu::PixelFormat format = gpu::pixelFormatFromCvType(input.type());
    const std::size_t rowBytes = static_cast<std::size_t>(input.cols) * format.bytesPerPixel();
    const std::size_t pitch = alignedPitch(rowBytes);
    const std::size_t bytes = pitch * static_cast<std::size_t>(input.rows);
    DeviceImages d{gpu::RawDeviceBuffer(bytes, device), gpu::RawDeviceBuffer(bytes, device), {}, {}};
    d.src = {d.srcBuf.data(), pitch, input.cols, input.rows, format};
    d.dst = {d.dstBuf.data(), pitch, input.cols, input.rows, format};
    gpu::copy2DAsync(d.src.data, pitch, input.data, input.step, rowBytes, static_cast<std::size_t>(input.rows), stream);
    stream.synchronize();
    return d;
}

/// Poisons the output, runs once, and compares the reference's rows with what came back.
void checkOutput(const std::function<void()>& enqueue, DeviceImages& img, const Reference& ref, int cvType,
                 const gpu::Stream& stream, Result& r)
{
    img.dstBuf.fillAsync(0xFF, stream);  // NaN for float outputs, 255 for 8-bit ones
    enqueue();
    const std::size_t rowBytes = static_cast<std::size_t>(img.dst.width) * img.dst.format.bytesPerPixel();
    r.check = ref.kind();
    r.maxAbsErr = 0.0;
    r.checkFinite = true;
    for (const Band& band : ref.bands()) {
        cv::Mat got(band.expected.rows, img.dst.width, cvType);
        const auto* from =
            static_cast<const std::uint8_t*>(img.dst.data) + static_cast<std::size_t>(band.y0) * img.dst.pitch;
        gpu::copy2DAsync(got.data, got.step, from, img.dst.pitch, rowBytes, static_cast<std::size_t>(got.rows), stream);
        stream.synchronize();
        const Comparison c = compareImages(got, band.expected);
        r.maxAbsErr = std::max(r.maxAbsErr, c.maxAbsErr);
        r.checkFinite = r.checkFinite && c.finite;
    }
    r.checkOk = r.checkFinite && r.maxAbsErr <= toleranceFor(CV_MAT_DEPTH(cvType));
}

Result baseResult(const BenchCase& c, const cv::Mat& input, const values::DeviceInfo& device, const std::string& method)
{
    Result r;
    r.caseName = c.name;
    r.format = c.format;
    r.kernel = c.kernel;
    r.method = method;
    r.width = input.cols;
    r.height = input.rows;
    r.device = device.id;
    r.deviceName = device.name;
    r.bytes = 2.0 * static_cast<double>(input.total() * input.elemSize());
    if (input.cols == 8192 && input.rows == 8192) {
        r.targetMs = c.targetMs;
    }
    return r;
}

bool selected(const Options& o, const std::string& m)
{
    return std::find(o.methods.begin(), o.methods.end(), m) != o.methods.end();
}

}  // namespace

Result measureCopyGpu(const values::DeviceInfo& device, const Options& options)
{
    const std::size_t rowBytes = static_cast<std::size_t>(options.width) * 4;
    const std::size_t rows = static_cast<std::size_t>(options.height);
    gpu::Stream stream(device.id);
    gpu::RawDeviceBuffer a(rowBytes * rows, device.id);
    gpu::RawDeviceBuffer b(rowBytes * rows, device.id);
    a.fillAsync(0x5A, stream);
    b.fillAsync(0, stream);
    Result r;
    r.caseName = "copy";
    r.format = "bytes";
    r.kernel = "none";
    r.method = "copy-kernel";
    r.chosen = "device-to-device copy kernel, 16-byte loads and stores";
    r.plan = "reads and writes a " + std::to_string(options.width) + "x" + std::to_string(options.height) +
             " image of 4-byte pixels";
    r.width = options.width;
    r.height = options.height;
    r.device = device.id;
    r.deviceName = device.name;
    r.bytes = 2.0 * static_cast<double>(rowBytes * rows);
    // A kernel, as the convolution kernels move their bytes: cudaMemcpy2DAsync reached 1.68 TB/s
    // on an H200 where this kernel reaches 4.02, so it understated the floor by 2.4x.
    r.ms = timeOnStream([&] { gpu::copyOnDeviceAsync(b.data(), a.data(), rowBytes * rows, stream); }, stream,
                        options.runs, std::max(options.warmup, 1));
    return r;
}

void runCaseGpu(const BenchCase& c, const cv::Mat& input, const ReferenceSource& reference,
                const values::DeviceInfo& device, const Options& options, std::optional<double> ceilingGBs,
                const ResultSink& sink)
{
    gpu::Stream stream(device.id);
    DeviceImages img = uploadInput(input, device.id, stream);
    std::optional<double> naiveMs;

    auto measure = [&](Result r, const std::function<void()>& enqueue) {
        try {
            if (options.check) {
                checkOutput(enqueue, img, reference(), input.type(), stream, r);
            }
            r.ms = timeOnStream(enqueue, stream, options.runs, options.warmup);
        } catch (const std::exception& e) {
            r.error = e.what();
            r.ms.clear();
        }
        r.ceilingGBs = ceilingGBs;
        r.naiveMs = r.method == "naive" ? std::nullopt : naiveMs;
        sink(r);
        return r;
    };

    if (selected(options, "naive")) {
        Result r = baseResult(c, input, device, "naive");
        r.chosen = "naive";
        r.plan = "one thread per output pixel, taps and pixels from global memory";
        try {
            const std::vector<float> taps = gpu::naiveTaps(c.spec);
            gpu::DeviceBuffer<float> deviceTaps(taps.size(), device.id);
            const std::size_t tapBytes = taps.size() * sizeof(float);
            gpu::copy2DAsync(deviceTaps.data(), tapBytes, taps.data(), tapBytes, tapBytes, 1, stream);
            stream.synchronize();
            const Result done = measure(r, [&] { gpu::runNaive(c.spec, img.src, img.dst, deviceTaps.data(), stream); });
            if (done.error.empty()) {
                naiveMs = done.median();
            }
        } catch (const std::exception& e) {
            r.error = e.what();
            sink(r);
        }
    }

    // Plans with makePlanFor (a method's or a variant's), runs and times; a plan or run that
    // throws gives a line with the reason. A named variant that cannot take the case (a
    // fixed-size kernel asked for 31x31) gives a skipped line, which does not fail the run.
    auto timePlanned = [&](Result r, auto makePlanFor, bool unsupportedIsSkip = false) {
        try {
            std::optional<gpu::Plan> planned;
            try {
                planned.emplace(makePlanFor());
            } catch (const values::NotSupported& e) {
                if (!unsupportedIsSkip) {
                    throw;
                }
                r.skipped = e.what();
                sink(r);
                return;
            }
            const gpu::Plan& plan = *planned;
            r.chosen = r.chosen.empty() ? values::toString(plan.method) : r.chosen;
            r.plan = plan.describe();
            r.workspaceBytes = plan.workspaceBytes;
            gpu::RawDeviceBuffer workspace(plan.workspaceBytes, device.id);
            measure(r, [&] { gpu::run(plan, img.src, img.dst, workspace.data(), stream); });
        } catch (const std::exception& e) {
            r.error = e.what();
            r.naiveMs = naiveMs;
            sink(r);
        }
    };
    // The methods plan as a resident image's runs do (gpu/exec/resident/resident_bands.cpp): with what one
    // scan of an f32 image tells of its values. A named variant plans knowing nothing, so its
    // line times the kernels with every check of the float rule on.
    const gpu::SourceValues values =
        input.depth() == CV_32F ? gpu::sourceValuesOf(filters::scanFloatRange(input)) : gpu::SourceValues{};
    for (const char* name : {"auto", "direct", "separable", "fft"}) {
        if (!selected(options, name)) {
            continue;
        }
        const values::Method method = values::parseMethod(name);
        if (method == values::Method::Separable && !c.spec.separable) {
            continue;  // does not apply to a full-rank kernel
        }
        timePlanned(baseResult(c, input, device, name), [&] {
            return gpu::makePlan(c.spec, img.src.format, input.cols, input.rows, device, method,
                                 values::TensorCores::Auto, values);
        });
    }
    for (const std::string& name : options.variants) {
        Result r = baseResult(c, input, device, "variant:" + name);
        r.chosen = name;
        timePlanned(
            std::move(r),
            [&] {
                return gpu::makePlanForVariant(c.spec, img.src.format, input.cols, input.rows, device,
                                               gpu::parseKernelVariant(name));
            },
            /*unsupportedIsSkip=*/true);
    }
}

}  // namespace tessera::app::bench
