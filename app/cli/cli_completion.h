// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace tessera::app {

/// The bash completion script of tessera-cli, written from the option tables of its commands
/// (cliCommands(), filterOptionTable(), globalOptions()) and the filter registry: commands,
/// options, choices, filter ids after --filter, the --filter's KEY= after --param, files and
/// folders where an option or argument takes one; --opt=value completes as --opt value does. It
/// defines _tessera_cli and registers it for tessera-cli. Never throws beyond allocation.
std::string bashCompletionScript();

}  // namespace tessera::app
