// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

// The sub-commands of tessera-cli; each takes the arguments after its name and returns an exit
// code from CliExit. They may throw; runCli turns exceptions into exit code 1.
namespace tessera::app {

int runDevices(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runFilters(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runApply(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runBench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runBatchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runBatchReport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
void printVersion(std::ostream& out);

}  // namespace tessera::app
