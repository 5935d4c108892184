// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/encode_options.h"

#include <optional>
#include <string>

namespace tessera::app {

/// The quality (1..100) the JPEG file at path was most likely saved at, estimated from its
/// luminance quantisation table against the scaled standard table; nullopt for a file that is
/// not a readable JPEG.
std::optional<int> jpegQualityOf(const std::string& path);

}  // namespace tessera::app
