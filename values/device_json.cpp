// SPDX-License-Identifier: Apache-2.0
#include "values/device_json.h"

#include <nlohmann/json.hpp>

namespace tessera::values {

namespace {

using nlohmann::json;

json deviceJson(const DeviceInfo& d)
{
    json peers = json::array();
    for (size_t j = 0; j < d.peerAccess.size(); ++j) {
        if (d.peerAccess[j]) {
            peers.push_back(static_cast<int>(j));
        }
    }
    return {
        {"id", d.id.value()},
        {"name", d.name},
        {"compute_capability", std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor)},
        {"sm_count", d.smCount},
        {"memory_total_bytes", d.memoryTotal},
        {"memory_free_bytes", d.memoryFree},
        {"l2_cache_bytes", d.l2CacheBytes},
        {"shared_mem_per_block_bytes", d.sharedMemPerBlock},
        {"shared_mem_per_block_optin_bytes", d.sharedMemPerBlockOptin},
        {"shared_mem_per_sm_bytes", d.sharedMemPerSm},
        {"clock_mhz", d.clockKHz / 1000},
        {"memory_clock_mhz", d.memoryClockKHz / 1000},
        {"memory_bus_width_bits", d.memoryBusWidthBits},
        {"peak_bandwidth_gbs", d.peakBandwidthGBs()},
        {"pci_bus_id", d.pciBusId},
        {"peer_access", peers},
    };
}

}  // namespace

std::string devicesJson(const DeviceSnapshot& snap, int indent)
{
    json devices = json::array();
    for (const auto& d : snap.devices) {
        devices.push_back(deviceJson(d));
    }
    const json doc = {
        {"driver_version", formatCudaVersion(snap.driverVersion)},
        {"runtime_version", formatCudaVersion(snap.runtimeVersion)},
        {"device_count", snap.devices.size()},
        {"devices", devices},
        {"reason", snap.reason.empty() ? json(nullptr) : json(snap.reason)},
        {"fallback", snap.hasGpu() ? "none" : "cpu"},
        {"fft",
         {{"available", snap.fftAvailable()},
          {"cufft_version", snap.fftAvailable() ? json(formatCufftVersion(snap.cufftVersion)) : json(nullptr)},
          {"detail", snap.fft}}},
    };
    return doc.dump(indent);
}

}  // namespace tessera::values
