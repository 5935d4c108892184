// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/kernel_variant.h"

#include "gpu/plan/variant_rows.h"
#include "gpu/plan/variant_support.h"
#include "values/errors.h"
#include "tessera/gpu/values.h"

#include <algorithm>
#include <array>

namespace tessera::gpu {

namespace {

using namespace detail;  // the rows' functions
using V = KernelVariant;

// The one list of kernels, one row each holding all that is known of the variant
// (variant_support.h names the columns). Order matters: within a method and a tensor-core setting
// the planner takes the first row whose canImplement says yes, so the specialised kernels come
// before the general ones they beat.
constexpr std::array<VariantEntry, 16> kVariants{{
    // variant, name, method, tensor cores,
    //     canImplement, shape, estimate, note, workspace, details, run
    {V::DirectRgba8WalkHalf, "direct-rgba8-walk-half", Method::Direct, false, canDirectRgba8WalkHalf,
     directRgba8WalkShape, estimateDirectHalf, nullptr, workspaceSpilledTaps, detailsRgba8WalkHalf,
     runDirectRgba8WalkHalf},
    {V::DirectRgba8Walk, "direct-rgba8-walk", Method::Direct, false, canDirectRgba8Walk, directRgba8WalkShape,
     estimateDirect, nullptr, workspaceSpilledTaps, detailsRgba8Walk, runDirectRgba8Walk},
    {V::DirectFixed, "direct-fixed", Method::Direct, false, canDirectFixed, directFixedShape, estimateDirect, nullptr,
     workspaceSpilledTaps, nullptr, runDirectFixed},
    {V::DirectTiled, "direct-tiled", Method::Direct, false, canDirectTiled, directTiledShape, estimateDirect, nullptr,
     workspaceSpilledTaps, nullptr, runDirectTiled},
    {V::DirectRgba8Imma, "direct-rgba8-imma", Method::Direct, true, canDirectRgba8Imma, directRgba8ImmaShape,
     estimateRgba8Imma, rgba8FixedNote, workspaceSpilledTaps, nullptr, runDirectRgba8Imma},
    {V::DirectTensor, "direct-tensor", Method::Direct, true, canDirectTensor, directTensorShape, estimateDirectTensor,
     noteDirectTensor, workspaceTensorDirect, nullptr, runDirectTensor},
    {V::DirectTensorPersistent, "direct-tensor-persistent", Method::Direct, true, canDirectTensorPersistent,
     directTensorPersistentShape, estimateDirectTensor, noteDirectTensor, workspaceTensorDirect, nullptr,
     runDirectTensorPersistent},
    {V::SeparableWalk, "separable-walk", Method::Separable, false, canSeparableWalk, separableWalkShape,
     estimateSeparable, nullptr, workspaceDirectTaps, detailsFloatWalk, runSeparableWalk},
    {V::SeparableSingle, "separable-single", Method::Separable, false, canSeparableSingle, separableSingleShape,
     estimateSeparable, nullptr, workspaceDirectTaps, nullptr, runSeparableSingle},
    {V::SeparableTiled, "separable-tiled", Method::Separable, false, canSeparableTiled, separableTiledShape,
     estimateSeparableTiled, nullptr, nullptr, nullptr, runSeparableTiled},
    {V::SeparableTwoPass, "separable-two-pass", Method::Separable, false, canSeparableTwoPass, separableTwoPassShape,
     estimateSeparableTwoPass, noteTwoPass, workspaceTwoPass, nullptr, runSeparableTwoPass},
    {V::SeparableTf32Walk, "separable-tf32-walk", Method::Separable, true, canSeparableTf32Walk, separableTf32WalkShape,
     estimateTf32Walk, tf32Note, workspaceDirectTaps, detailsFloatWalk, runSeparableTf32Walk},
    {V::SeparableTensorWalk, "separable-tensor-walk", Method::Separable, true, canSeparableTensorWalk,
     separableTensorWalkShape, estimateSeparableTensor, noteSeparableTensor, nullptr, nullptr, runSeparableTensorWalk},
    {V::SeparableTensor, "separable-tensor", Method::Separable, true, canSeparableTensor, separableTensorShape,
     estimateSeparableTensor, noteSeparableTensor, nullptr, nullptr, runSeparableTensor},
    {V::FftRows, "fft-rows", Method::Fft, false, canFftRows, fftRowsShape, estimateFftRows, nullptr, workspaceFftRows,
     nullptr, runFftRows},
    {V::Fft, "fft", Method::Fft, false, canFft, fftShape, estimateFft, nullptr, workspaceFft, nullptr, runFft},
}};

// The table is indexed by the enum's value; a row out of place would name the wrong kernel.
constexpr bool tableInEnumOrder()
{
    for (std::size_t i = 0; i < kVariants.size(); ++i) {
        if (static_cast<std::size_t>(kVariants[i].variant) != i) {
            return false;
        }
    }
    return true;
}
static_assert(tableInEnumOrder(), "kVariants must list the variants in the enum's order");

constexpr std::array<KernelVariant, kVariants.size()> kAllVariants = [] {
    std::array<KernelVariant, kVariants.size()> all{};
    for (std::size_t i = 0; i < kVariants.size(); ++i) {
        all[i] = kVariants[i].variant;
    }
    return all;
}();

}  // namespace

std::span<const KernelVariant> allKernelVariants()
{
    return kAllVariants;
}

std::string toString(KernelVariant v)
{
    return std::string(detail::variantEntry(v).name);
}

KernelVariant parseKernelVariant(const std::string& text)
{
    std::string names;
    for (const auto& e : kVariants) {
        if (text == e.name) {
            return e.variant;
        }
        names += (names.empty() ? "" : ", ") + std::string(e.name);
    }
    throw InvalidInput("unknown kernel variant '" + text + "' (expected one of " + names + ")");
}

Method methodOf(KernelVariant v)
{
    return detail::variantEntry(v).method;
}

bool usesTensorCores(KernelVariant v)
{
    return detail::variantEntry(v).tensorCores;
}

namespace detail {

std::span<const VariantEntry> variantTable()
{
    return kVariants;
}

const VariantEntry& variantEntry(KernelVariant v)
{
    return kVariants[static_cast<std::size_t>(v)];
}

Support canImplement(KernelVariant v, const ShapeQuery& q)
{
    return variantEntry(v).canImplement(q);
}

ShapeQuery makeShapeQuery(const filters::FilterSpec& spec, PixelFormat format, PixelFormat kernelOutput, int width,
                          int height, const DeviceInfo& device)
{
    ShapeQuery q;
    q.spec = &spec;
    q.device = &device;
    q.kw = spec.kernel.width;
    q.kh = spec.kernel.height;
    q.anchorX = spec.effectiveAnchor().x;
    q.anchorY = spec.effectiveAnchor().y;
    q.input = format;
    q.kernelOutput = kernelOutput;
    q.width = width;
    q.height = height;
    q.sharedLimit = device.sharedMemPerBlockOptin > 0 ? device.sharedMemPerBlockOptin : kDefaultDynamicSharedBytes;
    q.smCount = device.smCount;
    q.border = spec.border;
    q.borderValue = spec.borderValue;
    return q;
}

Support separableSpec(const ShapeQuery& q)
{
    if (!q.spec->separable) {
        return Support::no("the separable method needs a rank-1 kernel");
    }
    if (q.kw > kMaxSeparableTaps || q.kh > kMaxSeparableTaps) {
        return Support::no("the separable method takes at most " + std::to_string(kMaxSeparableTaps) +
                           " taps per side");
    }
    return Support::yes();
}

}  // namespace detail

}  // namespace tessera::gpu
