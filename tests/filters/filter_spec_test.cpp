// SPDX-License-Identifier: Apache-2.0
// Names, inline kernels, separability, halos and spec validation.

#include "filters/factories.h"
#include "filters/filter_spec.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tessera::filters {
namespace {

template <typename F>
void expectInvalidArgument(F&& call, const std::string& message)
{
    try {
        call();
        ADD_FAILURE() << "expected std::invalid_argument: " << message;
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), message);
    }
}

TEST(FilterSpec, BorderNamesRoundTrip)
{
    for (const Border b : {Border::Reflect101, Border::Reflect, Border::Replicate, Border::Constant, Border::Wrap}) {
        EXPECT_EQ(parseBorder(toString(b)), b);
    }
    EXPECT_EQ(toString(Border::Reflect101), "reflect101");
    EXPECT_EQ(parseBorder("Reflect_101"), Border::Reflect101);
    EXPECT_EQ(parseBorder(" WRAP "), Border::Wrap);
}

TEST(FilterSpec, BadBorderNameIsReported)
{
    expectInvalidArgument([] { parseBorder("mirror"); },
                          "unknown border 'mirror' (expected reflect101, reflect, replicate, "
                          "constant or wrap)");
    expectInvalidArgument([] { parseBorder(""); }, "unknown border '' (expected reflect101, reflect, replicate, "
                                                   "constant or wrap)");
}

TEST(FilterSpec, OutputDepthNamesRoundTrip)
{
    for (const OutputDepth d : {OutputDepth::Same, OutputDepth::U8, OutputDepth::U16, OutputDepth::F32}) {
        EXPECT_EQ(parseOutputDepth(toString(d)), d);
    }
    EXPECT_EQ(parseOutputDepth("F32"), OutputDepth::F32);
    expectInvalidArgument([] { parseOutputDepth("f64"); },
                          "unknown output depth 'f64' (expected same, u8, u16 or f32)");
}

TEST(FilterSpec, ParsesInlineKernels)
{
    const Kernel2D k = parseInlineKernel("0,-1,0;-1,5,-1;0,-1,0");
    EXPECT_EQ(k.width, 3);
    EXPECT_EQ(k.height, 3);
    EXPECT_EQ(k.weights, (std::vector<double>{0, -1, 0, -1, 5, -1, 0, -1, 0}));

    const Kernel2D wide = parseInlineKernel(" 1.5, +2 , -3e-1 ");
    EXPECT_EQ(wide.width, 3);
    EXPECT_EQ(wide.height, 1);
    EXPECT_EQ(wide.weights, (std::vector<double>{1.5, 2.0, -0.3}));

    const Kernel2D blanks = parseInlineKernel("1 2; 3  4");
    EXPECT_EQ(blanks.width, 2);
    EXPECT_EQ(blanks.height, 2);
    EXPECT_EQ(blanks.weights, (std::vector<double>{1, 2, 3, 4}));

    const Kernel2D tall = parseInlineKernel("1;2;3;4");
    EXPECT_EQ(tall.width, 1);
    EXPECT_EQ(tall.height, 4);
}

TEST(FilterSpec, InlineKernelErrorsSayWhere)
{
    expectInvalidArgument([] { parseInlineKernel("1,2,3;4,x,6"); },
                          "inline kernel: row 2, value 2: 'x' is not a number");
    expectInvalidArgument([] { parseInlineKernel("1,2,3;4,5"); }, "inline kernel: row 2 has 2 values, row 1 has 3");
    expectInvalidArgument([] { parseInlineKernel("1,,3"); }, "inline kernel: row 1, value 2: '' is not a number");
    expectInvalidArgument([] { parseInlineKernel("1,2;;3,4"); }, "inline kernel: row 2 is empty");
    expectInvalidArgument([] { parseInlineKernel("1,2;"); }, "inline kernel: row 2 is empty");
    expectInvalidArgument([] { parseInlineKernel("   "); }, "inline kernel is empty");
    expectInvalidArgument([] { parseInlineKernel("1,inf"); }, "inline kernel: row 1, value 2: 'inf' is not a number");
    std::string tooWide = "1";
    for (int i = 0; i < kMaxKernelSide; ++i) {
        tooWide += ",1";
    }
    expectInvalidArgument([&] { parseInlineKernel(tooWide); }, "inline kernel: more than 255 values per side");
}

