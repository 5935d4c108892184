// SPDX-License-Identifier: Apache-2.0
#include "app/version_info.h"

#include "values/device_label.h"
#include "app/build_config.h"

#include <QtGlobal>

#include <opencv2/core/version.hpp>

#include <cstdio>
#include <map>
#include <sstream>

namespace tessera::app {

VersionInfo collectVersions(const values::DeviceSnapshot& snapshot)
{
    VersionInfo v;
    v.tessera = TESSERA_VERSION;
    v.qt = qVersion();
    v.opencv = CV_VERSION;
    v.cudaRuntime = values::formatCudaVersion(snapshot.runtimeVersion);
    v.cudaDriver = values::formatCudaVersion(snapshot.driverVersion);
    v.cufft = values::formatCufftVersion(snapshot.cufftVersion);
    v.cudaArchitectures = TESSERA_CUDA_ARCHITECTURES;
    return v;
}

namespace {

std::string gib(std::uint64_t bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

}  // namespace

std::string describeDevices(const values::DeviceSnapshot& snapshot)
{
    if (!snapshot.hasGpu()) {
        return "No GPU: " + snapshot.reason + ". Tessera uses the CPU path.";
    }
    std::ostringstream s;
    for (const auto& d : snapshot.devices) {
        s << values::deviceLabel(d.id, &snapshot, values::LabelForm::Listing) << " (sm_" << d.ccMajor << d.ccMinor
          << ", " << d.smCount << " SMs, " << gib(d.memoryTotal) << ", " << gib(d.memoryFree) << " free, PCI "
          << d.pciBusId << ")\n";
    }
    std::string text = s.str();
    text.pop_back();
    return text;
}

std::string computeSummary(const values::DeviceSnapshot& snapshot)
{
    if (!snapshot.hasGpu()) {
        return "CPU path (" + snapshot.reason + ")";
    }
    // Group identical names: "GPU: 4 x NVIDIA H200".
    std::map<std::string, int> byName;
    for (const auto& d : snapshot.devices) {
        ++byName[d.name];
    }
    std::string text = "GPU: ";
    bool first = true;
    for (const auto& [name, count] : byName) {
        if (!first) {
            text += ", ";
        }
        first = false;
        text += (count > 1 ? std::to_string(count) + " x " : std::string()) + name;
    }
    return text;
}

}  // namespace tessera::app
