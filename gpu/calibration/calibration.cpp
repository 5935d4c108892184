// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/calibration.h"

#include "filters/factories.h"
#include "gpu/calibration/calibration_kernels.cuh"
#include "gpu/runtime/cuda_check.cuh"
#include "tessera/gpu/engine.h"
#include "tessera/gpu/resources.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <sstream>
#include <vector>

namespace tessera::gpu {

namespace {

constexpr int kFilterSide = 2048;
constexpr int kFilterTaps = 15;
/// The sigma OpenCV would pick for 15 taps: 0.3 * ((15 - 1) / 2 - 1) + 0.8.
constexpr double kFilterSigma = 2.6;

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
}

/// Copy bandwidth: one untimed copy, then `repeats` back to back between two events, by a copy
/// kernel (the rate the convolution kernels can reach; cudaMemcpy's engine path is much slower
/// on an H200: 1.68 against 4.02 TB/s).
double measureCopy(DeviceId device, const Stream& stream, std::size_t bytes, int repeats)
{
    RawDeviceBuffer from(bytes, device);
    RawDeviceBuffer to(bytes, device);
    auto* s = static_cast<cudaStream_t>(stream.handle());
    TESSERA_CUDA_CHECK(cudaMemsetAsync(from.data(), 1, bytes, s));
    copyOnDeviceAsync(to.data(), from.data(), bytes, stream);
    Event start(device);
    Event stop(device);
    start.record(stream);
    for (int i = 0; i < repeats; ++i) {
        copyOnDeviceAsync(to.data(), from.data(), bytes, stream);
    }
    stop.record(stream);
    stop.synchronize();
    const double seconds = stop.elapsedSince(start) / 1e3;
    // A copy reads every byte once and writes it once.
    return seconds > 0.0 ? 2.0 * double(bytes) * repeats / seconds / 1e9 : 0.0;
}

/// FMA throughput with enough blocks to fill every SM several times over.
double measureFma(DeviceId device, const Stream& stream, int iterations, int repeats)
{
    int sms = 0;
    TESSERA_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device.value()));
    constexpr int threads = 256;
    const int blocks = std::max(sms, 1) * 16;
    RawDeviceBuffer out(sizeof(float) * std::size_t(blocks) * threads, device);
    auto* s = static_cast<cudaStream_t>(stream.handle());
    auto* data = static_cast<float*>(out.data());
    detail::launchFmaBurn(data, blocks, threads, iterations / 8, s);  // warm-up: clocks up, code loaded
    Event start(device);
    Event stop(device);
    start.record(stream);
    double fmas = 0.0;
    for (int i = 0; i < repeats; ++i) {
        fmas += detail::launchFmaBurn(data, blocks, threads, iterations, s);
    }
    stop.record(stream);
    stop.synchronize();
    const double seconds = stop.elapsedSince(start) / 1e3;
    return seconds > 0.0 ? 2.0 * fmas / seconds / 1e9 : 0.0;
}

/// The standard filter on a resident image, kernels only, median of `repeats`.
double measureFilterGpu(DeviceId device, int repeats)
{
    RunOptions options;
    options.placement = Placement::Resident;
    options.deviceSlots = {DeviceSlot{device, 0, 1.0}};
    Pipeline bands(options);
    const cv::Mat image = calibrationImage();
    const filters::FilterChain chain = calibrationChain();
    bands.runInPlace(image, chain);
    std::vector<double> ms;
    for (int i = 0; i < repeats; ++i) {
        ms.push_back(bands.runInPlace(image, chain));
    }
    return calibrationMegapixelsPerSecond(median(ms));
}

}  // namespace

cv::Mat calibrationImage()
{
    cv::Mat image(kFilterSide, kFilterSide, CV_8UC4);
    cv::RNG rng(20240611);
    rng.fill(image, cv::RNG::UNIFORM, 0, 256);
    return image;
}

filters::FilterChain calibrationChain()
{
    return filters::FilterChain{{filters::makeGaussian(kFilterSigma, kFilterTaps)}};
}

double calibrationMegapixelsPerSecond(double milliseconds)
{
    return milliseconds > 0.0 ? kFilterSide * double(kFilterSide) / (milliseconds * 1e3) : 0.0;
}

DeviceCalibration calibrateDevice(DeviceId device)
{
    const ScopedDevice current(device);
    const Stream stream(device);
    constexpr std::size_t copyBytes = std::size_t(256) << 20;
    constexpr int copyRepeats = 20;
    constexpr int fmaIterations = 8192;
    constexpr int fmaRepeats = 4;
    constexpr int filterRepeats = 5;
    DeviceCalibration c;
    c.copyGBs = measureCopy(device, stream, copyBytes, copyRepeats);
    c.fmaGflops = measureFma(device, stream, fmaIterations, fmaRepeats);
    c.filterMpixS = measureFilterGpu(device, filterRepeats);
    std::ostringstream method;
    method << "copy kernel (16-byte loads and stores) 256 MiB x " << copyRepeats << " (read + write); FP32 FMA "
           << detail::kFmaChains << " chains x " << fmaIterations << " per thread x " << fmaRepeats
           << "; RGBA8 2048x2048 Gaussian 15 resident, median of " << filterRepeats;
    c.method = method.str();
    return c;
}

}  // namespace tessera::gpu
