// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_id.h"
#include "tessera/gpu/values.h"

#include <opencv2/core/mat.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace tessera::gpu {

/// JPEG decoding on one GPU through nvJPEG (opened at run time, gpu/runtime/nvjpeg_loader.h), for the
/// files whose pixels it gives the way libjpeg-turbo's reader shapes them: baseline or
/// progressive Huffman-coded 8-bit JPEGs of one (grey) or three (YCbCr) components. Anything
/// else (CMYK, YCCK, RGB stored without the colour transform, arithmetic coding, 12-bit,
/// lossless, hierarchical) and any nvJPEG or CUDA failure gives no image and a reason, so that
/// the caller decodes that file with libjpeg-turbo instead.
///
/// Two ways in: baseline JPEGs whose components share one scan go to the GPU's JPEG decode
/// engines (nvJPEG's hardware backend, through its batched calls with a batch of one) where the
/// GPU has them (A100, H100, H200); every other file, and one the engines refuse or fail on,
/// takes nvJPEG's single-image call on the default backend (Huffman decoding on the calling
/// thread, the rest on the GPU). Either way the pixels land in a device buffer that is then
/// copied to the host. TESSERA_NVJPEG_HARDWARE=0 keeps every file off the engines.
class GpuJpegDecoder {
public:
    /// A decoder on device, or null with why set when nvJPEG is missing, the device does not
    /// exist or nvJPEG cannot start there. Never throws (beyond bad_alloc).
    static std::shared_ptr<GpuJpegDecoder> open(DeviceId device, std::string& why);

    ~GpuJpegDecoder();
    GpuJpegDecoder(const GpuJpegDecoder&) = delete;
    GpuJpegDecoder& operator=(const GpuJpegDecoder&) = delete;

    /// The file's pixels, CV_8UC3 in B, G, R order or CV_8UC1 for a grey JPEG, not turned by
    /// any orientation; nullopt with why set when this decoder does not take the file or fails
    /// on it. Safe to call from several threads at once: each call borrows one of a few decoding
    /// states (nvJPEG state, stream, device buffer) kept for the decoder's life, so that files
    /// after the first allocate nothing on the device unless they are larger. Synchronises its
    /// own stream before returning. Never throws (beyond bad_alloc).
    std::optional<cv::Mat> decode(std::span<const std::uint8_t> file, std::string& why);

    /// "nvJPEG 13.0.1 on GPU 0, baseline JPEGs on the decode engines", or the reason there are
    /// none ("..., no decode engines: nvjpegCreateEx (hardware backend): ...").
    std::string describe() const;
    /// Whether baseline JPEGs go to the decode engines.
    bool hasHardwareDecoder() const;
    /// Files the engines decoded so far (the rest went to the default backend or were refused).
    std::size_t hardwareDecodes() const { return hardwareDecodes_.load(std::memory_order_relaxed); }
    /// "nvJPEG (GPU 0)", for reports of which decoder read a file.
    std::string label() const;
    DeviceId device() const { return device_; }

    struct Pool;  // the decoding states; defined in the .cpp

private:
    explicit GpuJpegDecoder(DeviceId device);
    std::optional<cv::Mat> decodeOn(Pool& pool, bool hardware, std::span<const std::uint8_t> file, std::string& why);

    DeviceId device_;
    std::unique_ptr<Pool> pool_;          // default backend
    std::unique_ptr<Pool> hardwarePool_;  // hardware backend; null where there is none
    std::string hardwareWhy_;             // why hardwarePool_ is null
    std::atomic<std::size_t> hardwareDecodes_{0};
};

/// The environment variable that, set to 0, keeps GpuJpegDecoder off the decode engines.
inline constexpr const char* kNvjpegHardwareVariable = "TESSERA_NVJPEG_HARDWARE";

/// False when $TESSERA_NVJPEG_HARDWARE is 0. Reads the environment.
bool nvjpegHardwareWanted();

/// Empty when the file's headers describe a JPEG GpuJpegDecoder decodes as libjpeg-turbo would
/// (8-bit, Huffman-coded baseline or progressive, one component, or three that libjpeg treats
/// as YCbCr); otherwise the reason, e.g. "CMYK JPEG (4 components)". Reads the markers up to
/// the frame header only. Never throws (beyond bad_alloc).
std::string gpuJpegRefusal(std::span<const std::uint8_t> file);

/// Whether the file goes to the decode engines where a GPU has them: one GpuJpegDecoder takes
/// (empty refusal), baseline, every component in its first scan. Reads the markers up to the
/// first scan only. Never throws (beyond bad_alloc).
bool gpuJpegForEngines(std::span<const std::uint8_t> file);

/// For tests: while fault is set and returns true, every GpuJpegDecoder::decode() fails as if
/// nvJPEG had returned an error. Empty clears it. Thread-safe.
void setGpuJpegFaultForTesting(std::function<bool()> fault);

}  // namespace tessera::gpu
