// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// How every tessera-cli sub-command (and tessera-bench) reads its arguments, so that they all
// spell values, unknown options and the end of options alike.
//
// Why a reader of our own and not QCommandLineParser or CLI11: the meaning of these command lines
// is in their order. A --param belongs to the --filter before it, a chain is the order of its
// --filter, --kernel and --preset options, a --files-from list goes where it stands among the
// inputs, and -v/-q may come before or after the sub-command. QCommandLineParser keeps one list of
// values per option, so that order is lost (and its process() exits with 1 on a usage error);
// CLI11 can recover it only through a parse-order side channel, would bring its own help layout,
// exit codes and a new build dependency, and neither writes bash completion from its tables. What
// the programs need beyond walking the list is small: a table of options (name, value or not,
// what the value is), --opt=value, "--" and the global options, all of it here; the same table
// writes the bash completion (cli_completion.h).
namespace tessera::app {

/// A command-line mistake: reported with the usage hint and exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// What an option's value is: whether it takes one, and what shell completion offers for it.
enum class ValueKind {
    None,         ///< a flag
    Text,         ///< free text, nothing to complete
    File,         ///< a file name
    Directory,    ///< a folder name
    FilterId,     ///< a filter id of the registry
    FilterParam,  ///< KEY=VALUE of the --filter before it
    Choice,       ///< one of OptionSpec::choices (completion offers them; the parser checks them)
};

/// One option of a command.
struct OptionSpec {
    std::string_view name;            ///< the long form, "--filter"
    std::string_view shortName = {};  ///< "-o", or empty
    ValueKind value = ValueKind::None;
    std::string_view choices = {};  ///< for Choice (and hints for Text): words separated by spaces
};

/// The options every command takes, before or after its name: -v/--verbose and -q/--quiet.
std::span<const OptionSpec> globalOptions();

/// How much a run says besides its results and errors (-v, -q).
enum class Verbosity { Normal, Quiet, Verbose };

/// Applies a global option (-v, --verbose, -q, --quiet) to verbosity: the last one given counts,
/// and -v also turns every TESSERA_LOG category on (values/log.h). False for another argument.
bool applyGlobalOption(std::string_view argument, Verbosity& verbosity);

/// Walks a sub-command's arguments one at a time against its option tables. An argument
/// starting with '-' (other than "-" alone) is an option; "--" ends the options: every argument
/// after it is positional, even one that starts with '-' (a file named "-x.png"). A long option's
/// value is the next argument or follows '=' in the same one ("--param=sigma=2" is --param with
/// sigma=2: the first '=' splits). The global options are read here and never reach the caller.
class ArgumentReader {
public:
    /// tables: the options this command knows; each must outlive the reader. verbosity, when
    /// given, receives -v and -q.
    ArgumentReader(const std::vector<std::string>& args, std::vector<std::span<const OptionSpec>> tables,
                   Verbosity* verbosity = nullptr);

    /// Moves to the next argument, stepping over the first "--" and the global options; false
    /// when none is left. Throws UsageError "unknown option 'X'" for an option of no table, and
    /// "X takes no value" for --flag=value.
    bool next();
    /// The argument next() moved to; for an option, its name as typed without "=value".
    const std::string& current() const { return current_; }
    /// The current argument is an option (not positional).
    bool isOption() const { return option_ != nullptr; }
    /// The table entry of the current option (null for a positional argument).
    const OptionSpec* option() const { return option_; }
    /// The current option's value: what followed '=', or the next argument, which it consumes;
    /// throws UsageError "OPTION needs a value" at the end of the list.
    std::string value();
    /// Throws UsageError "unknown option 'X'" for the current argument.
    [[noreturn]] void unknownOption() const;

private:
    const OptionSpec* find(std::string_view name) const;

    const std::vector<std::string>& args_;
    std::vector<std::span<const OptionSpec>> tables_;
    Verbosity* verbosity_;
    std::size_t index_ = 0;
    bool started_ = false;
    bool optionsEnded_ = false;
    std::string current_;
    std::optional<std::string> inline_;  ///< the text after '=' of the current option
    const OptionSpec* option_ = nullptr;
};

}  // namespace tessera::app