TEST(FilterSpec, DetectsRankOneKernels)
{
    const auto seed = testing::freshSeed();
    SCOPED_TRACE(testing::seedNote(seed));
    std::mt19937 rng(seed);
    const Kernel2D column = testing::randomKernel(1, 5, rng);
    const Kernel2D row = testing::randomKernel(4, 1, rng);
    Kernel2D k{4, 5, {}};
    for (int y = 0; y < 5; ++y) {
        for (int x = 0; x < 4; ++x) {
            k.weights.push_back(column.weights[static_cast<size_t>(y)] * row.weights[static_cast<size_t>(x)]);
        }
    }
    const auto pair = detectSeparable(k);
    ASSERT_TRUE(pair.has_value());
    ASSERT_EQ(pair->row.size(), 4u);
    ASSERT_EQ(pair->column.size(), 5u);
    for (int y = 0; y < 5; ++y) {
        for (int x = 0; x < 4; ++x) {
            EXPECT_NEAR(pair->column[static_cast<size_t>(y)] * pair->row[static_cast<size_t>(x)], k.at(x, y), 1e-12);
        }
    }
}

TEST(FilterSpec, RejectsRankTwoAndZeroKernels)
{
    EXPECT_FALSE(detectSeparable(parseInlineKernel("1,0;0,1")).has_value());
    EXPECT_FALSE(detectSeparable(parseInlineKernel("0,-1,0;-1,5,-1;0,-1,0")).has_value());
    // Rank 1 except for one entry just outside the tolerance.
    EXPECT_FALSE(detectSeparable(parseInlineKernel("1,2;2,4.001")).has_value());
    EXPECT_TRUE(detectSeparable(parseInlineKernel("1,2;2,4.0000000001")).has_value());
    EXPECT_FALSE(detectSeparable(parseInlineKernel("0,0;0,0")).has_value());
    EXPECT_TRUE(detectSeparable(parseInlineKernel("-3")).has_value());
}

TEST(FilterSpec, SymmetricKernelsFactorIntoEqualHalves)
{
    const auto pair = detectSeparable(parseInlineKernel("1,2,1;2,4,2;1,2,1"));
    ASSERT_TRUE(pair.has_value());
    EXPECT_EQ(pair->row, (std::vector<double>{1.0, 2.0, 1.0}));
    EXPECT_EQ(pair->column, (std::vector<double>{1.0, 2.0, 1.0}));
}

TEST(FilterSpec, FactoriesStoreSeparablePairs)
{
    for (const FilterSpec& spec :
         {makeGaussian(1.3), makeBox(5), makeBox(4, false), makeSobel(1, 0, 5), makeSobel(1, 1, 3), makeScharr(0, 1),
          makePrewitt("vertical"), makeIdentity(), makeMotionBlur(7, 0.0)}) {
        SCOPED_TRACE(spec.id);
        ASSERT_TRUE(spec.separable.has_value());
        ASSERT_EQ(spec.separable->row.size(), static_cast<size_t>(spec.kernel.width));
        ASSERT_EQ(spec.separable->column.size(), static_cast<size_t>(spec.kernel.height));
        for (int y = 0; y < spec.kernel.height; ++y) {
            for (int x = 0; x < spec.kernel.width; ++x) {
                EXPECT_NEAR(spec.separable->column[static_cast<size_t>(y)] *
                                spec.separable->row[static_cast<size_t>(x)],
                            spec.kernel.at(x, y), 1e-12);
            }
        }
    }
    for (const FilterSpec& spec : {makeSharpen(1.0), makeLaplacian(3), makeLaplacianOfGaussian(1.0),
                                   makeUnsharp(1.0, 1.0), makeEmboss(45.0, 1.0), makeMotionBlur(7, 30.0)}) {
        SCOPED_TRACE(spec.id);
        EXPECT_FALSE(spec.separable.has_value());
    }
}

TEST(FilterSpec, HaloFollowsAnchor)
{
    FilterSpec spec = makeCustom(Kernel2D{4, 6, std::vector<double>(24, 1.0)});
    EXPECT_EQ(spec.effectiveAnchor(), (Point{2, 3}));
    EXPECT_EQ(spec.halo(), (Halo{2, 1, 3, 2}));
    spec.anchor = Point{0, 5};
    EXPECT_EQ(spec.halo(), (Halo{0, 3, 5, 0}));
    EXPECT_EQ(spec.halo().maxReach(), 5);

    const FilterChain chain{{makeGaussian(1.0), makeBox(4)}};
    EXPECT_EQ(chain.halo(), (Halo{3 + 2, 3 + 1, 3 + 2, 3 + 1}));
    EXPECT_EQ(FilterChain{}.halo(), Halo{});
}

