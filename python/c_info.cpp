// SPDX-License-Identifier: Apache-2.0
// The JSON texts of tessera_filters_json and tessera_devices_json: the shapes that
// `tessera-cli filters --json` and `tessera-cli devices --json` print.
#include "python/c_info.h"

#include "filters/registry.h"
#include "gpu/device_info.h"

#include <nlohmann/json.hpp>

namespace tessera::python {

namespace {

using nlohmann::json;

std::string paramTypeName(filters::ParamType t)
{
    switch (t) {
    case filters::ParamType::Int: return "int";
    case filters::ParamType::Double: return "double";
    case filters::ParamType::Bool: return "bool";
    case filters::ParamType::Choice: return "choice";
    }
    return "unknown";
}

json deviceJson(const gpu::DeviceInfo& d)
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
        {"clock_mhz", d.clockKHz / 1000},
        {"memory_clock_mhz", d.memoryClockKHz / 1000},
        {"memory_bus_width_bits", d.memoryBusWidthBits},
        {"peak_bandwidth_gbs", d.peakBandwidthGBs()},
        {"pci_bus_id", d.pciBusId},
        {"peer_access", peers},
    };
}

}  // namespace

std::string filtersJson()
{
    json list = json::array();
    for (const auto& f : filters::builtinRegistry().all()) {
        json params = json::array();
        for (const auto& p : f.params) {
            json pj = {{"key", p.key},   {"label", p.label},         {"type", paramTypeName(p.type)},
                       {"min", p.minValue}, {"max", p.maxValue},     {"default", p.defaultValue},
                       {"step", p.step}, {"tooltip", p.tooltip}};
            if (p.type == filters::ParamType::Choice) {
                pj["choices"] = p.choices;
            }
            params.push_back(pj);
        }
        list.push_back({{"id", f.id},
                        {"title", f.title},
                        {"category", f.category},
                        {"description", f.description},
                        {"params", params}});
    }
    return json{{"filters", list}}.dump();
}

std::string devicesJson()
{
    const auto snap = gpu::enumerateDevices();
    json devices = json::array();
    for (const auto& d : snap.devices) {
        devices.push_back(deviceJson(d));
    }
    json doc = {
        {"driver_version", gpu::formatCudaVersion(snap.driverVersion)},
        {"runtime_version", gpu::formatCudaVersion(snap.runtimeVersion)},
        {"device_count", snap.devices.size()},
        {"devices", devices},
        {"reason", snap.reason.empty() ? json(nullptr) : json(snap.reason)},
        {"fallback", snap.hasGpu() ? "none" : "cpu"},
        {"fft",
         {{"available", snap.fftAvailable()},
          {"cufft_version", snap.fftAvailable() ? json(gpu::formatCufftVersion(snap.cufftVersion)) : json(nullptr)},
          {"detail", snap.fft}}},
    };
    return doc.dump();
}

}  // namespace tessera::python
