// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "tessera/tessera.h"

#include <stdexcept>
#include <string>

namespace tessera::capi {

/// A failure with the status the C interface reports for it.
struct Failure : std::runtime_error {
    Failure(tessera_status s, const std::string& message) : std::runtime_error(message), status(s) {}
    tessera_status status;
};

/// Throws Failure with `status` (by default an invalid argument).
[[noreturn]] void fail(const std::string& message, tessera_status status = TESSERA_INVALID_ARGUMENT);

/// `s`, or `fallback` when s is null or empty. Never throws but for bad_alloc.
std::string text(const char* s, const char* fallback);

/// The chain the preset JSON and the options make, as `tessera-cli apply --preset` with the
/// same options: border and border value on every step, scale, offset and depth on the last.
/// Throws Failure, PresetError or std::invalid_argument.
filters::FilterChain makeChain(const char* chainJson, const tessera_options* options);

}  // namespace tessera::capi
