// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the variant table, one row per kernel variant holding all that the planner
// and run() know of it: its name, method and tensor-core use, whether it can implement a plan
// and why not, its launch shape, its estimated time, what its plan says of its error, the
// workspace it needs and how it is launched. No code outside the row asks which variant it
// has in hand. canImplement, shape and run are defined in the variant's own file under
// kernels/ (named after the row); estimate, note, workspace and details in plan/variant_rows.cpp.

#include "filters/filter_spec.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/executor.h"
#include "tessera/gpu/pixel_format.h"

#include <cstddef>
#include <span>
#include <string>
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

class CostModel;

/// What a variant's time estimate depends on besides the shape query.
struct CostQuery {
    const ShapeQuery& q;
    const CostModel& cost;
    double pixels = 0.0;  ///< width x height
    double bytes = 0.0;   ///< bytes read and written by the kernel (input and output depths)
};

/// What a variant's launch gets: the plan, the source, the image the kernel writes (the plan's
/// output, or its float intermediate when a conversion follows), the plan's workspace, the
/// stream and, for the kernels that can run part of the image, the rows.
struct LaunchArgs {
    const Plan& plan;
    const DeviceImage& src;
    const DeviceImage& dst;
    char* workspace;
    StreamView stream;
    RowSpan rows;
};

/// One row of the variant table.
struct VariantEntry {
    KernelVariant variant;
    std::string_view name;
    Method method;
    bool tensorCores;
    /// Never throws: says no, with the reason, when the variant cannot carry out the query.
    Support (*canImplement)(const ShapeQuery&);
    /// Launch geometry; only called on a query the variant can implement. The planner sets the
    /// shape's variant to the row's, so two forms of one kernel may share a shape function.
    LaunchShape (*shape)(const ShapeQuery&);
    /// Estimated kernel time in ms (cost_model.h); only called on a query it can implement.
    double (*estimate)(const CostQuery&);
    /// What the plan's reason adds when this variant is chosen ("; fp16 taps, error at most
    /// ..."), or null for nothing.
    std::string (*note)(const filters::FilterSpec&);
    /// Lays out what the variant needs in the plan's workspace from `offset` (taps, counters,
    /// intermediates, the FFT's buffers; PlanData's fields say where) and returns the bytes it
    /// takes there; null for nothing. Throws what planning the variant may throw (NotSupported).
    std::size_t (*workspace)(const Plan&, PlanData&, std::size_t offset);
    /// What Plan::describe() adds for this variant (its number form and bound), or null.
    std::string (*details)(const Plan&);
    /// Enqueues the kernel(s) on args.stream; throws CudaError on a failed launch.
    void (*run)(const LaunchArgs&);
};

/// The variant table, in the planner's order of preference (kernel_variant.cpp).
std::span<const VariantEntry> variantTable();
/// The row of `v`. Never throws.
const VariantEntry& variantEntry(KernelVariant v);
/// variantEntry(v).canImplement(q). Never throws.
Support canImplement(KernelVariant v, const ShapeQuery& q);

// The answers and launches, defined in the kernel's own file.
Support canDirectRgba8WalkHalf(const ShapeQuery& q);
void runDirectRgba8WalkHalf(const LaunchArgs& a);
Support canDirectRgba8Walk(const ShapeQuery& q);
LaunchShape directRgba8WalkShape(const ShapeQuery& q);
void runDirectRgba8Walk(const LaunchArgs& a);
Support canDirectFixed(const ShapeQuery& q);
LaunchShape directFixedShape(const ShapeQuery& q);
void runDirectFixed(const LaunchArgs& a);
Support canDirectTiled(const ShapeQuery& q);
LaunchShape directTiledShape(const ShapeQuery& q);
void runDirectTiled(const LaunchArgs& a);
Support canDirectRgba8Imma(const ShapeQuery& q);
LaunchShape directRgba8ImmaShape(const ShapeQuery& q);
void runDirectRgba8Imma(const LaunchArgs& a);
Support canDirectTensor(const ShapeQuery& q);
LaunchShape directTensorShape(const ShapeQuery& q);
void runDirectTensor(const LaunchArgs& a);
Support canDirectTensorPersistent(const ShapeQuery& q);
LaunchShape directTensorPersistentShape(const ShapeQuery& q);
void runDirectTensorPersistent(const LaunchArgs& a);
Support canSeparableWalk(const ShapeQuery& q);
LaunchShape separableWalkShape(const ShapeQuery& q);
void runSeparableWalk(const LaunchArgs& a);
Support canSeparableSingle(const ShapeQuery& q);
LaunchShape separableSingleShape(const ShapeQuery& q);
void runSeparableSingle(const LaunchArgs& a);
Support canSeparableTiled(const ShapeQuery& q);
LaunchShape separableTiledShape(const ShapeQuery& q);
void runSeparableTiled(const LaunchArgs& a);
Support canSeparableTwoPass(const ShapeQuery& q);
LaunchShape separableTwoPassShape(const ShapeQuery& q);
void runSeparableTwoPass(const LaunchArgs& a);
Support canSeparableTf32Walk(const ShapeQuery& q);
LaunchShape separableTf32WalkShape(const ShapeQuery& q);
void runSeparableTf32Walk(const LaunchArgs& a);
Support canSeparableTensorWalk(const ShapeQuery& q);
LaunchShape separableTensorWalkShape(const ShapeQuery& q);
void runSeparableTensorWalk(const LaunchArgs& a);
Support canSeparableTensor(const ShapeQuery& q);
LaunchShape separableTensorShape(const ShapeQuery& q);
void runSeparableTensor(const LaunchArgs& a);
Support canFftRows(const ShapeQuery& q);
LaunchShape fftRowsShape(const ShapeQuery& q);
void runFftRows(const LaunchArgs& a);
Support canFft(const ShapeQuery& q);
LaunchShape fftShape(const ShapeQuery& q);
void runFft(const LaunchArgs& a);

/// Whether the separable variants can take the spec at all: rank 1 and at most
/// kMaxSeparableTaps per side (their launch parameters' tap capacity). Never throws.
inline constexpr int kMaxSeparableTaps = 256;
Support separableSpec(const ShapeQuery& q);

}  // namespace tessera::gpu::detail
