// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <vector>

namespace tessera::app {

/// Where Tessera's read-only data lives (sample images, presets). An installed program finds it
/// beside itself, in <prefix>/share/tessera for <prefix>/bin/tessera; a program run from the
/// build folder has no such folder and falls back to the source tree's resources/.
///
/// exe is the running program's path and fallback the folder to use when
/// exe/../../share/tessera does not exist. Pure apart from the one existence check.
std::filesystem::path dataDirFor(const std::filesystem::path& exe, const std::filesystem::path& fallback);

/// dataDirFor() of this process (/proc/self/exe) with the source tree as the fallback.
std::filesystem::path dataDir();

/// dataDir()/samples and dataDir()/presets.
std::filesystem::path samplesDir();
std::filesystem::path presetsDir();

/// Where Help > User Guide looks for the HTML manual's index.html, in order. A program in a build
/// folder (<build>/app/tessera, with <build>/CMakeCache.txt) first takes the manual that build
/// made, <build>/docs/manual; then, as an installed program does, <prefix>/share/tessera/manual
/// for <prefix>/bin/tessera. Pure apart from the one existence check; empty for an empty exe.
std::vector<std::filesystem::path> manualIndexCandidatesFor(const std::filesystem::path& exe);

/// manualIndexCandidatesFor() of this process (/proc/self/exe).
std::vector<std::filesystem::path> manualIndexCandidates();

/// The image files in dir (by extension: png, jpg, jpeg, tif, tiff, bmp, webp, exr), sorted by
/// name; empty when dir is missing or unreadable. Never throws.
std::vector<std::filesystem::path> imageFilesIn(const std::filesystem::path& dir);

}  // namespace tessera::app