TEST(FilterChain, IdentityIsOneWeightOfOneAtTheAnchorWithNothingElse)
{
    FilterSpec one;  // 1 x 1, weight 1
    EXPECT_TRUE((FilterChain{{one, one}}.isIdentity()));
    FilterSpec shifted;
    shifted.kernel = parseInlineKernel("0,0,0;0,1,0;0,0,0");
    EXPECT_TRUE(FilterChain{{shifted}}.isIdentity());
    shifted.anchor = Point{0, 0};  // the 1 is no longer under the anchor: a shift
    EXPECT_FALSE(FilterChain{{shifted}}.isIdentity());
    FilterSpec scaled = one;
    scaled.scale = 2.0;
    EXPECT_FALSE((FilterChain{{one, scaled}}.isIdentity()));
    FilterSpec offset = one;
    offset.offset = 0.5;
    EXPECT_FALSE(FilterChain{{offset}}.isIdentity());
    FilterSpec depth = one;
    depth.depth = OutputDepth::F32;
    EXPECT_FALSE(FilterChain{{depth}}.isIdentity());
    EXPECT_FALSE(FilterChain{{makeBox(3)}}.isIdentity());
}

TEST(FilterSpec, KernelSum)
{
    EXPECT_DOUBLE_EQ(parseInlineKernel("1,2;3,-4").sum(), 2.0);
    EXPECT_NEAR(makeGaussian(2.0).kernel.sum(), 1.0, 1e-12);
    EXPECT_NEAR(makeLaplacianOfGaussian(1.4).kernel.sum(), 0.0, 1e-12);
    EXPECT_NEAR(makeMotionBlur(8, 37.0).kernel.sum(), 1.0, 1e-12);
}

TEST(FilterSpec, ValidateSpecMessages)
{
    FilterSpec spec;
    spec.kernel = Kernel2D{0, 1, {}};
    expectInvalidArgument([&] { validateSpec(spec); }, "kernel size 0 x 1 is outside 1...255");
    spec.kernel = Kernel2D{2, 1, {1.0, NAN}};
    expectInvalidArgument([&] { validateSpec(spec); }, "kernel weights must be finite numbers");
    spec.kernel = Kernel2D{2, 1, {1.0, 2.0}};
    spec.anchor = Point{-1, 0};
    expectInvalidArgument([&] { validateSpec(spec); }, "anchor (-1, 0) is outside the 2 x 1 kernel");
    spec.anchor.reset();
    spec.separable = SeparablePair{{1.0}, {1.0}};
    expectInvalidArgument([&] { validateSpec(spec); }, "separable factors do not match the kernel size");
    spec.separable.reset();
    spec.scale = INFINITY;
    expectInvalidArgument([&] { validateSpec(spec); }, "scale, offset and border value must be finite numbers");
}

}  // namespace
}  // namespace tessera::filters

namespace tessera::filters {
namespace {

// The one override rule every front end follows (tessera-cli's options, Python's, a batch's
// depth): border and border value on every step, scale, offset and depth on the last.
TEST(ChainOverrides, BorderOnEveryStepScaleOffsetDepthOnTheLast)
{
    FilterChain chain{{makeBox(3), makeGaussian(1.0, 5), makeBox(5)}};
    chain.steps[0].depth = OutputDepth::F32;
    const FilterChain before = chain;
    applyOverrides(chain, {});
    EXPECT_EQ(chain, before) << "nothing given, nothing changed";

    applyOverrides(chain, {Border::Constant, 7.0, 2.0, -1.0, OutputDepth::U16});
    for (const FilterSpec& step : chain.steps) {
        EXPECT_EQ(step.border, Border::Constant);
        EXPECT_EQ(step.borderValue, 7.0);
    }
    EXPECT_EQ(chain.steps[0].scale, before.steps[0].scale);
    EXPECT_EQ(chain.steps[0].depth, OutputDepth::F32) << "an earlier step keeps its own depth";
    EXPECT_EQ(chain.steps[2].scale, 2.0);
    EXPECT_EQ(chain.steps[2].offset, -1.0);
    EXPECT_EQ(chain.steps[2].depth, OutputDepth::U16);

    applyOverrides(chain, {.depth = OutputDepth::Same});
    EXPECT_EQ(chain.steps[2].depth, OutputDepth::Same) << "same, when given, is the input's depth";

    FilterChain empty;
    applyOverrides(empty, {.scale = 3.0});
    EXPECT_TRUE(empty.steps.empty());
}

}  // namespace
}  // namespace tessera::filters
