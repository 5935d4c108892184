// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/cli/cli_arguments.h"

#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// The sub-commands of tessera-cli; each takes the arguments after its name and returns an exit
// code from CliExit. They may throw; runCli turns exceptions into exit code 1.
namespace tessera::app {

/// What a command runs with: the streams and how much to say.
struct CliContext {
    std::istream& in;
    std::ostream& out;
    std::ostream& err;
    /// in, out and err are the process's own (std::cin, std::cout, std::cerr): their file
    /// descriptors can be asked whether they are terminals.
    bool processStreams = false;
    Verbosity verbosity = Verbosity::Normal;

    bool quiet() const { return verbosity == Verbosity::Quiet; }
    /// Standard input (or output) is the process's and a terminal: no image comes from (or
    /// belongs on) it.
    bool inputIsTerminal() const;
    bool outputIsTerminal() const;
};

/// One sub-command as the dispatcher, the usage text and the shell completion see it.
struct CommandSpec {
    std::string_view name;
    std::string_view synopsis;  ///< after the name, e.g. "INPUT -o OUTPUT [filter options]"
    std::string_view summary;
    std::span<const OptionSpec> options;  ///< its own options (-h/--help included)
    bool filterOptions = false;           ///< takes the shared filter options (filterOptionTable())
    /// Its first positional argument, then the others: File, Choice (of positionalChoices) or None.
    ValueKind firstPositional = ValueKind::None;
    ValueKind laterPositionals = ValueKind::None;
    std::string_view positionalChoices = {};
    int (*run)(const std::vector<std::string>& args, CliContext& cli) = nullptr;
};

/// Every sub-command, in the order the usage lists them.
std::span<const CommandSpec> cliCommands();

int runDevices(const std::vector<std::string>& args, CliContext& cli);
int runFilters(const std::vector<std::string>& args, CliContext& cli);
int runApply(const std::vector<std::string>& args, CliContext& cli);
int runBench(const std::vector<std::string>& args, CliContext& cli);
int runBatchCommand(const std::vector<std::string>& args, CliContext& cli);
int runBatchReport(const std::vector<std::string>& args, CliContext& cli);
int runCompletion(const std::vector<std::string>& args, CliContext& cli);
void printVersion(std::ostream& out);

/// The options of each command, for cliCommands().
std::span<const OptionSpec> applyOptions();
std::span<const OptionSpec> batchOptions();
std::span<const OptionSpec> benchOptions();
std::span<const OptionSpec> infoOptions();
std::span<const OptionSpec> mergeOptions();
std::span<const OptionSpec> helpOnlyOptions();

}  // namespace tessera::app
