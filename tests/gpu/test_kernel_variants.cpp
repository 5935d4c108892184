// SPDX-License-Identifier: Apache-2.0
// The kernel-variant table and each variant's canImplement, asked about described devices (no
// GPU needed): every variant says yes where it applies and, where it does not, says why.

#include "filters/factories.h"
#include "values/errors.h"
#include "tessera/gpu/executor.h"
#include "gpu/plan/variant_support.h"
#include "planner_grid.h"
#include "variant_print.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace tessera::gpu {
namespace {

using detail::canImplement;
using filters::FilterSpec;
using V = KernelVariant;

constexpr PixelFormat kU8x1{PixelDepth::U8, 1};
constexpr PixelFormat kU8x3{PixelDepth::U8, 3};
constexpr PixelFormat kU8x4{PixelDepth::U8, 4};
constexpr PixelFormat kF32x1{PixelDepth::F32, 1};
constexpr PixelFormat kF32x4{PixelDepth::F32, 4};

/// An Ampere-less device: no tensor-core kernels, and no shared memory beyond the default.
DeviceInfo describedTuring()
{
    DeviceInfo d = test::describedH200();
    d.name = "described Turing";
    d.ccMajor = 7;
    d.sharedMemPerBlockOptin = 0;
    return d;
}

/// What `v` answers for spec on a 640 x 480 image of `format` (the kernel writing the input's
/// depth) on `device`.
Support ask(V v, const FilterSpec& spec, PixelFormat format, const DeviceInfo& device = test::describedH200())
{
    const auto q = detail::makeShapeQuery(spec, format, format, 640, 480, device);
    return canImplement(v, q);
}

/// Expects a refusal whose reason contains `why`.
void expectRefused(const Support& s, const std::string& why)
{
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason.find(why), std::string::npos)
        << "reason: \"" << s.reason << "\", expected it to mention \"" << why << "\"";
}

void expectAccepted(const Support& s)
{
    EXPECT_TRUE(s.ok) << s.reason;
    EXPECT_TRUE(s.reason.empty());
}

FilterSpec offCentre(FilterSpec s)
{
    s.anchor = filters::Point{0, 0};
    return s;
}

FilterSpec withConstantBorder(FilterSpec s, double value)
{
    s.border = filters::Border::Constant;
    s.borderValue = value;
    return s;
}

TEST(KernelVariants, TableNamesEveryVariantOnceInEnumOrder)
{
    const auto all = allKernelVariants();
    ASSERT_EQ(all.size(), 16u);
    std::set<std::string> names;
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(static_cast<std::size_t>(all[i]), i);
        const std::string name = toString(all[i]);
        EXPECT_FALSE(name.empty());
        EXPECT_TRUE(names.insert(name).second) << name << " named twice";
        EXPECT_EQ(parseKernelVariant(name), all[i]);
        const detail::VariantEntry& row = detail::variantEntry(all[i]);
        EXPECT_EQ(row.variant, all[i]);
        // Every row says whether it can run a plan, with which shape, at what cost, and how it
        // is launched (the note, workspace and details columns may be empty).
        EXPECT_NE(row.canImplement, nullptr) << name;
        EXPECT_NE(row.shape, nullptr) << name;
        EXPECT_NE(row.estimate, nullptr) << name;
        EXPECT_NE(row.run, nullptr) << name;
    }
    EXPECT_EQ(toString(V::DirectRgba8Walk), "direct-rgba8-walk");
    EXPECT_EQ(toString(V::DirectRgba8WalkHalf), "direct-rgba8-walk-half");
    EXPECT_EQ(toString(V::DirectRgba8Imma), "direct-rgba8-imma");
    EXPECT_EQ(toString(V::SeparableTwoPass), "separable-two-pass");
    EXPECT_EQ(toString(V::Fft), "fft");
    EXPECT_EQ(toString(V::FftRows), "fft-rows");
}

TEST(KernelVariants, MethodAndTensorCoresOfEachVariant)
{
    for (V v : {V::DirectRgba8WalkHalf, V::DirectRgba8Walk, V::DirectFixed, V::DirectTiled, V::DirectRgba8Imma,
                V::DirectTensor, V::DirectTensorPersistent}) {
        EXPECT_EQ(methodOf(v), Method::Direct) << toString(v);
    }
    for (V v : {V::SeparableWalk, V::SeparableSingle, V::SeparableTiled, V::SeparableTwoPass, V::SeparableTf32Walk,
                V::SeparableTensorWalk, V::SeparableTensor}) {
        EXPECT_EQ(methodOf(v), Method::Separable) << toString(v);
    }
    EXPECT_EQ(methodOf(V::Fft), Method::Fft);
    EXPECT_EQ(methodOf(V::FftRows), Method::Fft);
    const std::set<V> tensor{V::DirectRgba8Imma,   V::DirectTensor,        V::DirectTensorPersistent,
                             V::SeparableTf32Walk, V::SeparableTensorWalk, V::SeparableTensor};
    for (V v : allKernelVariants()) {
        EXPECT_EQ(usesTensorCores(v), tensor.count(v) == 1) << toString(v);
    }
}

