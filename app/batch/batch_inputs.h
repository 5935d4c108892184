// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace tessera::app {

/// One input of a batch: a path to read, or why the given text named nothing readable.
struct BatchInput {
    std::string path;
    std::string error;    ///< non-empty: the input fails with this reason (it names the path)
    std::string skipped;  ///< non-empty: a file in a folder that is not an image Tessera reads, and why
};

/// True for the extensions Tessera reads as images (png, jpg, jpeg, jpe, tif, tiff, bmp, dib,
/// webp, exr, pbm, pgm, ppm, pnm, hdr), in any letter case.
bool hasImageExtension(const std::string& path);

/// Expands files, folders and glob patterns (*, ?, [...]) into inputs, in the order given;
/// folders and patterns are sorted by name. A folder contributes the entries with an image
/// extension (also ones that turn out not to be files, so that they are reported), its other
/// files as skipped inputs saying why, and, when recursive, the contents of its sub-folders except
/// excludeDir (the output folder, however spelt: a trailing '/', through a link); names starting
/// with '.' are left out. A path given twice is kept once. A missing
/// file or a pattern that matches nothing becomes an input with an error. Never throws.
std::vector<BatchInput> expandInputs(const std::vector<std::string>& specs, bool recursive,
                                     const std::string& excludeDir = {});

}  // namespace tessera::app
