#pragma once

#include "app/image_io.h"

#include <istream>

namespace tessera::app {

/// Reads an image's dimensions from the start of a seekable stream without decoding it (the
/// formats of sniffImageHeader); returns an empty ImageHeader for anything else. Never throws
/// on malformed data; a size too large for int is reported as INT_MAX so the limits refuse it.
ImageHeader sniffImageHeader(std::istream& in);

}  // namespace tessera::app
