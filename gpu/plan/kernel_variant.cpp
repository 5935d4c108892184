// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/kernel_variant.h"

#include "values/errors.h"
#include "gpu/plan/variant_support.h"

#include <algorithm>
#include <array>

namespace tessera::gpu {

namespace {

using detail::VariantEntry;
using V = KernelVariant;

// The one list of kernels. Order matters: within a method and a tensor-core setting the planner
// takes the first row whose canImplement says yes, so the specialised kernels come before the
// general ones they beat.
constexpr std::array<VariantEntry, 15> kVariants{{
    {V::DirectRgba8Walk, "direct-rgba8-walk", Method::Direct, false, detail::canDirectRgba8Walk,
     detail::directRgba8WalkShape},
    {V::DirectFixed, "direct-fixed", Method::Direct, false, detail::canDirectFixed, detail::directFixedShape},
    {V::DirectTiled, "direct-tiled", Method::Direct, false, detail::canDirectTiled, detail::directTiledShape},
    {V::DirectRgba8Imma, "direct-rgba8-imma", Method::Direct, true, detail::canDirectRgba8Imma,
     detail::directRgba8ImmaShape},
    {V::DirectTensor, "direct-tensor", Method::Direct, true, detail::canDirectTensor, detail::directTensorShape},
    {V::DirectTensorPersistent, "direct-tensor-persistent", Method::Direct, true, detail::canDirectTensorPersistent,
     detail::directTensorShape},
    {V::SeparableWalk, "separable-walk", Method::Separable, false, detail::canSeparableWalk,
     detail::separableWalkShape},
    {V::SeparableSingle, "separable-single", Method::Separable, false, detail::canSeparableSingle,
     detail::separableSingleShape},
    {V::SeparableTiled, "separable-tiled", Method::Separable, false, detail::canSeparableTiled,
     detail::separableTiledShape},
    {V::SeparableTwoPass, "separable-two-pass", Method::Separable, false, detail::canSeparableTwoPass,
     detail::separableTwoPassShape},
    {V::SeparableTf32Walk, "separable-tf32-walk", Method::Separable, true, detail::canSeparableTf32Walk,
     detail::separableTf32WalkShape},
    {V::SeparableTensorWalk, "separable-tensor-walk", Method::Separable, true, detail::canSeparableTensorWalk,
     detail::separableTensorWalkShape},
    {V::SeparableTensor, "separable-tensor", Method::Separable, true, detail::canSeparableTensor,
     detail::separableTensorShape},
    {V::FftRows, "fft-rows", Method::Fft, false, detail::canFftRows, detail::fftRowsShape},
    {V::Fft, "fft", Method::Fft, false, detail::canFft, detail::fftShape},
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