TEST(KernelVariants, UnknownNamesAreInvalidInput)
{
    EXPECT_THROW(parseKernelVariant("direct-magic"), InvalidInput);
    try {
        parseKernelVariant("");
        ADD_FAILURE() << "expected InvalidInput";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("direct-fixed"), std::string::npos) << e.what();
    }
    for (Method m : {Method::Auto, Method::Direct, Method::Separable, Method::Fft}) {
        EXPECT_EQ(parseMethod(toString(m)), m);
    }
    EXPECT_THROW(parseMethod("fastest"), InvalidInput);
}

TEST(CanImplement, DirectRgba8Walk)
{
    expectAccepted(ask(V::DirectRgba8Walk, test::denseSpec(3), kU8x4));
    expectAccepted(ask(V::DirectRgba8Walk, filters::makeBox(5), kU8x4));
    expectRefused(ask(V::DirectRgba8Walk, test::denseSpec(7), kU8x4), "3 x 3 and 5 x 5");
    expectRefused(ask(V::DirectRgba8Walk, test::denseSpec(3), kU8x3), "RGBA");
    expectRefused(ask(V::DirectRgba8Walk, offCentre(test::denseSpec(3)), kU8x4), "centred anchor");
    expectRefused(ask(V::DirectRgba8Walk, withConstantBorder(test::denseSpec(3), 100.3), kU8x4), "byte");
}

// The walk's fp16 form: what the walk takes, 3 x 3 only, and only taps whose fp16 sums stay
// within its bound (direct_rgba8_bound.h).
TEST(CanImplement, DirectRgba8WalkHalf)
{
    expectAccepted(ask(V::DirectRgba8WalkHalf, test::denseSpec(3), kU8x4));
    expectRefused(ask(V::DirectRgba8WalkHalf, filters::makeBox(5), kU8x4), "3 x 3 only");
    expectRefused(ask(V::DirectRgba8WalkHalf, test::denseSpec(3), kU8x3), "RGBA");
    filters::FilterSpec strong;
    strong.kernel = filters::Kernel2D{3, 3, {-5, -5, -5, -5, 41, -5, -5, -5, -5}};
    expectRefused(ask(V::DirectRgba8WalkHalf, strong, kU8x4), "fp16 sums");
    filters::FilterSpec shifted = test::denseSpec(3);
    shifted.offset = -600.0;
    expectRefused(ask(V::DirectRgba8WalkHalf, shifted, kU8x4), "fp16 sums");
}

TEST(CanImplement, DirectRgba8Imma)
{
    expectAccepted(ask(V::DirectRgba8Imma, test::denseSpec(3), kU8x4));
    expectAccepted(ask(V::DirectRgba8Imma, filters::makeBox(5), kU8x4));
    expectAccepted(ask(V::DirectRgba8Imma, filters::makeSharpen(1.0), kU8x4));
    expectRefused(ask(V::DirectRgba8Imma, test::denseSpec(7), kU8x4), "3 x 3 and 5 x 5");
    expectRefused(ask(V::DirectRgba8Imma, test::denseSpec(3), kU8x3), "RGBA");
    expectRefused(ask(V::DirectRgba8Imma, test::denseSpec(3), kF32x4), "RGBA");
    expectRefused(ask(V::DirectRgba8Imma, offCentre(test::denseSpec(3)), kU8x4), "centred anchor");
    expectRefused(ask(V::DirectRgba8Imma, withConstantBorder(test::denseSpec(3), 100.3), kU8x4), "byte");
    expectRefused(ask(V::DirectRgba8Imma, test::denseSpec(3), kU8x4, describedTuring()), "compute capability");
    // Taps of about 50 leave 9 bits below the point: their rounding alone is over the limit.
    FilterSpec coarse = test::denseSpec(3);
    coarse.scale = 150.3;
    expectRefused(ask(V::DirectRgba8Imma, coarse, kU8x4), "16-bit taps");
}

