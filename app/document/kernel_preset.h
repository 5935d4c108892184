// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/custom_kernel.h"
#include "filters/registry.h"

#include <QString>

#include <optional>

namespace tessera::app::document {

/// A kernel read from a preset file, with a remark for the user (empty when none).
struct LoadedKernel {
    filters::CustomKernel value;
    QString note;  ///< e.g. that the file's border and depth settings were left out
};

/// Reads a single-kernel preset, or a chain of one filter (whose built kernel is taken),
/// validated against registry. On failure returns empty and sets *error to the file name and
/// the problem. Never throws.
std::optional<LoadedKernel> readKernelPreset(const QString& path, const filters::FilterRegistry& registry,
                                             QString* error);
/// Writes value as a single-kernel preset named after the file, through a temporary file and a
/// rename; registry must accept the kernel. On failure returns false and sets *error to the
/// file name and the problem. Never throws.
bool writeKernelPreset(const filters::CustomKernel& value, const QString& path, const filters::FilterRegistry& registry,
                       QString* error);

}  // namespace tessera::app::document
