// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

// How every tessera-cli sub-command reads its arguments, so that they all spell values, unknown
// options and the end of options alike.
namespace tessera::app {

/// A command-line mistake: reported with the usage hint and exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Walks a sub-command's arguments one at a time. An argument starting with '-' (other than "-"
/// alone) is an option; "--" ends the options: every argument after it is positional, even one
/// that starts with '-' (a file named "-x.png").
class ArgumentReader {
public:
    explicit ArgumentReader(const std::vector<std::string>& args) : args_(args) {}

    /// Moves to the next argument, stepping over the first "--"; false when none is left.
    bool next();
    /// The argument next() moved to.
    const std::string& current() const { return args_[index_]; }
    /// The current argument is an option (not positional).
    bool isOption() const;
    /// The argument after the current option, which it consumes; throws UsageError
    /// "OPTION needs a value" at the end of the list.
    const std::string& value();
    /// Throws UsageError "unknown option 'X'" for the current argument.
    [[noreturn]] void unknownOption() const;

private:
    const std::vector<std::string>& args_;
    std::size_t index_ = 0;
    bool started_ = false;
    bool optionsEnded_ = false;
};

}  // namespace tessera::app
