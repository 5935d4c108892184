// SPDX-License-Identifier: Apache-2.0
// The planning half of the variant table's rows: estimates, notes, workspaces and details.
#include "gpu/plan/variant_rows.h"

#include "gpu/kernels/direct/direct_rgba8_bound.h"
#include "gpu/kernels/tensor/direct_rgba8_fixed.h"
#include "gpu/kernels/tensor/separable_tf32.h"
#include "gpu/kernels/tensor/tensor_conv.h"
#include "gpu/plan/cost_model.h"
#include "gpu/plan/plan_data.h"

#include <algorithm>
#include <cstdio>

namespace tessera::gpu::detail {

namespace {

int taps(const CostQuery& c)
{
    return c.q.kw * c.q.kh;
}

std::size_t floatImageBytes(const Plan& plan)
{
    return alignWorkspace(static_cast<std::size_t>(plan.width) * plan.height * plan.input.channels * sizeof(float));
}

std::string tensorNote(const filters::FilterSpec& spec, bool separable)
{
    char note[96];
    std::snprintf(note, sizeof note, "; fp16 taps, error at most %.2g", tensorErrorBound(spec, separable));
    return note;
}

}  // namespace

double estimateDirect(const CostQuery& c)
{
    return c.cost.direct(c.pixels, c.q.input.channels, taps(c), c.bytes);
}

double estimateDirectHalf(const CostQuery& c)
{
    // Two channels per fp16 instruction: the bytes decide its estimate, and a tie with the
    // integer tensor kernel goes to this one, which needs no tensor cores.
    return c.cost.direct(c.pixels, c.q.input.channels / 2, taps(c), c.bytes);
}

double estimateRgba8Imma(const CostQuery& c)
{
    return c.cost.imma(rgba8ImmaCount(c.q.kw, c.pixels), c.bytes);
}

double estimateDirectTensor(const CostQuery& c)
{
    return c.cost.tensor(tensorMmaCount(*c.q.spec, c.q.input.channels, c.q.width, c.q.height, false),
                         c.pixels * c.q.input.channels, c.bytes);
}

double estimateSeparable(const CostQuery& c)
{
    return c.cost.separable(c.pixels, c.q.input.channels, c.q.kw, c.q.kh, c.bytes, kSeparableBandwidthShare);
}

double estimateSeparableTiled(const CostQuery& c)
{
    return c.cost.separable(c.pixels, c.q.input.channels, c.q.kw, c.q.kh, c.bytes, kSeparableTiledBandwidthShare);
}

double estimateSeparableTwoPass(const CostQuery& c)
{
    return estimateSeparable(c) * kTwoPassPenalty;
}

double estimateTf32Walk(const CostQuery& c)
{
    return c.cost.tf32(tf32WalkMmaCount(c.q.kw, c.q.kh, c.q.anchorX, c.pixels), c.bytes, kSeparableBandwidthShare);
}

double estimateSeparableTensor(const CostQuery& c)
{
    return c.cost.tensor(tensorMmaCount(*c.q.spec, c.q.input.channels, c.q.width, c.q.height, true),
                         c.pixels * c.q.input.channels, c.bytes);
}

double estimateFftRows(const CostQuery& c)
{
    const int bytesPerSample = c.q.input.bytesPerPixel() / c.q.input.channels;
    return c.cost.fftRows(c.pixels, c.q.input.channels, bytesPerSample, c.q.kw, c.q.kh, c.bytes);
}

double estimateFft(const CostQuery& c)
{
    return c.cost.fft(c.pixels, c.q.input.channels, c.q.kw, c.q.kh);
}

std::string noteDirectTensor(const filters::FilterSpec& spec)
{
    return tensorNote(spec, false);
}

std::string noteSeparableTensor(const filters::FilterSpec& spec)
{
    return tensorNote(spec, true);
}

std::string noteTwoPass(const filters::FilterSpec& /*spec*/)
{
    return "; two-pass";
}

std::string tf32Note(const filters::FilterSpec& spec)
{
    char note[160];
    std::snprintf(note, sizeof note,
                  "; three TF32 products per tap, error at most %.2g x (|scale| sum|row| sum|column| max|in| + "
                  "|offset|)",
                  tf32WalkRelativeBound(spec.kernel.width, spec.kernel.height, spec.effectiveAnchor().x));
    return note;
}

std::string rgba8FixedNote(const filters::FilterSpec& spec)
{
    const Rgba8FixedTaps fixed = rgba8FixedTaps(spec);
    char note[128];
    std::snprintf(note, sizeof note, "; integer products of 16-bit taps (2^-%d), error at most %.2g of an output step",
                  fixed.shift, fixed.errorBound);
    return note;
}

std::size_t workspaceSpilledTaps(const Plan& /*plan*/, PlanData& data, std::size_t /*offset*/)
{
    if (data.taps.size() <= kMaxInlineDirectTaps) {
        return 0;
    }
    // run() copies them to the workspace's start, where the direct launches look for them.
    data.tapsWorkspaceBytes = alignWorkspace(data.taps.size() * sizeof(float));
    data.pinnedTaps = std::make_shared<RawPinnedBuffer>(data.taps.size() * sizeof(float));
    std::copy(data.taps.begin(), data.taps.end(), static_cast<float*>(data.pinnedTaps->data()));
    return data.tapsWorkspaceBytes;
}

std::size_t workspaceTensorDirect(const Plan& /*plan*/, PlanData& data, std::size_t offset)
{
    data.tileCounterOffset = offset;
    data.deviceTaps = std::make_shared<DeviceTaps>();
    return tensorDirectCounterBytes;
}

std::size_t workspaceTwoPass(const Plan& plan, PlanData& data, std::size_t offset)
{
    data.separableWorkspaceOffset = offset;
    return floatImageBytes(plan);
}

std::size_t workspaceDirectTaps(const Plan& /*plan*/, PlanData& data, std::size_t /*offset*/)
{
    data.directTaps = std::make_shared<DeviceTaps>();
    return 0;
}

std::size_t workspaceFftRows(const Plan& /*plan*/, PlanData& data, std::size_t /*offset*/)
{
    data.deviceTaps = std::make_shared<DeviceTaps>();
    data.directTaps = std::make_shared<DeviceTaps>();
    return 0;
}

std::size_t workspaceFft(const Plan& plan, PlanData& data, std::size_t offset)
{
    data.fftWorkspaceOffset = offset;
    data.fftWorkspaceBytes = alignWorkspace(planFft(plan, data));
    data.directTaps = std::make_shared<DeviceTaps>();
    return data.fftWorkspaceBytes;
}

std::string detailsRgba8Walk(const Plan& plan)
{
    if (!plan.data) {
        return {};
    }
    const auto& taps = plan.data->taps;
    const float offset = static_cast<float>(plan.spec.offset);
    char buf[128];
    if (rgba8TakesBiasedBytes(taps, offset)) {
        std::snprintf(buf, sizeof buf, ", bytes as 1 + b/2^15 (rounding within %.2g of an output step)",
                      rgba8BiasedErrorBound(taps, offset));
        return buf;
    }
    return ", bytes converted exactly (sum |w| too large for the one-instruction form)";
}

std::string detailsRgba8WalkHalf(const Plan& plan)
{
    if (!plan.data) {
        return {};
    }
    char buf[128];
    std::snprintf(buf, sizeof buf, ", fp16 sums of exact bytes (rounding within %.2g of an output step)",
                  rgba8HalfErrorBound(plan.data->taps, static_cast<float>(plan.spec.offset)));
    return buf;
}

std::string detailsFloatWalk(const Plan& plan)
{
    // The walks' float rule check (float_walk_common.cuh), which a known bound makes needless.
    return plan.outputMaxExponent == SourceValues::kUnknown
               ? ", outputs checked for NaN and infinity"
               : ", outputs below 2^" + std::to_string(plan.outputMaxExponent) + " by the source's bound, not checked";
}

}  // namespace tessera::gpu::detail
