// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "filters/float_range.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/kernel_variant.h"
#include "tessera/gpu/pixel_format.h"
#include "tessera/gpu/resources.h"

#include <cstddef>
#include <limits>
#include <memory>
#include <string>

namespace tessera::gpu {

/// Launch geometry chosen by the planner.
struct LaunchShape {
    int blockX = 0;
    int blockY = 0;
    int tileWidth = 0;   ///< output pixels per block, horizontally
    int tileHeight = 0;  ///< output pixels per block, vertically
    int gridX = 0;
    int gridY = 0;
    std::size_t sharedBytes = 0;
    KernelVariant variant = KernelVariant::DirectTiled;  ///< the kernel that runs
    /// The compiled instance of a templated variant: the kernel side K for DirectFixed and
    /// the RGBA8 walks, the tap-width class (8, 16, 32 or 64) for DirectTensor,
    /// DirectTensorPersistent and SeparableTensor; 0 for the others.
    int compiledSize = 0;
};

struct PlanData;  // method-specific data prepared at plan time (taps, FFT sizes)

/// What run() will do: a value that can be reused for any number of runs, on any stream of
/// its device, also concurrently.
struct Plan {
    filters::FilterSpec spec;
    PixelFormat input;
    PixelFormat output;
    int width = 0;
    int height = 0;
    DeviceId device{0};  ///< the GPU the plan is for
    Method method = Method::Direct;
    LaunchShape shape;
    bool tensorCores = false;        ///< direct or separable on tensor cores (fp16 taps)
    std::size_t workspaceBytes = 0;  ///< device memory run() needs, provided by the caller
    std::string reason;              ///< why this method was chosen
    /// Every output, and every intermediate sum of the step, is finite and below
    /// 2^outputMaxExponent in magnitude, by the source's known bound (SourceValues) and the
    /// taps; SourceValues::kUnknown when the source's values are not known to be bounded. A
    /// known bound lets the separable walks skip the float rule's check of their outputs.
    int outputMaxExponent = std::numeric_limits<int>::max();
    std::shared_ptr<const PlanData> data;

    /// One line: method, variant, shape, workspace and reason. Never throws but for bad_alloc.
    std::string describe() const;
};

/// What a caller knows of the values a plan's runs will read, from one scan of the image
/// (filters/float_range.h). The default knows nothing and forbids nothing.
struct SourceValues {
    static constexpr int kUnknown = std::numeric_limits<int>::max();
    /// False when the image holds NaN, infinity or too wide a range for a transform's error
    /// bound (filters::transformSafe): the automatic choice then keeps off the FFT method
    /// wherever another method can run.
    bool transformsSafe = true;
    /// Every value is finite and |x| < 2^maxExponent; kUnknown when that is not known. Integer
    /// inputs need no scan: their depth bounds them.
    int maxExponent = kUnknown;
    bool operator==(const SourceValues&) const = default;
};

/// What a scan of an image's values tells the planner: transformsSafe from
/// filters::transformSafe, the bound from the largest exponent when the image is finite.
SourceValues sourceValuesOf(const filters::FloatRange& range);

/// Plans `spec` for an input of `format` and size on `device`. `force` overrides the choice.
/// `values`: what is known of the source's values (see SourceValues).
/// Throws InvalidInput for an empty image or a channel count other than 1, 3 or 4, and
/// NotSupported (with the reason) when the forced method or TensorCores::On cannot run the
/// spec; both are std::invalid_argument. Cheap; host-only except that an FFT plan prepares the
/// kernel spectrum lazily at first run.
Plan makePlan(const filters::FilterSpec& spec, PixelFormat format, int width, int height, const DeviceInfo& device,
              Method force = Method::Auto, TensorCores tensor = TensorCores::Auto, SourceValues values = {});

/// As makePlan, with the kernel variant named instead of chosen (the tests and the benchmark
/// compare the variants of one method). Throws NotSupported, with the variant's own reason,
/// when `variant` cannot implement the spec.
Plan makePlanForVariant(const filters::FilterSpec& spec, PixelFormat format, int width, int height,
                        const DeviceInfo& device, KernelVariant variant);

/// Output rows a caller needs, [first, first + count); count < 0: through the last row.
struct RowSpan {
    int first = 0;
    int count = -1;
};

/// Enqueues the filter on `stream` (on plan.device): reads src, writes dst (both device
/// images of plan.width x plan.height, formats plan.input / plan.output, dst not overlapping
/// src). `workspace` holds plan.workspaceBytes bytes on the device (may be null when 0).
/// `rows` may narrow the output rows needed: a method that can skip the others does (their
/// content is then unspecified), the rest compute every row; the rows read stay those of the
/// whole src, so a view with halo rows above and below computes its inner rows from real
/// neighbours. Never synchronises; throws InvalidInput when the images, workspace or stream do
/// not match the plan, CudaError if a launch fails.
void run(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, void* workspace, const Stream& stream,
         RowSpan rows = {});
/// The same on a stream the caller may own (see StreamView); same throws.
void run(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, void* workspace, StreamView stream,
         RowSpan rows = {});

}  // namespace tessera::gpu
