// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the planning half of the variant table's rows (variant_support.h): each
// variant's time estimate, the note its plans carry, the workspace it lays out and what
// Plan::describe() says of it. Host code only; kernel_variant.cpp puts them in the rows.

#include "gpu/plan/variant_support.h"

#include <string>

namespace tessera::gpu::detail {

// Estimates (ms), one per cost form.
double estimateDirect(const CostQuery& c);
double estimateDirectHalf(const CostQuery& c);
double estimateRgba8Imma(const CostQuery& c);
double estimateDirectTensor(const CostQuery& c);
double estimateSeparable(const CostQuery& c);
double estimateSeparableTiled(const CostQuery& c);
double estimateSeparableTwoPass(const CostQuery& c);
double estimateTf32Walk(const CostQuery& c);
double estimateSeparableTensor(const CostQuery& c);
double estimateFftRows(const CostQuery& c);
double estimateFft(const CostQuery& c);

// Notes in a plan's reason.
std::string noteDirectTensor(const filters::FilterSpec& spec);     ///< fp16 taps and their bound
std::string noteSeparableTensor(const filters::FilterSpec& spec);  ///< the same, separable form
std::string noteTwoPass(const filters::FilterSpec& spec);          ///< "; two-pass"
std::string tf32Note(const filters::FilterSpec& spec);             ///< TF32 split and bound
std::string rgba8FixedNote(const filters::FilterSpec& spec);       ///< fixed-point taps and bound

// Workspace layouts; each returns the bytes it takes from `offset`.
std::size_t workspaceSpilledTaps(const Plan& plan, PlanData& data, std::size_t offset);
std::size_t workspaceTensorDirect(const Plan& plan, PlanData& data, std::size_t offset);
std::size_t workspaceTwoPass(const Plan& plan, PlanData& data, std::size_t offset);
std::size_t workspaceDirectTaps(const Plan& plan, PlanData& data, std::size_t offset);
std::size_t workspaceFftRows(const Plan& plan, PlanData& data, std::size_t offset);
std::size_t workspaceFft(const Plan& plan, PlanData& data, std::size_t offset);

// Plan::describe()'s details.
std::string detailsRgba8Walk(const Plan& plan);
std::string detailsRgba8WalkHalf(const Plan& plan);
std::string detailsFloatWalk(const Plan& plan);

/// Direct taps above this count do not fit the direct kernels' launch parameters; they are
/// read from the workspace instead (workspaceSpilledTaps).
inline constexpr std::size_t kMaxInlineDirectTaps = 4096;
/// Workspace pieces start on this alignment.
inline constexpr std::size_t kWorkspaceAlign = 256;
inline constexpr std::size_t alignWorkspace(std::size_t n)
{
    return (n + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign;
}

}  // namespace tessera::gpu::detail
