// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_info.h"

#include <string>

namespace tessera::app {

/// Versions of Tessera and the libraries it runs on, for --version, About and manifests.
struct VersionInfo {
    std::string tessera;
    std::string qt;                 ///< runtime Qt version (qVersion())
    std::string opencv;             ///< cv::getVersionString()
    std::string cudaRuntime;        ///< e.g. "13.0"
    std::string cudaDriver;         ///< e.g. "13.0", or "none"
    std::string cufft;              ///< cuFFT as opened at run time, e.g. "12.0.0", or "none"
    std::string cudaArchitectures;  ///< what the device code was built for, e.g. "90"
};

/// Fills VersionInfo from the libraries and the given device snapshot (for runtime and driver).
VersionInfo collectVersions(const values::DeviceSnapshot& snapshot);

/// One line per device, or the reason there is none: "GPU 0: NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB)".
std::string describeDevices(const values::DeviceSnapshot& snapshot);

/// Short status text, e.g. "GPU: 4 x NVIDIA H200" or "CPU path (no NVIDIA driver is installed ...)".
std::string computeSummary(const values::DeviceSnapshot& snapshot);

}  // namespace tessera::app
