// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace tessera::capi {

/// The built-in filters with their parameters, as one JSON object {"filters": [...]}.
/// Throws only bad_alloc.
std::string filtersJson();

/// The CUDA devices and versions, as one JSON object; no GPU is a normal answer. Throws only
/// bad_alloc.
std::string devicesJson();

/// The commit the library was built from (generated at build time by lib/cmake/commit_id.cmake).
extern const char* const kBuildCommit;

}  // namespace tessera::capi
