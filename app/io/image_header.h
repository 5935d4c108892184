// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/io/image_io.h"

#include <istream>

namespace tessera::app {

/// Reads an image's dimensions from the start of a seekable stream without decoding it (the
/// formats of sniffImageHeader); returns an empty ImageHeader for anything else. Never throws
/// on malformed data; a size too large for int is reported as INT_MAX so the limits refuse it.
ImageHeader sniffImageHeader(std::istream& in);

/// What walking a JPEG's markers found.
struct JpegLayout {
    int width = 0;  ///< from the first frame header; 0 when there is none
    int height = 0;
    int scans = 0;          ///< start-of-scan markers met, at most maxScans + 1
    bool complete = false;  ///< an end-of-image marker follows a frame header and a scan
};

/// Walks a JPEG's markers from its start as libjpeg does (bytes other than 0xFF before a marker
/// and 0xFF fill bytes are skipped, so is entropy-coded data), stopping once more than maxScans
/// scans are met, so that a file of countless empty scans costs one pass over its bytes and no
/// decoding. Never throws.
JpegLayout walkJpeg(std::istream& in, int maxScans);

/// Walks a JPEG's markers and entropy-coded scans as a decoder does, from its start-of-image
/// marker, and says whether an end-of-image marker follows the last scan. A file cut short
/// lacks it (the decoder would fill the missing rows with grey and only warn). An embedded
/// thumbnail's markers sit inside an APP segment and are skipped with it. Never throws.
bool jpegIsComplete(std::istream& in);

}  // namespace tessera::app
