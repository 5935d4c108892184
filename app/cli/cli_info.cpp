// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli.h"
#include "app/cli/cli_arguments.h"
#include "app/cli/cli_commands.h"
#include "app/version_info.h"
#include "filters/registry.h"
#include "gpu/device_info.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>

namespace tessera::app {

namespace {

using nlohmann::json;

/// What the options of `devices` and `filters` ask for.
enum class InfoRequest { Text, Json, Help, Bad };

InfoRequest parseInfoOptions(const std::vector<std::string>& args, const char* command, std::ostream& out,
                             std::ostream& err)
{
    const std::string usage = std::string("Usage: tessera-cli ") + command + " [--json]\n";
    InfoRequest request = InfoRequest::Text;
    ArgumentReader in(args);
    while (in.next()) {
        const std::string& a = in.current();
        if (!in.isOption()) {
            err << "tessera-cli " << command << ": unexpected argument '" << a << "'\n" << usage;
            return InfoRequest::Bad;
        }
        if (a == "--help" || a == "-h") {
            out << usage << (std::string(command) == "devices"
                                 ? "Lists every CUDA device (or why there is none) and whether the FFT method is\n"
                                   "available (cuFFT is opened at run time); --json for a JSON object.\n"
                                 : "Lists the filters and their parameters; --json for a JSON array.\n");
            return InfoRequest::Help;
        }
        if (a == "--json") {
            request = InfoRequest::Json;
        } else {
            err << "tessera-cli " << command << ": unknown option '" << a << "'\n" << usage;
            return InfoRequest::Bad;
        }
    }
    return request;
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

}  // namespace

int runDevices(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const InfoRequest request = parseInfoOptions(args, "devices", out, err);
    if (request == InfoRequest::Bad) {
        return kExitUsage;
    }
    if (request == InfoRequest::Help) {
        return kExitOk;
    }
    const bool asJson = request == InfoRequest::Json;
    const auto snap = gpu::enumerateDevices();
    if (asJson) {
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
        out << doc.dump(2) << "\n";
        return kExitOk;
    }
    out << "CUDA driver " << gpu::formatCudaVersion(snap.driverVersion) << ", runtime "
        << gpu::formatCudaVersion(snap.runtimeVersion) << "\n";
    if (!snap.fft.empty()) {
        out << snap.fft << "\n";
    }
    out << describeDevices(snap) << "\n";
    if (snap.hasGpu() && snap.devices.size() > 1) {
        out << "Peer access:\n";
        for (const auto& d : snap.devices) {
            out << "  GPU " << d.id.value() << " ->";
            for (size_t j = 0; j < d.peerAccess.size(); ++j) {
                out << ' ' << (static_cast<int>(j) == d.id.value() ? '-' : (d.peerAccess[j] ? 'y' : 'n'));
            }
            out << "\n";
        }
    }
    return kExitOk;
}

int runFilters(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const InfoRequest request = parseInfoOptions(args, "filters", out, err);
    if (request == InfoRequest::Bad) {
        return kExitUsage;
    }
    if (request == InfoRequest::Help) {
        return kExitOk;
    }
    const bool asJson = request == InfoRequest::Json;
    const auto& reg = filters::builtinRegistry();
    if (asJson) {
        json list = json::array();
        for (const auto& f : reg.all()) {
            json params = json::array();
            for (const auto& p : f.params) {
                json pj = {{"key", p.key},        {"label", p.label},
                           {"type", paramTypeName(p.type)}, {"min", p.minValue},
                           {"max", p.maxValue},   {"default", p.defaultValue},
                           {"step", p.step},      {"tooltip", p.tooltip}};
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
        out << json{{"filters", list}}.dump(2) << "\n";
        return kExitOk;
    }
    for (const auto& f : reg.all()) {
        out << std::left << std::setw(12) << f.id << ' ' << f.title << " — " << f.description << "\n";
        for (const auto& p : f.params) {
            out << "    " << std::setw(10) << p.key << ' ' << paramTypeName(p.type);
            if (p.type == filters::ParamType::Choice) {
                out << " {";
                for (size_t i = 0; i < p.choices.size(); ++i) {
                    out << (i ? "|" : "") << p.choices[i];
                }
                out << "} default " << p.choices.at(static_cast<size_t>(p.defaultValue));
            } else if (p.type == filters::ParamType::Bool) {
                out << " default " << (p.defaultValue != 0 ? "true" : "false");
            } else {
                out << " [" << p.minValue << ", " << p.maxValue << "] default " << p.defaultValue;
            }
            out << "  " << p.tooltip << "\n";
        }
    }
    return kExitOk;
}

}  // namespace tessera::app
