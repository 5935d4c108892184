// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli.h"
#include "app/compare/cpu_calibration.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_filter_options.h"
#include "app/devices/device_scheduler.h"
#include "app/compare/compare_json.h"
#include "app/compare/compare_runner.h"
#include "app/io/image_io.h"
#include "app/io/path_text.h"
#include "tessera/gpu/engine.h"
#include "tessera/gpu/device_info.h"
#include "values/device_selection.h"

#include <nlohmann/json.hpp>

#include <QString>
#include <QSysInfo>

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace tessera::app {

namespace {

constexpr std::array kBenchOptions{
    OptionSpec{"--devices", {}, ValueKind::Choice, "each all cpu"},
    OptionSpec{"--warmup", {}, ValueKind::Text},
    OptionSpec{"--runs", {}, ValueKind::Text},
    OptionSpec{"--json"},
    OptionSpec{"--help", "-h"},
};

struct BenchOptions {
    std::string input;
    FilterOptions filters;
    values::DeviceSelection devices = values::DeviceSelection::all();
    int warmup = 1;
    int runs = 5;
    bool json = false;
    bool help = false;
};

void printBenchUsage(std::ostream& os)
{
    os << "Usage: tessera-cli bench INPUT [filter options as in apply] [--devices each|all|cpu|gpu:N[,M...]]\n"
          "         [--warmup N] [--runs N] [--json]\n"
          "\n"
          "Runs the filter chain on the image on each device and compares speed and results.\n"
          "  --devices D   each: every GPU alone and the CPU path; all (default): also all GPUs\n"
          "                together; cpu: the CPU path only; gpu:0,2: those GPUs alone and together\n"
          "  --warmup N    untimed runs per target (default 1)\n"
          "  --runs N      timed runs per target (default 5)\n"
          "  --json        print one JSON document instead of the table\n"
          "INPUT \"-\" reads the image from standard input (its format from its bytes).\n"
          "Speed-up is against the fastest single GPU (the CPU path when no GPU ran); efficiency is\n"
          "speed-up per GPU. Max err and PSNR compare each output with the CPU path's.\n"
          "Filter options: see 'tessera-cli apply --help'.\n";
}

int parseCount(const std::string& option, const std::string& text, int least)
{
    const double v = parseNumber(option, text);
    if (v != std::floor(v) || v < least || v > 10000) {
        throw UsageError(option + " needs a whole number from " + std::to_string(least) + " to 10000");
    }
    return static_cast<int>(v);
}

BenchOptions parseBench(const std::vector<std::string>& args, Verbosity& verbosity)
{
    BenchOptions o;
    o.filters = readCommandLine(args, kBenchOptions, verbosity, [&o](ArgumentReader& in) {
        const std::string& a = in.current();
        const auto value = [&in]() { return in.value(); };
        if (!in.isOption()) {
            takeOnlyInput(o.input, a);
        } else if (a == "-h" || a == "--help") {
            o.help = true;
        } else if (a == "--devices") {
            try {
                o.devices = values::parseDeviceSelection(value(), values::kCompareDevices);
            } catch (const values::DeviceSelectionError& e) {
                throw UsageError(e.what());
            }
        } else if (a == "--warmup") {
            o.warmup = parseCount(a, value(), 0);
        } else if (a == "--runs") {
            o.runs = parseCount(a, value(), 1);
        } else if (a == "--json") {
            o.json = true;
        } else {
            return false;
        }
        return true;
    });
    return o;
}

/// The targets --devices asks for; throws UsageError for a GPU that is not there.
std::vector<CompareTarget> benchTargets(const values::DeviceSelection& devices, const values::DeviceSnapshot& snapshot)
{
    const auto name = [&](values::DeviceId id) {
        for (const auto& d : snapshot.devices) {
            if (d.id == id) {
                return values::describe(id) + " (" + d.name + ")";
            }
        }
        return values::describe(id);
    };
    using Kind = values::DeviceSelection::Kind;
    if (devices.kind() == Kind::Cpu) {
        return {cpuTarget()};
    }
    std::vector<values::DeviceId> gpus;
    try {
        std::string note;
        gpus = values::resolve(devices, snapshot, note, values::kCompareDevices);
    } catch (const values::DeviceUnavailableError& e) {
        throw UsageError(e.what());
    }
    // each: every GPU alone and the CPU; all: also every GPU together; a list: those alone and together.
    const bool cpu = devices.kind() != Kind::Gpus;
    const bool together = devices.kind() != Kind::Each;
    std::vector<CompareTarget> targets;
    for (const values::DeviceId id : gpus) {
        targets.push_back(gpuTarget({id}, name(id)));
    }
    if (together && gpus.size() > 1) {
        targets.push_back(gpuTarget(gpus, std::to_string(gpus.size()) + " GPUs"));
    }
    if (cpu) {
        targets.push_back(cpuTarget());
    }
    return targets;
}

std::string fixed(double v, int decimals)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(decimals) << v;
    return os.str();
}

void printTable(std::ostream& out, const CompareReport& report)
{
    out << report.width << " x " << report.height << " " << report.format << ", chain " << report.chain << ", "
        << report.warmup << " warm-up + " << report.repeats << " timed runs per target\n";
    const int w = std::max<int>(
        6, static_cast<int>(
               std::max_element(report.results.begin(), report.results.end(), [](const auto& a, const auto& b) {
                   return a.label.size() < b.label.size();
               })->label.size()));
    out << std::left << std::setw(w) << "target" << std::right << std::setw(11) << "median ms" << std::setw(11)
        << "Mpixel/s" << std::setw(10) << "speed-up" << std::setw(12) << "efficiency" << std::setw(10) << "max err"
        << std::setw(10) << "PSNR dB"
        << "\n";
    for (const auto& r : report.results) {
        out << std::left << std::setw(w) << r.label << std::right;
        if (!r.ok()) {
            out << "  failed: " << r.error << "\n";
            continue;
        }
        out << std::setw(11) << fixed(r.medianMs, 2) << std::setw(11) << fixed(r.mpixS, 1) << std::setw(10)
            << (r.speedup > 0.0 ? fixed(r.speedup, 2) + "x" : "-") << std::setw(12)
            << (r.efficiency > 0.0 ? fixed(r.efficiency * 100.0, 0) + " %" : "-") << std::setw(10)
            << fixed(r.maxAbsError, r.maxAbsError == std::floor(r.maxAbsError) ? 0 : 4) << std::setw(10)
            << (std::isfinite(r.psnr) ? fixed(r.psnr, 1) : std::string("exact")) << "\n";
    }
}

}  // namespace

