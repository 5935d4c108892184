// SPDX-License-Identifier: Apache-2.0
// What makePlan chooses over a grid of formats and kernels on a described H200 (no GPU needed):
// the rules that hold for every plan, and the choices the benchmark's performance rests on.

#include "values/errors.h"
#include "tessera/gpu/executor.h"
#include "gpu/plan/plan_data.h"
#include "gpu/plan/variant_support.h"
#include "planner_grid.h"
#include "variant_print.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace tessera::gpu {
namespace {

using filters::FilterSpec;
using V = KernelVariant;

std::string caseName(PixelFormat f, int k, bool separable)
{
    return f.name() + " " + std::to_string(k) + "x" + std::to_string(k) + (separable ? " rank 1" : " dense");
}

FilterSpec gridSpec(int k, bool separable)
{
    return separable ? test::separableSpec(k) : test::denseSpec(k);
}

/// Calls f(format, k, separable, spec) for every point of the grid.
template <typename F>
void forEachGridPoint(F&& f)
{
    for (PixelDepth depth : test::kGridDepths) {
        for (int channels : test::kGridChannels) {
            for (int k : test::kGridSizes) {
                for (bool separable : {false, true}) {
                    const PixelFormat format{depth, channels};
                    SCOPED_TRACE(caseName(format, k, separable));
                    f(format, k, separable, gridSpec(k, separable));
                }
            }
        }
    }
}

// The variant a plan names belongs to its method and tensor-core setting, can implement the
// plan, and is the first such variant in the table: nothing earlier that would also do is
// skipped.
void expectFirstEligible(const Plan& plan, const FilterSpec& spec, const DeviceInfo& device)
{
    const V v = plan.shape.variant;
    EXPECT_EQ(methodOf(v), plan.method) << plan.describe();
    EXPECT_EQ(usesTensorCores(v), plan.tensorCores) << plan.describe();
    EXPECT_NE(plan.describe().find(toString(v)), std::string::npos) << plan.describe();
    const auto q = detail::makeShapeQuery(spec, plan.input, plan.data->kernelOutput, plan.width, plan.height, device);
    const Support s = detail::canImplement(v, q);
    EXPECT_TRUE(s.ok) << plan.describe() << ": " << s.reason;
    for (const auto& e : detail::variantTable()) {
        if (e.variant == v) {
            break;
        }
        if (e.method == plan.method && e.tensorCores == plan.tensorCores) {
            EXPECT_FALSE(e.canImplement(q).ok)
                << toString(e.variant) << " comes first and could run " << plan.describe();
        }
    }
}

TEST(PlannerRules, EveryPlanRunsTheFirstEligibleVariantOfItsMethod)
{
    const DeviceInfo d = test::describedH200();
    forEachGridPoint([&](PixelFormat format, int, bool separable, const FilterSpec& spec) {
        for (TensorCores t : {TensorCores::Auto, TensorCores::Off}) {
            for (Method m : {Method::Auto, Method::Direct, Method::Fft, Method::Separable}) {
                if (m != Method::Separable || separable) {
                    const Plan plan = makePlan(spec, format, test::kGridWidth, test::kGridHeight, d, m, t);
                    expectFirstEligible(plan, spec, d);
                }
            }
        }
    });
}

TEST(PlannerRules, TensorCoresOffNeverRunsOnTensorCores)
{
    const DeviceInfo d = test::describedH200();
    forEachGridPoint([&](PixelFormat format, int, bool, const FilterSpec& spec) {
        const Plan plan =
            makePlan(spec, format, test::kGridWidth, test::kGridHeight, d, Method::Auto, TensorCores::Off);
        EXPECT_FALSE(plan.tensorCores) << plan.describe();
        EXPECT_FALSE(usesTensorCores(plan.shape.variant)) << plan.describe();
    });
}

/// What the planner chose for the grid (4096 x 4096, described H200) before the variants had
/// names; the benchmark's timings rest on these choices staying put. Kernel sizes as in
/// test::kGridSizes (1, 3, 5, 7, 15, 31).
struct GridRow {
    PixelFormat format;
    bool separable;
    std::array<V, test::kGridSizes.size()> variants;
};

// Method::Auto, TensorCores::Auto. A 1 x 1 kernel is rank 1 even when made as a dense one.
// Short rank-1 kernels go to the direct kernels: where bytes decide, the separable ones move them
// more slowly (an H200 at 8192^2, 3 taps: RGBA8 0.224 ms direct against 0.660 separable, f32
// 0.137 against 0.180). Dense one-channel u16 and float kernels from 15 taps per side go to the
// row-spectrum FFT (f32 at 8192^2: 0.464 ms at 15 x 15 against 0.735 direct; 0.678 at 31 x 31
// against the whole-image cuFFT's 1.99), with 3 or 4 channels from 31 (at 15 x 15 the direct
// kernel wins there: f32 4-channel 2.94 ms against 5.63); 8-bit ones stay on tensor cores.
// One-channel float rank-1 kernels of 31 taps take the TF32 walk (0.270 ms against the FMA
// walk's 0.287); at 15 the FMA walk is faster (0.208 against 0.218). RGBA8 3 x 3 with mild taps
// (the grid's) takes the byte walk's fp16 form (0.152 ms against the integer tensor cores' 0.199
// and the float form's 0.203); 5 x 5 takes the integer tensor cores (0.265 against the byte
// walk's 0.376 and the separable tensor walk's 0.306).
const GridRow kAutoChoices[] = {
    {{PixelDepth::U8, 1},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectTensor, V::DirectTensor, V::DirectTensor, V::DirectTensorPersistent}},
    {{PixelDepth::U8, 1},
     true,
     {V::DirectTiled, V::DirectFixed, V::SeparableSingle, V::SeparableSingle, V::SeparableTensor, V::SeparableTensor}},
    {{PixelDepth::U8, 3},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectTensor, V::DirectTensor, V::DirectTensor, V::DirectTensorPersistent}},
    {{PixelDepth::U8, 3},
     true,
     {V::DirectTiled, V::DirectFixed, V::SeparableTensor, V::SeparableTensor, V::SeparableTensor, V::SeparableTensor}},
    {{PixelDepth::U8, 4},
     false,
     {V::DirectTiled, V::DirectRgba8WalkHalf, V::DirectRgba8Imma, V::DirectTensor, V::DirectTensor,
      V::DirectTensorPersistent}},
    {{PixelDepth::U8, 4},
     true,
     {V::DirectTiled, V::DirectRgba8WalkHalf, V::DirectRgba8Imma, V::SeparableTensorWalk, V::SeparableTensorWalk,
      V::SeparableTensorWalk}},
    {{PixelDepth::U16, 1},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::FftRows, V::FftRows}},
    {{PixelDepth::U16, 1},
     true,
     {V::DirectTiled, V::DirectFixed, V::SeparableSingle, V::SeparableSingle, V::SeparableSingle, V::SeparableSingle}},
    {{PixelDepth::U16, 3},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::FftRows}},
    {{PixelDepth::U16, 3},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::SeparableTiled, V::SeparableTiled}},
    {{PixelDepth::U16, 4},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::FftRows}},
    {{PixelDepth::U16, 4},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::SeparableTiled, V::SeparableTiled}},
    {{PixelDepth::F32, 1},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::FftRows, V::FftRows}},
    {{PixelDepth::F32, 1},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::SeparableWalk, V::SeparableWalk, V::SeparableTf32Walk}},
    {{PixelDepth::F32, 3},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::FftRows}},
    {{PixelDepth::F32, 3},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::SeparableTiled, V::SeparableTiled}},
    {{PixelDepth::F32, 4},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::FftRows}},
    {{PixelDepth::F32, 4},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::SeparableTiled, V::SeparableTiled}},
};

