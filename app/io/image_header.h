#pragma once

#include "app/io/image_io.h"

#include <istream>

namespace tessera::app {

/// Reads an image's dimensions from the start of a seekable stream without decoding it (the
/// formats of sniffImageHeader); returns an empty ImageHeader for anything else. Never throws
/// on malformed data; a size too large for int is reported as INT_MAX so the limits refuse it.
ImageHeader sniffImageHeader(std::istream& in);

/// Walks a JPEG's markers and entropy-coded scans as a decoder does, from its start-of-image
/// marker, and says whether an end-of-image marker follows the last scan. A file cut short
/// lacks it (the decoder would fill the missing rows with grey and only warn). An embedded
/// thumbnail's markers sit inside an APP segment and are skipped with it. Never throws.
bool jpegIsComplete(std::istream& in);

}  // namespace tessera::app
