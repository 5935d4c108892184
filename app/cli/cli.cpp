// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli.h"

#include "app/cli/cli_commands.h"
#include "app/version_info.h"
#include "tessera/gpu/device_info.h"

#include <exception>
#include <ostream>

namespace tessera::app {

namespace {

void printUsage(std::ostream& os)
{
    os << "Usage: tessera-cli COMMAND [OPTIONS]\n"
          "\n"
          "Commands:\n"
          "  apply INPUT -o OUTPUT [filter options]   filter one image\n"
          "  batch INPUT... -o OUTDIR [options]       filter many images (files, folders, patterns)\n"
          "  batch-report merge -o OUT IN...          merge the reports of a batch's shards\n"
          "  bench INPUT [filter options] [options]   time the chain on each GPU, all GPUs and the CPU\n"
          "  filters [--json]                         list the filters and their parameters\n"
          "  devices [--json]                         list the CUDA devices (or why there are none)\n"
          "  help                                     show this text\n"
          "\n"
          "Options:\n"
          "  --version                                print versions and exit\n"
          "  -h, --help                               show this text\n"
          "\n"
          "Run 'tessera-cli apply --help' for the filter options, 'tessera-cli batch --help' for batches,\n"
          "'tessera-cli bench --help' for device comparisons.\n"
          "Exit codes: 0 done, 1 a file or processing error, 2 a usage error, 130 SIGINT, 143 SIGTERM.\n";
}

}  // namespace

void printVersion(std::ostream& out)
{
    const auto v = collectVersions(gpu::enumerateDevices());
    out << "tessera-cli " << v.tessera << "\n"
        << "Qt " << v.qt << ", OpenCV " << v.opencv << ", CUDA runtime " << v.cudaRuntime << ", CUDA driver "
        << v.cudaDriver << ", cuFFT " << v.cufft << ", device code sm_" << v.cudaArchitectures << "\n";
}

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    try {
        if (args.empty()) {
            printUsage(err);
            return kExitUsage;
        }
        const std::string& cmd = args.front();
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        if (cmd == "--version" || cmd == "version") {
            printVersion(out);
            return kExitOk;
        }
        if (cmd == "-h" || cmd == "--help" || cmd == "help") {
            printUsage(out);
            return kExitOk;
        }
        if (cmd == "devices") {
            return runDevices(rest, out, err);
        }
        if (cmd == "filters") {
            return runFilters(rest, out, err);
        }
        if (cmd == "apply") {
            return runApply(rest, out, err);
        }
        if (cmd == "bench") {
            return runBench(rest, out, err);
        }
        if (cmd == "batch") {
            return runBatchCommand(rest, out, err);
        }
        if (cmd == "batch-report") {
            return runBatchReport(rest, out, err);
        }
        err << "tessera-cli: unknown command '" << cmd << "'\n\n";
        printUsage(err);
        return kExitUsage;
    } catch (const std::exception& e) {
        err << "tessera-cli: " << e.what() << "\n";
        return kExitFailure;
    }
}

}  // namespace tessera::app
