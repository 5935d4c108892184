// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli.h"

#include "app/cli/cli_commands.h"
#include "app/version_info.h"
#include "tessera/gpu/device_info.h"
#include "values/log.h"

#include <algorithm>
#include <array>
#include <exception>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <unistd.h>

namespace tessera::app {

namespace {

constexpr std::array kHelpOnly{OptionSpec{"--help", "-h"}};

int runHelp(const std::vector<std::string>& args, CliContext& cli);

constexpr std::string_view kCommandNames = "apply batch batch-report bench filters devices completion help";

const CommandSpec* findCommand(std::string_view name)
{
    const auto commands = cliCommands();
    const auto it =
        std::find_if(commands.begin(), commands.end(), [&](const CommandSpec& c) { return c.name == name; });
    return it != commands.end() ? &*it : nullptr;
}

void printUsage(std::ostream& os)
{
    os << "Usage: tessera-cli [-v|-q] COMMAND [OPTIONS]\n"
          "\n"
          "Commands:\n";
    for (const CommandSpec& c : cliCommands()) {
        const std::string head = std::string(c.name) + " " + std::string(c.synopsis);
        os << "  " << std::left << std::setw(39) << head << " " << c.summary << "\n";
    }
    os << "\n"
          "Options (before or after the command):\n"
          "  -v, --verbose                           print every diagnostic (as TESSERA_LOG=all) on stderr\n"
          "  -q, --quiet                             print no progress or information lines; errors still\n"
          "                                          show (the last of -v and -q counts)\n"
          "  --version                               print versions and exit\n"
          "  -h, --help                              show this text\n"
          "A long option takes its value as the next argument or after '=' (--filter=gaussian).\n"
          "\n"
          "Run 'tessera-cli apply --help' for the filter options, 'tessera-cli batch --help' for batches,\n"
          "'tessera-cli bench --help' for device comparisons.\n"
          "Exit codes: 0 done, 1 a file or processing error, 2 a usage error, 130 SIGINT, 143 SIGTERM.\n";
}

int runHelp(const std::vector<std::string>& args, CliContext& cli)
{
    std::vector<std::string> topics;
    try {
        ArgumentReader in(args, {helpOnlyOptions()}, &cli.verbosity);
        while (in.next()) {
            if (!in.isOption()) {
                topics.push_back(in.current());
            }  // -h: this text anyway
        }
        if (topics.size() > 1) {
            throw UsageError("help takes one command, got '" + topics[0] + "' and '" + topics[1] + "'");
        }
        if (!topics.empty() && (findCommand(topics.front()) == nullptr || topics.front() == "help")) {
            throw UsageError("unknown command '" + topics.front() + "'");
        }
    } catch (const UsageError& e) {
        cli.err << "tessera-cli help: " << e.what() << "\n\n";
        printUsage(cli.err);
        return kExitUsage;
    }
    if (topics.empty()) {
        printUsage(cli.out);
        return kExitOk;
    }
    return findCommand(topics.front())->run({"--help"}, cli);
}

/// Takes the extra diagnostics of -v back when a run is over (tests run many in one process).
struct ExtraLogScope {
    ~ExtraLogScope() { values::setExtraLogCategories(0); }
};

}  // namespace

std::span<const CommandSpec> cliCommands()
{
    // Built at the first call: each command's options are a table in its own file.
    static const std::array<CommandSpec, 8> commands{{
        {"apply",
         "INPUT -o OUTPUT [filter options]",
         "filter one image (\"-\": standard input or output)",
         applyOptions(),
         true,
         ValueKind::File,
         ValueKind::None,
         {},
         runApply},
        {"batch",
         "INPUT... -o OUTDIR [options]",
         "filter many images (files, folders, patterns)",
         batchOptions(),
         true,
         ValueKind::File,
         ValueKind::File,
         {},
         runBatchCommand},
        {"batch-report", "merge -o OUT IN...", "merge the reports of a batch's shards", mergeOptions(), false,
         ValueKind::Choice, ValueKind::File, "merge", runBatchReport},
        {"bench",
         "INPUT [filter options] [options]",
         "time the chain on each GPU, all GPUs and the CPU",
         benchOptions(),
         true,
         ValueKind::File,
         ValueKind::None,
         {},
         runBench},
        {"filters",
         "[--json]",
         "list the filters and their parameters",
         infoOptions(),
         false,
         ValueKind::None,
         ValueKind::None,
         {},
         runFilters},
        {"devices",
         "[--json]",
         "list the CUDA devices (or why there are none)",
         infoOptions(),
         false,
         ValueKind::None,
         ValueKind::None,
         {},
         runDevices},
        {"completion", "bash", "print the bash completion script", helpOnlyOptions(), false, ValueKind::Choice,
         ValueKind::None, "bash", runCompletion},
        {"help", "[COMMAND]", "show this text, or a command's options", helpOnlyOptions(), false, ValueKind::Choice,
         ValueKind::None, kCommandNames, runHelp},
    }};
    return commands;
}

std::span<const OptionSpec> helpOnlyOptions()
{
    return kHelpOnly;
}

bool CliContext::inputIsTerminal() const
{
    return processStreams && ::isatty(STDIN_FILENO) == 1;
}

bool CliContext::outputIsTerminal() const
{
    return processStreams && ::isatty(STDOUT_FILENO) == 1;
}

void printVersion(std::ostream& out)
{
    const auto v = collectVersions(gpu::enumerateDevices());
    out << "tessera-cli " << v.tessera << "\n"
        << "Qt " << v.qt << ", OpenCV " << v.opencv << ", CUDA runtime " << v.cudaRuntime << ", CUDA driver "
        << v.cudaDriver << ", cuFFT " << v.cufft << ", device code sm_" << v.cudaArchitectures << "\n";
}

int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err)
{
    const ExtraLogScope scope;
    CliContext cli{in, out, err, &in == &std::cin && &out == &std::cout && &err == &std::cerr};
    try {
        // The global options before the command; after it, each command's reader takes them.
        std::size_t first = 0;
        while (first < args.size() && applyGlobalOption(args[first], cli.verbosity)) {
            ++first;
        }
        if (first == args.size()) {
            printUsage(err);
            return kExitUsage;
        }
        const std::string& cmd = args[first];
        const std::vector<std::string> rest(args.begin() + static_cast<long>(first) + 1, args.end());
        if (cmd == "--version" || cmd == "version") {
            printVersion(out);
            return kExitOk;
        }
        if (cmd == "-h" || cmd == "--help") {
            printUsage(out);
            return kExitOk;
        }
        if (const CommandSpec* command = findCommand(cmd)) {
            return command->run(rest, cli);
        }
        err << "tessera-cli: " << (cmd.starts_with("-") ? "unknown option '" : "unknown command '") << cmd << "'\n\n";
        printUsage(err);
        return kExitUsage;
    } catch (const std::exception& e) {
        err << "tessera-cli: " << e.what() << "\n";
        return kExitFailure;
    }
}

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    return runCli(args, std::cin, out, err);
}

}  // namespace tessera::app
