// SPDX-License-Identifier: Apache-2.0
#include "app/compare/cpu_calibration.h"

#include "filters/cpu_executor.h"
#include "tessera/gpu/calibration.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

namespace tessera::app {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
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

values::DeviceCalibration calibrateCpu()
{
    values::DeviceCalibration c;
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

    const cv::Mat image = gpu::calibrationImage();
    const filters::FilterChain chain = gpu::calibrationChain();
    std::vector<double> ms;
    for (int i = 0; i < 3; ++i) {
        start = Clock::now();
        const cv::Mat out = filters::applyCpu(image, chain);
        ms.push_back(secondsSince(start) * 1e3);
    }
    c.filterMpixS = gpu::calibrationMegapixelsPerSecond(median(ms));
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

}  // namespace tessera::app
