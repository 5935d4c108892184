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

namespace {

/// One case on one GPU: the image uploaded once, the naive kernel timed first (the other lines
/// are compared with it), then each selected method and named variant.
class GpuCaseRun {
public:
    GpuCaseRun(const BenchCase& c, const cv::Mat& input, const ReferenceSource& reference,
               const values::DeviceInfo& device, const Options& options, std::optional<double> ceilingGBs,
               const ResultSink& sink)
        : c_(c), input_(input), reference_(reference), device_(device), options_(options), ceilingGBs_(ceilingGBs),
          sink_(sink), stream_(device.id), img_(uploadInput(input, device.id, stream_))
    {
    }

    void timeNaive()
    {
        Result r = baseResult(c_, input_, device_, "naive");
        r.chosen = "naive";
        r.plan = "one thread per output pixel, taps and pixels from global memory";
        try {
            const std::vector<float> taps = gpu::naiveTaps(c_.spec);
            gpu::DeviceBuffer<float> deviceTaps(taps.size(), device_.id);
            const std::size_t tapBytes = taps.size() * sizeof(float);
            gpu::copy2DAsync(deviceTaps.data(), tapBytes, taps.data(), tapBytes, tapBytes, 1, stream_);
            stream_.synchronize();
            const Result done =
                measure(r, [&] { gpu::runNaive(c_.spec, img_.src, img_.dst, deviceTaps.data(), stream_); });
            if (done.error.empty()) {
                naiveMs_ = done.median();
            }
        } catch (const std::exception& e) {
            r.error = e.what();
            sink_(r);
        }
    }

    void timeMethods()
    {
        // The methods plan as a resident image's runs do (gpu/exec/resident/resident_bands.cpp):
        // with what one scan of an f32 image tells of its values.
        const gpu::SourceValues values =
            input_.depth() == CV_32F ? gpu::sourceValuesOf(filters::scanFloatRange(input_)) : gpu::SourceValues{};
        for (const char* name : {"auto", "direct", "separable", "fft"}) {
            if (!selected(options_, name)) {
                continue;
            }
            const values::Method method = values::parseMethod(name);
            if (method == values::Method::Separable && !c_.spec.separable) {
                continue;  // does not apply to a full-rank kernel
            }
            timePlanned(baseResult(c_, input_, device_, name), [&] {
                return gpu::makePlan(c_.spec, img_.src.format, input_.cols, input_.rows, device_, method,
                                     values::TensorCores::Auto, values);
            });
        }
    }

    void timeVariants()
    {
        // A named variant plans knowing nothing of the values, so its line times the kernels with
        // every check of the float rule on.
        for (const std::string& name : options_.variants) {
            Result r = baseResult(c_, input_, device_, "variant:" + name);
            r.chosen = name;
            timePlanned(
                std::move(r),
                [&] {
                    return gpu::makePlanForVariant(c_.spec, img_.src.format, input_.cols, input_.rows, device_,
                                                   gpu::parseKernelVariant(name));
                },
                /*unsupportedIsSkip=*/true);
        }
    }

private:
    Result measure(Result r, const std::function<void()>& enqueue)
    {
        try {
            if (options_.check) {
                checkOutput(enqueue, img_, reference_(), input_.type(), stream_, r);
            }
            r.ms = timeOnStream(enqueue, stream_, options_.runs, options_.warmup);
        } catch (const std::exception& e) {
            r.error = e.what();
            r.ms.clear();
        }
        r.ceilingGBs = ceilingGBs_;
        r.naiveMs = r.method == "naive" ? std::nullopt : naiveMs_;
        sink_(r);
        return r;
    }

    // Plans with makePlanFor (a method's or a variant's), runs and times; a plan or run that
    // throws gives a line with the reason. A named variant that cannot take the case (a
    // fixed-size kernel asked for 31x31) gives a skipped line, which does not fail the run.
    template <typename MakePlan>
    void timePlanned(Result r, MakePlan makePlanFor, bool unsupportedIsSkip = false)
    {
        try {
            std::optional<gpu::Plan> planned;
            try {
                planned.emplace(makePlanFor());
            } catch (const values::NotSupported& e) {
                if (!unsupportedIsSkip) {
                    throw;
                }
                r.skipped = e.what();
                sink_(r);
                return;
            }
            const gpu::Plan& plan = *planned;
            r.chosen = r.chosen.empty() ? values::toString(plan.method) : r.chosen;
            r.plan = plan.describe();
            r.workspaceBytes = plan.workspaceBytes;
            gpu::RawDeviceBuffer workspace(plan.workspaceBytes, device_.id);
            measure(r, [&] { gpu::run(plan, img_.src, img_.dst, workspace.data(), stream_); });
        } catch (const std::exception& e) {
            r.error = e.what();
            r.naiveMs = naiveMs_;
            sink_(r);
        }
    }

    const BenchCase& c_;
    const cv::Mat& input_;
    const ReferenceSource& reference_;
    const values::DeviceInfo& device_;
    const Options& options_;
    std::optional<double> ceilingGBs_;
    const ResultSink& sink_;
    gpu::Stream stream_;
    DeviceImages img_;
    std::optional<double> naiveMs_;
};

}  // namespace

void runCaseGpu(const BenchCase& c, const cv::Mat& input, const ReferenceSource& reference,
                const values::DeviceInfo& device, const Options& options, std::optional<double> ceilingGBs,
                const ResultSink& sink)
{
    GpuCaseRun run(c, input, reference, device, options, ceilingGBs, sink);
    if (selected(options, "naive")) {
        run.timeNaive();
    }
    run.timeMethods();
    run.timeVariants();
}

}  // namespace tessera::app::bench
