// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tessera::app {

/// Exit codes of tessera-cli.
enum CliExit : int { kExitOk = 0, kExitFailure = 1, kExitUsage = 2 };

/// Runs tessera-cli with args (without the program name), printing to out and err.
/// Returns the exit code; never throws.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace tessera::app
