// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/registry.h"

#include <string>

namespace tessera::filters {

/// "int", "double", "bool" or "choice".
std::string paramTypeName(ParamType type);

/// The registry's filters with their parameters as one JSON object {"filters": [...]}: what
/// `tessera-cli filters --json` prints and the Python module's filters() reads. indent as
/// nlohmann's dump (-1: one line).
std::string registryJson(const FilterRegistry& registry, int indent);

}  // namespace tessera::filters
