// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/calibration.h"

#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "gpu/calibration/calibration_kernels.cuh"
#include "gpu/runtime/cuda_check.cuh"
#include "tessera/gpu/engine.h"
#include "tessera/gpu/resources.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace tessera::gpu {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kFilterSide = 2048;
constexpr int kFilterTaps = 15;
/// The sigma OpenCV would pick for 15 taps: 0.3 * ((15 - 1) / 2 - 1) + 0.8.
constexpr double kFilterSigma = 2.6;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The standard image: random RGBA8, the same every time.
cv::Mat standardImage()
{
    cv::Mat image(kFilterSide, kFilterSide, CV_8UC4);
    cv::RNG rng(20240611);
    rng.fill(image, cv::RNG::UNIFORM, 0, 256);
    return image;
}

filters::FilterChain standardChain()
{
    return filters::FilterChain{{filters::makeGaussian(kFilterSigma, kFilterTaps)}};
}

double megapixelsPerSecond(double milliseconds)
{
    return milliseconds > 0.0 ? kFilterSide * double(kFilterSide) / (milliseconds * 1e3) : 0.0;
}

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
    const cv::Mat image = standardImage();
    const filters::FilterChain chain = standardChain();
    bands.runInPlace(image, chain);
    std::vector<double> ms;
    for (int i = 0; i < repeats; ++i) {
        ms.push_back(bands.runInPlace(image, chain));
    }
    return megapixelsPerSecond(median(ms));
}

/// Multiply-adds per second of one thread: eight independent chains, which the compiler may
/// keep in vector registers, as it may in the filters.
double cpuFmaThread(int iterations)
{
    constexpr int chains = 8;
    volatile float seed = 1e-3f;
    float v[chains];
    for (int j = 0; j < chains; ++j) {
        v[j] = seed * float(j + 1);
    }
    const float m = seed + 0.998f;
    const float k = seed;
    const auto start = Clock::now();
    for (int i = 0; i < iterations; ++i) {
        for (int j = 0; j < chains; ++j) {
            v[j] = v[j] * m + k;
        }
    }
    const double seconds = secondsSince(start);
    float sum = 0.0f;
    for (float x : v) {
        sum += x;
    }
    seed = sum;  // keeps the loop
    return seconds > 0.0 ? 2.0 * chains * double(iterations) / seconds / 1e9 : 0.0;
}

/// Every hardware thread runs cpuFmaThread at once; the sum is the CPU's roof for the roofline
/// (the filter path uses all threads too).
double measureCpuFma()
{
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<double> rates(threads, 0.0);
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t) {
        workers.emplace_back([&rates, t] { rates[t] = cpuFmaThread(2'000'000); });
    }
    for (auto& w : workers) {
        w.join();
    }
    double total = 0.0;
    for (double r : rates) {
        total += r;
    }
    return total;
}

}  // namespace

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

DeviceCalibration calibrateCpu()
{
    DeviceCalibration c;
    constexpr std::size_t bytes = std::size_t(64) << 20;
    constexpr int copyRepeats = 4;
    std::vector<unsigned char> from(bytes, 1);
    std::vector<unsigned char> to(bytes, 0);
    std::memcpy(to.data(), from.data(), bytes);  // first touch of every page, untimed
    auto start = Clock::now();
    for (int i = 0; i < copyRepeats; ++i) {
        from[static_cast<std::size_t>(i)] = static_cast<unsigned char>(i);  // not the same copy twice
        std::memcpy(to.data(), from.data(), bytes);
    }
    const double copySeconds = secondsSince(start);
    c.copyGBs = copySeconds > 0.0 ? 2.0 * double(bytes) * copyRepeats / copySeconds / 1e9 : 0.0;

    c.fmaGflops = measureCpuFma();

    const cv::Mat image = standardImage();
    const filters::FilterChain chain = standardChain();
    std::vector<double> ms;
    for (int i = 0; i < 3; ++i) {
        start = Clock::now();
        const cv::Mat out = filters::applyCpu(image, chain);
        ms.push_back(secondsSince(start) * 1e3);
    }
    c.filterMpixS = megapixelsPerSecond(median(ms));
    c.method = "memcpy 64 MiB x 4 (read + write); multiply-add loop, 8 chains on every thread; RGBA8 2048x2048 "
               "Gaussian 15 through the CPU path, median of 3";
    return c;
}

std::string cpuModelName()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                std::string name = line.substr(colon + 1);
                name.erase(0, name.find_first_not_of(" \t"));
                return name;
            }
        }
    }
    return {};
}

}  // namespace tessera::gpu