TEST(CanImplement, DirectFixed)
{
    expectAccepted(ask(V::DirectFixed, test::denseSpec(3), kF32x1));
    expectAccepted(ask(V::DirectFixed, test::denseSpec(15), kU8x4));
    expectRefused(ask(V::DirectFixed, test::denseSpec(17), kF32x1), "3 to 15");
    FilterSpec wide = test::denseSpec(3);
    wide.kernel = filters::Kernel2D{5, 3, std::vector<double>(15, 1.0 / 15)};
    expectRefused(ask(V::DirectFixed, wide, kF32x1), "square odd");
    DeviceInfo small = describedTuring();
    small.sharedMemPerBlockOptin = 8 * 1024;  // below what a 15 x 15 window of four channels needs
    expectRefused(ask(V::DirectFixed, test::denseSpec(15), kF32x4, small), "shared memory");
}

TEST(CanImplement, DirectTiled)
{
    expectAccepted(ask(V::DirectTiled, test::denseSpec(31), kF32x4));
    expectAccepted(ask(V::DirectTiled, test::denseSpec(31), kU8x3, describedTuring()));
    // 255 x 255 over a 32 x 32 tile, four float channels: far past 48 KiB.
    expectRefused(ask(V::DirectTiled, test::denseSpec(255), kF32x4, describedTuring()), "shared memory");
}

TEST(CanImplement, DirectTensor)
{
    expectAccepted(ask(V::DirectTensor, test::denseSpec(3), kU8x4));
    expectAccepted(ask(V::DirectTensor, test::denseSpec(7), kU8x1));
    expectRefused(ask(V::DirectTensor, test::denseSpec(3), kU8x4, describedTuring()), "compute capability");
    expectRefused(ask(V::DirectTensor, test::denseSpec(3), kF32x1), "8-bit");
    expectRefused(ask(V::DirectTensor, test::denseSpec(31), kU8x4), "persistent");
    // Sharpen's taps sum to 9 in absolute value: fp16 could move a result by more than 0.5.
    expectRefused(ask(V::DirectTensor, filters::makeSharpen(1.0), kU8x4), "fp16");
}

TEST(CanImplement, DirectTensorPersistent)
{
    expectAccepted(ask(V::DirectTensorPersistent, test::denseSpec(31), kU8x4));
    expectRefused(ask(V::DirectTensorPersistent, test::denseSpec(3), kU8x4), "non-persistent");
    expectRefused(ask(V::DirectTensorPersistent, test::denseSpec(31), kU8x4, describedTuring()), "compute capability");
    expectRefused(ask(V::DirectTensorPersistent, test::denseSpec(65), kU8x1), "64 taps");
}

TEST(CanImplement, SeparableWalk)
{
    expectAccepted(ask(V::SeparableWalk, test::separableSpec(13), kF32x1));
    expectAccepted(ask(V::SeparableWalk, test::separableSpec(31), kF32x1));
    expectRefused(ask(V::SeparableWalk, test::separableSpec(13), kU8x1), "f32");
    expectRefused(ask(V::SeparableWalk, test::separableSpec(13), kF32x4), "one-channel");
    expectRefused(ask(V::SeparableWalk, test::separableSpec(49), kF32x1), "32");
    expectRefused(ask(V::SeparableWalk, test::denseSpec(5), kF32x1), "rank-1");
}

TEST(CanImplement, SeparableTf32Walk)
{
    expectAccepted(ask(V::SeparableTf32Walk, test::separableSpec(13), kF32x1));
    expectAccepted(ask(V::SeparableTf32Walk, test::separableSpec(31), kF32x1));
    expectRefused(ask(V::SeparableTf32Walk, test::separableSpec(13), kU8x1), "f32");
    expectRefused(ask(V::SeparableTf32Walk, test::separableSpec(13), kF32x4), "one-channel");
    expectRefused(ask(V::SeparableTf32Walk, test::separableSpec(49), kF32x1), "32");
    // 31 row taps anchored at column 1 need 3 zero taps in front to align: 34 in all.
    FilterSpec anchoredAt1 = test::separableSpec(31);
    anchoredAt1.anchor = filters::Point{1, 15};
    expectRefused(ask(V::SeparableTf32Walk, anchoredAt1, kF32x1), "32");
    expectAccepted(ask(V::SeparableTf32Walk, offCentre(test::separableSpec(31)), kF32x1));
    expectRefused(ask(V::SeparableTf32Walk, test::separableSpec(13), kF32x1, describedTuring()), "8.0");
    expectRefused(ask(V::SeparableTf32Walk, test::denseSpec(5), kF32x1), "rank-1");
}