// Method::Direct, TensorCores::Off.
const GridRow kDirectChoices[] = {
    {{PixelDepth::U8, 1},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::U8, 1},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::U8, 3},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::U8, 3},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::U8, 4},
     false,
     {V::DirectTiled, V::DirectRgba8WalkHalf, V::DirectRgba8Walk, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::U8, 4},
     true,
     {V::DirectTiled, V::DirectRgba8WalkHalf, V::DirectRgba8Walk, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::U16, 1},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::U16, 1},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::U16, 3},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::U16, 3},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::U16, 4},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::U16, 4},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::F32, 1},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::F32, 1},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::F32, 3},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::F32, 3},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::F32, 4},
     false,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
    {{PixelDepth::F32, 4},
     true,
     {V::DirectTiled, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectFixed, V::DirectTiled}},
};

void expectGridChoices(const GridRow (&rows)[18], Method method, TensorCores tensor)
{
    const DeviceInfo d = test::describedH200();
    for (const GridRow& row : rows) {
        for (std::size_t i = 0; i < test::kGridSizes.size(); ++i) {
            const int k = test::kGridSizes[i];
            SCOPED_TRACE(caseName(row.format, k, row.separable));
            const Plan plan = makePlan(gridSpec(k, row.separable), row.format, test::kGridWidth, test::kGridHeight, d,
                                       method, tensor);
            EXPECT_EQ(plan.shape.variant, row.variants[i]) << plan.describe();
        }
    }
}

