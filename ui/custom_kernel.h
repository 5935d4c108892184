#pragma once

#include "filters/filter_spec.h"

#include <QString>

#include <optional>

namespace tessera::ui {

/// What the kernel editor holds, as a value: the custom filter's weights, anchor, scale and
/// offset.
struct CustomKernel {
    filters::Kernel2D kernel;
    std::optional<filters::Point> anchor;  ///< empty: the kernel's centre
    double scale = 1.0;
    double offset = 0.0;
    bool operator==(const CustomKernel&) const = default;
};

/// k divided by the sum of its weights; empty when that sum is ~0 (relative to the weights'
/// magnitudes), where there is nothing sensible to divide by.
std::optional<filters::Kernel2D> unitSumKernel(const filters::Kernel2D& k);
/// The custom filter's spec for value (reflect101, same depth). Does not throw: a kernel the
/// registry refuses (past its size limit) is carried over as it is.
filters::FilterSpec customSpecOf(const CustomKernel& value);
/// Reads a single-kernel preset, or a chain of one filter (whose built kernel is taken). On
/// failure returns empty and sets *error to the file name and the problem. *note (if given)
/// gets a remark when the file's border or depth settings are left out, else is cleared.
std::optional<CustomKernel> readKernelPreset(const QString& path, QString* error, QString* note);
/// Writes value as a single-kernel preset named after the file, through a temporary file and a
/// rename. On failure returns false and sets *error to the file name and the problem.
bool writeKernelPreset(const CustomKernel& value, const QString& path, QString* error);
/// "Separable (rank 1): row [...], column [...]" (long factors shortened in the middle) or
/// "Not separable"; *details (if given) gets the full factors or why separability matters.
QString separabilityText(const filters::Kernel2D& kernel, QString* details);

}  // namespace tessera::ui
