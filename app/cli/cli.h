// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tessera::app {

/// Exit codes of tessera-cli (a run ended by SIGINT or SIGTERM exits with 130 or 143).
enum CliExit : int { kExitOk = 0, kExitFailure = 1, kExitUsage = 2 };

/// Runs tessera-cli with args (without the program name), reading "-" (standard input) from in
/// and printing to out and err. Returns the exit code; never throws.
int runCli(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);
/// The same with std::cin as standard input.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tessera::app
