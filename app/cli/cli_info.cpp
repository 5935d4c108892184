// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli.h"
#include "app/cli/cli_arguments.h"
#include "app/cli/cli_commands.h"
#include "app/version_info.h"
#include "filters/registry.h"
#include "filters/registry_json.h"
#include "tessera/gpu/device_info.h"
#include "values/device_json.h"

#include <array>
#include <iomanip>
#include <ostream>

namespace tessera::app {

namespace {

/// What the options of `devices` and `filters` ask for.
enum class InfoRequest { Text, Json, Help, Bad };

constexpr std::array kInfoOptions{OptionSpec{"--json"}, OptionSpec{"--help", "-h"}};

InfoRequest parseInfoOptions(const std::vector<std::string>& args, const char* command, CliContext& cli)
{
    const std::string usage = std::string("Usage: tessera-cli ") + command + " [--json]\n";
    InfoRequest request = InfoRequest::Text;
    try {
        ArgumentReader in(args, {kInfoOptions}, &cli.verbosity);
        while (in.next()) {
            const std::string& a = in.current();
            if (!in.isOption()) {
                throw UsageError("unexpected argument '" + a + "'");
            }
            if (a == "--help" || a == "-h") {
                request = InfoRequest::Help;
            } else if (request != InfoRequest::Help) {
                request = InfoRequest::Json;
            }
        }
    } catch (const UsageError& e) {
        cli.err << "tessera-cli " << command << ": " << e.what() << "\n" << usage;
        return InfoRequest::Bad;
    }
    if (request == InfoRequest::Help) {
        cli.out << usage
                << (std::string(command) == "devices"
                        ? "Lists every CUDA device (or why there is none) and whether the FFT method is\n"
                          "available (cuFFT is opened at run time); --json for a JSON object.\n"
                        : "Lists the filters and their parameters; --json for a JSON array.\n");
    }
    return request;
}

}  // namespace

std::span<const OptionSpec> infoOptions()
{
    return kInfoOptions;
}

int runDevices(const std::vector<std::string>& args, CliContext& cli)
{
    std::ostream& out = cli.out;
    const InfoRequest request = parseInfoOptions(args, "devices", cli);
    if (request == InfoRequest::Bad) {
        return kExitUsage;
    }
    if (request == InfoRequest::Help) {
        return kExitOk;
    }
    const bool asJson = request == InfoRequest::Json;
    const auto snap = gpu::enumerateDevices();
    if (asJson) {
        out << values::devicesJson(snap, 2) << "\n";
        return kExitOk;
    }
    out << "CUDA driver " << values::formatCudaVersion(snap.driverVersion) << ", runtime "
        << values::formatCudaVersion(snap.runtimeVersion) << "\n";
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

int runFilters(const std::vector<std::string>& args, CliContext& cli)
{
    std::ostream& out = cli.out;
    const InfoRequest request = parseInfoOptions(args, "filters", cli);
    if (request == InfoRequest::Bad) {
        return kExitUsage;
    }
    if (request == InfoRequest::Help) {
        return kExitOk;
    }
    const bool asJson = request == InfoRequest::Json;
    const auto& reg = filters::builtinRegistry();
    if (asJson) {
        out << filters::registryJson(reg, 2) << "\n";
        return kExitOk;
    }
    for (const auto& f : reg.all()) {
        out << std::left << std::setw(12) << f.id << ' ' << f.title << " — " << f.description << "\n";
        for (const auto& p : f.params) {
            out << "    " << std::setw(10) << p.key << ' ' << filters::paramTypeName(p.type);
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
