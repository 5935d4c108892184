// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_id.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace tessera::values {

/// What a stretch of time in a run was spent on.
enum class Phase {
    Upload,    ///< host to device copy
    Kernel,    ///< filter kernels of one tile (all steps of the chain)
    Download,  ///< device to host copy
    Host,      ///< CPU work: staging copies, CPU-path filtering, waiting
};

/// Every phase with its name, in timeline order: the one table both directions read.
inline constexpr std::array<std::pair<Phase, std::string_view>, 4> kPhaseNames{{
    {Phase::Upload, "upload"},
    {Phase::Kernel, "kernel"},
    {Phase::Download, "download"},
    {Phase::Host, "host"},
}};

/// "upload", "kernel", "download", "host".
inline const char* toString(Phase phase)
{
    for (const auto& [p, name] : kPhaseNames) {
        if (p == phase) {
            return name.data();
        }
    }
    return "host";
}

/// The phase toString() names `text`; empty for any other text.
inline std::optional<Phase> parsePhase(std::string_view text)
{
    for (const auto& [p, name] : kPhaseNames) {
        if (name == text) {
            return p;
        }
    }
    return std::nullopt;
}

/// One timed piece of a run. GPU phases are measured with CUDA events on the work stream and
/// placed on the run's host clock; every record of a run shares that clock's origin.
struct TimingRecord {
    // JSON and CSV traces keep writing the CUDA ordinal (-1: the CPU); their readers and
    // writers convert with DeviceId{n} and id.value().
    DeviceId device;  ///< the GPU that did the work, or the CPU
    int stream = 0;   ///< stream (or CPU worker) index within the device
    int tile = -1;    ///< tile index within the run's plan; -1 when not tied to a tile
    Phase phase = Phase::Host;
    std::string label;     ///< e.g. the method ("separable") or "stage input"
    double beginUs = 0.0;  ///< microseconds from the run's start
    double endUs = 0.0;
    std::uint64_t bytes = 0;  ///< bytes moved (copies) or read and written (kernels)
    int x = 0;                ///< the tile's output rectangle in image pixels
    int y = 0;
    int width = 0;
    int height = 0;

    double durationUs() const { return endUs - beginUs; }
    bool operator==(const TimingRecord&) const = default;
};

}  // namespace tessera::values