TEST(CanImplement, SeparableSingle)
{
    expectAccepted(ask(V::SeparableSingle, test::separableSpec(13), kU8x1));
    expectAccepted(ask(V::SeparableSingle, test::separableSpec(49), kF32x1));
    expectRefused(ask(V::SeparableSingle, test::separableSpec(13), kU8x3), "one channel");
    expectRefused(ask(V::SeparableSingle, test::separableSpec(63), kU8x1), "61 row taps");
    expectRefused(ask(V::SeparableSingle, test::denseSpec(5), kU8x1), "rank-1");
}

TEST(CanImplement, SeparableTiled)
{
    expectAccepted(ask(V::SeparableTiled, test::separableSpec(13), kU8x3));
    expectRefused(ask(V::SeparableTiled, test::denseSpec(13), kU8x3), "rank-1");
    expectRefused(ask(V::SeparableTiled, test::separableSpec(255), kF32x4, describedTuring()), "shared memory");
}

TEST(CanImplement, SeparableTwoPass)
{
    expectAccepted(ask(V::SeparableTwoPass, test::separableSpec(255), kF32x4, describedTuring()));
    expectRefused(ask(V::SeparableTwoPass, test::denseSpec(5), kF32x4), "rank-1");
    // Longer than the launch parameters hold (no factory makes one; a made-up spec does).
    FilterSpec longRow = test::separableSpec(3);
    longRow.kernel = filters::Kernel2D{300, 3, std::vector<double>(900, 1.0 / 900)};
    longRow.separable->row.assign(300, 1.0 / 300);
    expectRefused(ask(V::SeparableTwoPass, longRow, kF32x1), "at most 256");
}

TEST(CanImplement, SeparableTensorWalk)
{
    expectAccepted(ask(V::SeparableTensorWalk, test::separableSpec(13), kU8x4));
    expectRefused(ask(V::SeparableTensorWalk, test::separableSpec(13), kU8x3), "RGBA8");
    expectRefused(ask(V::SeparableTensorWalk, test::separableSpec(49), kU8x4), "33 taps");
    expectRefused(ask(V::SeparableTensorWalk, test::denseSpec(5), kU8x4), "rank-1");
    expectRefused(ask(V::SeparableTensorWalk, test::separableSpec(13), kU8x4, describedTuring()), "compute capability");
}

TEST(CanImplement, SeparableTensor)
{
    expectAccepted(ask(V::SeparableTensor, test::separableSpec(49), kU8x4));
    expectAccepted(ask(V::SeparableTensor, test::separableSpec(9), kU8x3));
    expectRefused(ask(V::SeparableTensor, test::separableSpec(9), kF32x1), "8-bit");
    expectRefused(ask(V::SeparableTensor, test::separableSpec(65), kU8x1), "64 taps");
    expectRefused(ask(V::SeparableTensor, withConstantBorder(test::separableSpec(9), 100.3), kU8x1), "border");
}

TEST(CanImplement, Fft)
{
    expectAccepted(ask(V::Fft, test::denseSpec(31), kF32x1));
    expectAccepted(ask(V::Fft, test::denseSpec(255), kU8x3, describedTuring()));
    FilterSpec torn = test::denseSpec(5);
    torn.kernel.weights.pop_back();
    expectRefused(ask(V::Fft, torn, kF32x1), "weights");
}

TEST(CanImplement, FftRows)
{
    expectAccepted(ask(V::FftRows, test::denseSpec(1), kU8x1));
    expectAccepted(ask(V::FftRows, test::denseSpec(31), kF32x1));
    expectAccepted(ask(V::FftRows, offCentre(test::denseSpec(15)), kU8x4));
    expectAccepted(ask(V::FftRows, withConstantBorder(test::denseSpec(63), 100.3), kF32x4));
    FilterSpec wide = test::denseSpec(64);
    expectAccepted(ask(V::FftRows, wide, kF32x1));
    expectRefused(ask(V::FftRows, test::denseSpec(65), kF32x1), "at most 64 taps per side");
    // 31 kernel rows need 69 KiB of shared memory; without opting in a block has 48.
    expectRefused(ask(V::FftRows, test::denseSpec(31), kF32x1, describedTuring()), "shared memory");
    expectAccepted(ask(V::FftRows, test::denseSpec(11), kF32x1, describedTuring()));
    FilterSpec torn = test::denseSpec(5);
    torn.kernel.weights.pop_back();
    expectRefused(ask(V::FftRows, torn, kF32x1), "weights");
}

}  // namespace
}  // namespace tessera::gpu
