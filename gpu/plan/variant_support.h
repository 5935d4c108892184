// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: what the planner asks each kernel variant (can it implement this plan, and
// with which launch shape), and the table that lists them. CUDA-free, so the planner and the
// host tests can use it; the answers are defined next to each kernel.

#include "filters/filter_spec.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/executor.h"
#include "tessera/gpu/pixel_format.h"

#include <cstddef>
#include <span>
#include <string_view>

namespace tessera::gpu::detail {

/// Dynamic shared memory a block may use without opting in (cudaFuncSetAttribute): the CUDA
/// default on every architecture since Volta. Launchers opt in above it; a device reporting no
/// opt-in limit is planned with it.
inline constexpr std::size_t kDefaultDynamicSharedBytes = 48 * 1024;

/// What a variant's fitness and launch shape depend on.
struct ShapeQuery {
    const filters::FilterSpec* spec = nullptr;  ///< the spec being planned (outlives the query)
    const DeviceInfo* device = nullptr;         ///< the device being planned for
    int kw = 1;
    int kh = 1;
    int anchorX = 0;
    int anchorY = 0;
    PixelFormat input;
    PixelFormat kernelOutput;  ///< the depth the kernel writes (PlanData::kernelOutput)
    int width = 0;
    int height = 0;
    std::size_t sharedLimit = kDefaultDynamicSharedBytes;
    int smCount = 0;
    filters::Border border = filters::Border::Reflect101;
    double borderValue = 0.0;
};

/// The query makePlan answers for spec on an input of `format` and size on `device`, the kernel
/// writing `kernelOutput`. Keeps pointers to spec and device. Never throws.
ShapeQuery makeShapeQuery(const filters::FilterSpec& spec, PixelFormat format, PixelFormat kernelOutput, int width,
                          int height, const DeviceInfo& device);

/// One row of the variant table.
struct VariantEntry {
    KernelVariant variant;
    std::string_view name;
    Method method;
    bool tensorCores;
    /// Never throws: says no, with the reason, when the variant cannot carry out the query.
    Support (*canImplement)(const ShapeQuery&);
    /// Launch geometry; only called on a query the variant can implement.
    LaunchShape (*shape)(const ShapeQuery&);
};

/// The variant table, in the planner's order of preference (kernel_variant.cpp).
std::span<const VariantEntry> variantTable();
/// The row of `v`. Never throws.
const VariantEntry& variantEntry(KernelVariant v);
/// variantEntry(v).canImplement(q). Never throws.
Support canImplement(KernelVariant v, const ShapeQuery& q);

// The answers, one pair per variant, defined in the kernel's own file.
Support canDirectRgba8Walk(const ShapeQuery& q);
LaunchShape directRgba8WalkShape(const ShapeQuery& q);
Support canDirectFixed(const ShapeQuery& q);
LaunchShape directFixedShape(const ShapeQuery& q);
Support canDirectTiled(const ShapeQuery& q);
LaunchShape directTiledShape(const ShapeQuery& q);
Support canDirectRgba8Imma(const ShapeQuery& q);
LaunchShape directRgba8ImmaShape(const ShapeQuery& q);
Support canDirectTensor(const ShapeQuery& q);
Support canDirectTensorPersistent(const ShapeQuery& q);
LaunchShape directTensorShape(const ShapeQuery& q);
Support canSeparableWalk(const ShapeQuery& q);
LaunchShape separableWalkShape(const ShapeQuery& q);
Support canSeparableSingle(const ShapeQuery& q);
LaunchShape separableSingleShape(const ShapeQuery& q);
Support canSeparableTiled(const ShapeQuery& q);
LaunchShape separableTiledShape(const ShapeQuery& q);
Support canSeparableTwoPass(const ShapeQuery& q);
LaunchShape separableTwoPassShape(const ShapeQuery& q);
Support canSeparableTf32Walk(const ShapeQuery& q);
LaunchShape separableTf32WalkShape(const ShapeQuery& q);
Support canSeparableTensorWalk(const ShapeQuery& q);
LaunchShape separableTensorWalkShape(const ShapeQuery& q);
Support canSeparableTensor(const ShapeQuery& q);
LaunchShape separableTensorShape(const ShapeQuery& q);
Support canFftRows(const ShapeQuery& q);
LaunchShape fftRowsShape(const ShapeQuery& q);
Support canFft(const ShapeQuery& q);
LaunchShape fftShape(const ShapeQuery& q);

/// Whether the separable variants can take the spec at all: rank 1 and at most
/// kMaxSeparableTaps per side (their launch parameters' tap capacity). Never throws.
inline constexpr int kMaxSeparableTaps = 256;
Support separableSpec(const ShapeQuery& q);

}  // namespace tessera::gpu::detail
