// SPDX-License-Identifier: Apache-2.0
#include "gpu/plan/plan_notes.h"

#include "gpu/kernels/direct/direct_rgba8_bound.h"
#include "gpu/kernels/tensor/direct_rgba8_fixed.h"
#include "tessera/gpu/executor.h"
#include "gpu/plan/plan_data.h"
#include "gpu/kernels/tensor/separable_tf32.h"

#include <cstdio>

namespace tessera::gpu {

std::string Plan::describe() const
{
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "%s %dx%d %s->%s, variant %s, block %dx%d, tile %dx%d, grid %dx%d, smem %zu B, workspace %zu B",
                  toString(method).c_str(), spec.kernel.width, spec.kernel.height, input.name().c_str(),
                  output.name().c_str(), toString(shape.variant).c_str(), shape.blockX, shape.blockY, shape.tileWidth,
                  shape.tileHeight, shape.gridX, shape.gridY, shape.sharedBytes, workspaceBytes);
    std::string text = buf;
    if (shape.compiledSize > 0) {
        text += ", compiled for " + std::to_string(shape.compiledSize);
    }
    if (shape.variant == KernelVariant::DirectRgba8Walk && data) {
        // The launch makes the same choice from the same taps and offset.
        const float offset = static_cast<float>(spec.offset);
        if (detail::rgba8WalkTakesHalfSums(shape.compiledSize, data->taps, offset)) {
            std::snprintf(buf, sizeof buf, ", fp16 sums of exact bytes (rounding within %.2g of an output step)",
                          detail::rgba8HalfErrorBound(data->taps, offset));
            text += buf;
        } else if (detail::rgba8TakesBiasedBytes(data->taps, offset)) {
            std::snprintf(buf, sizeof buf, ", bytes as 1 + b/2^15 (rounding within %.2g of an output step)",
                          detail::rgba8BiasedErrorBound(data->taps, offset));
            text += buf;
        } else {
            text += ", bytes converted exactly (sum |w| too large for the one-instruction form)";
        }
    }
    if (shape.variant == KernelVariant::SeparableWalk || shape.variant == KernelVariant::SeparableTf32Walk) {
        // The walks' float rule check (float_walk_common.cuh), which a known bound makes needless.
        text += outputMaxExponent == SourceValues::kUnknown
                    ? ", outputs checked for NaN and infinity"
                    : ", outputs below 2^" + std::to_string(outputMaxExponent) + " by the source's bound, not checked";
    }
    return text + (tensorCores ? ", tensor cores" : "") + (reason.empty() ? "" : " (" + reason + ")");
}

namespace detail {

/// The TF32 walk's note in a plan's reason: its split and its error bound relative to S.
std::string tf32Note(const filters::FilterSpec& spec)
{
    char note[160];
    std::snprintf(note, sizeof note,
                  "; three TF32 products per tap, error at most %.2g x (|scale| sum|row| sum|column| max|in| + "
                  "|offset|)",
                  tf32WalkRelativeBound(spec.kernel.width, spec.kernel.height, spec.effectiveAnchor().x));
    return note;
}

/// The integer RGBA8 kernel's note in a plan's reason: its fixed-point taps and their error bound.
std::string rgba8FixedNote(const filters::FilterSpec& spec)
{
    const Rgba8FixedTaps fixed = rgba8FixedTaps(spec);
    char note[128];
    std::snprintf(note, sizeof note, "; integer products of 16-bit taps (2^-%d), error at most %.2g of an output step",
                  fixed.shift, fixed.errorBound);
    return note;
}

}  // namespace detail
}  // namespace tessera::gpu