std::span<const OptionSpec> benchOptions()
{
    return kBenchOptions;
}

int runBench(const std::vector<std::string>& args, CliContext& cli)
{
    std::ostream& out = cli.out;
    std::ostream& err = cli.err;
    BenchOptions o;
    std::vector<CompareTarget> targets;
    const values::DeviceSnapshot snapshot = gpu::enumerateDevices();
    try {
        o = parseBench(args, cli.verbosity);
        if (o.help) {
            printBenchUsage(out);
            return kExitOk;
        }
        if (o.input.empty()) {
            throw UsageError("no input image given");
        }
        if (o.filters.steps.empty()) {
            throw UsageError("nothing to run: give --filter, --kernel or --preset");
        }
        if (o.input == "-" && cli.inputIsTerminal()) {
            throw UsageError("the input - (standard input) is a terminal; pipe or redirect an image into it");
        }
        targets = benchTargets(o.devices, snapshot);
    } catch (const UsageError& e) {
        err << "tessera-cli bench: " << e.what() << "\n\n";
        printBenchUsage(err);
        return kExitUsage;
    }
    const cv::Mat src = o.input == "-" ? readImage(cli.in, "standard input") : readImage(o.input);
    const filters::FilterChain chain = chainFromOptions(o.filters);
    CompareOptions options;
    options.warmup = o.warmup;
    options.repeats = o.runs;
    DeviceScheduler scheduler;  // this run is the process: its targets take their devices in turn
    options.scheduler = &scheduler;
    const CompareReport report = runComparison(src, chain, targets, options);
    const bool failed =
        std::any_of(report.results.begin(), report.results.end(), [](const auto& r) { return !r.ok(); });
    if (o.json) {
        SavedComparison saved{report, snapshot, {}, QSysInfo::machineHostName().toStdString(), cpuModelName()};
        nlohmann::json doc = toJson(saved);
        putPath(doc, "input", o.input);
        out << jsonText(doc, 2) << "\n";
    } else {
        printTable(out, report);
        if (!snapshot.hasGpu() && o.devices != values::DeviceSelection::cpu() && !cli.quiet()) {
            out << "No GPU: " << snapshot.reason << "; the CPU path only.\n";
        }
    }
    return failed ? kExitFailure : kExitOk;
}

}  // namespace tessera::app
