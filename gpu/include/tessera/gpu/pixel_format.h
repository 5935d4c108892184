// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string>

namespace tessera::gpu {

enum class PixelDepth { U8, U16, F32 };

/// Depth and channel count (1, 3 or 4) of an image; channels are interleaved (BGR/BGRA order).
struct PixelFormat {
    PixelDepth depth = PixelDepth::U8;
    int channels = 1;

    std::size_t bytesPerChannel() const { return depth == PixelDepth::U8 ? 1 : depth == PixelDepth::U16 ? 2 : 4; }
    std::size_t bytesPerPixel() const { return bytesPerChannel() * static_cast<std::size_t>(channels); }
    /// "u8x4", "f32x1", ...
    std::string name() const;
    bool operator==(const PixelFormat&) const = default;
};

/// From an OpenCV type (CV_8UC3, ...); throws std::invalid_argument for other depths or channels.
PixelFormat pixelFormatFromCvType(int cvType);
/// The OpenCV type for a format.
int toCvType(PixelFormat format);

/// An image in device memory, pitch in bytes. Does not own the memory.
struct DeviceImage {
    void* data = nullptr;
    std::size_t pitch = 0;
    int width = 0;
    int height = 0;
    PixelFormat format;
};

}  // namespace tessera::gpu
