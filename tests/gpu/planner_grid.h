// SPDX-License-Identifier: Apache-2.0
#pragma once

// The grid of plans the planner tests walk: every format Tessera takes (u8, u16, f32 with 1, 3
// and 4 channels), odd kernel sizes from 1 to 31, rank 1 or not, on a described H200.

#include "filters/factories.h"
#include "filters/filter_spec.h"
#include "values/device_info.h"
#include "tessera/gpu/pixel_format.h"

#include <array>

namespace tessera::gpu::test {

/// The H200's figures as CUDA reports them; no device needed.
inline DeviceInfo describedH200()
{
    DeviceInfo d;
    d.id = DeviceId{0};
    d.name = "described H200";
    d.ccMajor = 9;
    d.smCount = 132;
    d.sharedMemPerBlock = 48 * 1024;
    d.sharedMemPerBlockOptin = 227 * 1024;
    d.sharedMemPerSm = 228 * 1024;
    d.clockKHz = 1980000;
    d.memoryClockKHz = 2619000;
    d.memoryBusWidthBits = 6144;
    return d;
}

/// A positive, normalised k x k kernel that is not rank 1 (k >= 3).
inline filters::FilterSpec denseSpec(int k)
{
    filters::Kernel2D kernel{k, k, std::vector<double>(static_cast<std::size_t>(k) * k)};
    double sum = 0.0;
    for (int y = 0; y < k; ++y) {
        for (int x = 0; x < k; ++x) {
            const double w = 1.0 + (x * 7 + y * 3 + x * y) % 5;
            kernel.weights[static_cast<std::size_t>(y) * k + x] = w;
            sum += w;
        }
    }
    for (double& w : kernel.weights) {
        w /= sum;
    }
    return filters::makeCustom(kernel);
}

/// A rank-1 k x k smoothing kernel.
inline filters::FilterSpec separableSpec(int k)
{
    return filters::makeGaussian(0.3 * k + 0.5, k);
}

inline constexpr std::array<PixelDepth, 3> kGridDepths{PixelDepth::U8, PixelDepth::U16, PixelDepth::F32};
inline constexpr std::array<int, 3> kGridChannels{1, 3, 4};
inline constexpr std::array<int, 6> kGridSizes{1, 3, 5, 7, 15, 31};
inline constexpr int kGridWidth = 4096;
inline constexpr int kGridHeight = 4096;

}  // namespace tessera::gpu::test