TEST(PlannerRules, AutoChoicesOnTheGridAreTheDocumentedOnes)
{
    expectGridChoices(kAutoChoices, Method::Auto, TensorCores::Auto);
}

TEST(PlannerRules, DirectChoicesOnTheGridAreTheDocumentedOnes)
{
    expectGridChoices(kDirectChoices, Method::Direct, TensorCores::Off);
}

// The rules the benchmark cases rely on, spelled out (they are also rows of the grid above).
TEST(PlannerRules, BenchmarkCasesTakeTheirKernels)
{
    const DeviceInfo d = test::describedH200();
    auto variantOf = [&](const FilterSpec& spec, PixelFormat f) {
        return makePlan(spec, f, 8192, 8192, d).shape.variant;
    };
    const PixelFormat rgba8{PixelDepth::U8, 4};
    const PixelFormat f32x1{PixelDepth::F32, 1};
    EXPECT_EQ(variantOf(test::denseSpec(3), f32x1), V::DirectFixed);
    EXPECT_EQ(variantOf(test::denseSpec(11), f32x1), V::DirectFixed);
    EXPECT_EQ(variantOf(test::denseSpec(15), f32x1), V::FftRows) << "15 x 15 dense f32 takes the row spectra";
    EXPECT_EQ(variantOf(test::denseSpec(31), f32x1), V::FftRows) << "31 x 31 dense f32 takes the row spectra";
    EXPECT_EQ(variantOf(test::denseSpec(65), f32x1), V::Fft) << "above 64 taps per side, cuFFT";
    EXPECT_EQ(variantOf(test::denseSpec(3), rgba8), V::DirectRgba8WalkHalf) << "mild RGBA8 3 x 3 sums in fp16";
    const FilterSpec sharpen = filters::makeSharpen(1.5);  // sum |w| beyond the fp16 form's bound
    EXPECT_EQ(variantOf(sharpen, rgba8), V::DirectRgba8Imma)
        << "strong RGBA8 3 x 3 on the integer tensor cores: " << makePlan(sharpen, rgba8, 8192, 8192, d).describe();
    EXPECT_EQ(variantOf(test::denseSpec(5), rgba8), V::DirectRgba8Imma) << "RGBA8 5 x 5 on the integer tensor cores";
    EXPECT_EQ(variantOf(test::denseSpec(15), rgba8), V::DirectTensor);
    EXPECT_EQ(variantOf(test::denseSpec(31), rgba8), V::DirectTensorPersistent);
    EXPECT_EQ(variantOf(test::separableSpec(31), f32x1), V::SeparableTf32Walk);
    EXPECT_EQ(variantOf(test::separableSpec(15), f32x1), V::SeparableWalk);
    EXPECT_EQ(variantOf(test::separableSpec(31), rgba8), V::SeparableTensorWalk);
}

