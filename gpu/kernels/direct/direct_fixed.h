// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: geometry of the direct kernels whose size is fixed at compile time. Shared by
// the planner (host) and the kernels, so both agree on tiles and shared memory.

#include <cstddef>

namespace tessera::gpu::detail {

/// Square odd kernel sizes with a compiled, fully unrolled direct kernel.
constexpr bool hasFixedDirect(int kw, int kh)
{
    return kw == kh && kw % 2 == 1 && kw >= 3 && kw <= 15;
}

/// Outputs per thread: a strip of fixedOutX columns (fewer for more channels, to bound
/// registers) by fixedOutY rows. Blocks are 32 x 8 threads.
constexpr int fixedOutX(int channels)
{
    return channels == 1 ? 4 : 2;
}
constexpr int fixedOutY(int)
{
    return 4;
}
constexpr int fixedTileW(int channels)
{
    return 32 * fixedOutX(channels);
}
constexpr int fixedTileH(int channels)
{
    return 8 * fixedOutY(channels);
}

/// Shared-memory row length: the window plus room for the last thread's vector loads,
/// rounded to whole float4s.
constexpr int fixedWindowStride(int k, int channels)
{
    const int ox = fixedOutX(channels);
    const int segment = ox + k - 1;
    const int loads = (segment + ox - 1) / ox;
    const int needed = fixedTileW(channels) + k - 1;
    const int lastThread = 31 * ox + loads * ox;
    const int w = needed > lastThread ? needed : lastThread;
    return (w + 3) / 4 * 4;
}

constexpr std::size_t fixedSharedBytes(int k, int channels)
{
    return static_cast<std::size_t>(fixedWindowStride(k, channels)) *
           static_cast<std::size_t>(fixedTileH(channels) + k - 1) * sizeof(float) * static_cast<std::size_t>(channels);
}

}  // namespace tessera::gpu::detail
