#pragma once

#include <cstdint>
#include <string>

namespace tessera::gpu {

/// What a stretch of time in a run was spent on.
enum class Phase {
    Upload,    ///< host to device copy
    Kernel,    ///< filter kernels of one tile (all steps of the chain)
    Download,  ///< device to host copy
    Host,      ///< CPU work: staging copies, CPU-path filtering, waiting
};

/// "upload", "kernel", "download", "host".
inline const char* toString(Phase phase)
{
    switch (phase) {
    case Phase::Upload: return "upload";
    case Phase::Kernel: return "kernel";
    case Phase::Download: return "download";
    case Phase::Host: return "host";
    }
    return "host";
}

/// One timed piece of a run. GPU phases are measured with CUDA events on the work stream and
/// placed on the run's host clock; every record of a run shares that clock's origin.
struct TimingRecord {
    int device = -1;          ///< CUDA device id; -1 for the CPU
    int stream = 0;           ///< stream (or CPU worker) index within the device
    int tile = -1;            ///< tile index within the run's plan; -1 when not tied to a tile
    Phase phase = Phase::Host;
    std::string label;        ///< e.g. the method ("separable") or "stage input"
    double beginUs = 0.0;     ///< microseconds from the run's start
    double endUs = 0.0;
    std::uint64_t bytes = 0;  ///< bytes moved (copies) or read and written (kernels)
    int x = 0;                ///< the tile's output rectangle in image pixels
    int y = 0;
    int width = 0;
    int height = 0;

    double durationUs() const { return endUs - beginUs; }
    bool operator==(const TimingRecord&) const = default;
};

}  // namespace tessera::gpu