TEST(PlannerRules, ForcedMethodsThatCannotRunSayWhy)
{
    const DeviceInfo d = test::describedH200();
    const PixelFormat u8x4{PixelDepth::U8, 4};
    EXPECT_THROW(makePlan(test::denseSpec(5), u8x4, 640, 480, d, Method::Separable), NotSupported);
    try {
        makePlan(test::denseSpec(5), {PixelDepth::F32, 1}, 640, 480, d, Method::Direct, TensorCores::On);
        ADD_FAILURE() << "expected NotSupported";
    } catch (const NotSupported& e) {
        EXPECT_NE(std::string(e.what()).find("tensor cores cannot run this filter"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("8-bit"), std::string::npos) << e.what();
    }
    // A device with 48 KiB per block cannot hold a 255 x 255 window of four float channels.
    DeviceInfo small = d;
    small.sharedMemPerBlockOptin = 0;
    try {
        makePlan(test::denseSpec(255), {PixelDepth::F32, 4}, 640, 480, small, Method::Direct, TensorCores::Off);
        ADD_FAILURE() << "expected NotSupported";
    } catch (const NotSupported& e) {
        EXPECT_NE(std::string(e.what()).find("shared memory"), std::string::npos) << e.what();
    }
    EXPECT_THROW(makePlan(test::denseSpec(3), u8x4, 0, 480, d), InvalidInput);
    EXPECT_THROW(makePlan(test::denseSpec(3), {PixelDepth::U8, 2}, 640, 480, d), InvalidInput);
}

// The separable walks check their outputs for NaN and infinity (the float rule) unless the
// plan knows the source bounded so that no sum can leave the finite range: a scanned f32
// image, an integer depth, or the step before in a chain.
TEST(PlannerRules, ABoundedSourceLetsTheWalksSkipTheirCheck)
{
    const DeviceInfo d = test::describedH200();
    const PixelFormat f32x1{PixelDepth::F32, 1};
    const FilterSpec gauss = test::separableSpec(31);
    const Plan unknown = makePlan(gauss, f32x1, 8192, 8192, d);
    ASSERT_EQ(unknown.shape.variant, V::SeparableTf32Walk);
    EXPECT_EQ(unknown.outputMaxExponent, SourceValues::kUnknown);
    EXPECT_NE(unknown.describe().find("checked for NaN and infinity"), std::string::npos) << unknown.describe();

    // |x| < 2^3 and sum |row| x sum |column| taps: the outputs stay below 2^(3 + log2 growth + 1).
    const Plan bounded = makePlan(gauss, f32x1, 8192, 8192, d, Method::Auto, TensorCores::Auto,
                                  SourceValues{.transformsSafe = true, .maxExponent = 3});
    EXPECT_EQ(bounded.shape.variant, V::SeparableTf32Walk);
    ASSERT_NE(bounded.outputMaxExponent, SourceValues::kUnknown);
    double row = 0.0;
    double col = 0.0;
    for (float t : bounded.data->rowTaps) {
        row += std::fabs(t);
    }
    for (float t : bounded.data->colTaps) {
        col += std::fabs(t);
    }
    const double growth = std::max(1.0, std::max(1.0, row) * std::max(1.0, col));
    EXPECT_GE(std::ldexp(1.0, bounded.outputMaxExponent), std::ldexp(growth, 3) + std::fabs(gauss.offset));
    EXPECT_LE(bounded.outputMaxExponent, 3 + std::ilogb(growth) + 2);
    EXPECT_NE(bounded.describe().find("not checked"), std::string::npos) << bounded.describe();

    // A source near the top of the range, a huge offset or a huge scale leaves the check on.
    EXPECT_EQ(makePlan(gauss, f32x1, 8192, 8192, d, Method::Auto, TensorCores::Auto,
                       SourceValues{.transformsSafe = true, .maxExponent = 110})
                  .outputMaxExponent,
              SourceValues::kUnknown);
    FilterSpec shifted = gauss;
    shifted.offset = 1e35;
    EXPECT_EQ(makePlan(shifted, f32x1, 8192, 8192, d, Method::Auto, TensorCores::Auto,
                       SourceValues{.transformsSafe = true, .maxExponent = 3})
                  .outputMaxExponent,
              SourceValues::kUnknown);
    FilterSpec loud = test::denseSpec(5);
    loud.scale = 1e33;
    EXPECT_EQ(makePlan(loud, f32x1, 640, 480, d, Method::Direct, TensorCores::Auto,
                       SourceValues{.transformsSafe = true, .maxExponent = 3})
                  .outputMaxExponent,
              SourceValues::kUnknown);

    // Integer inputs are bounded by their depth with nothing known: 8 bits below 2^8.
    const Plan bytes = makePlan(test::denseSpec(3), {PixelDepth::U8, 1}, 640, 480, d);
    ASSERT_NE(bytes.outputMaxExponent, SourceValues::kUnknown);
    EXPECT_GE(bytes.outputMaxExponent, 8);
    // A float source said to be below 2^3 but read as 16 bits keeps the smaller bound.
    EXPECT_LE(makePlan(test::denseSpec(3), {PixelDepth::U16, 1}, 640, 480, d, Method::Auto, TensorCores::Auto,
                       SourceValues{.transformsSafe = true, .maxExponent = 3})
                  .outputMaxExponent,
              makePlan(test::denseSpec(3), {PixelDepth::U16, 1}, 640, 480, d).outputMaxExponent);
}

}  // namespace
}  // namespace tessera::gpu
