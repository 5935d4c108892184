// SPDX-License-Identifier: Apache-2.0
// Plans made for a described device (no GPU needed): which kernel a plan picks and how its grid
// spreads over the SMs.

#include "filters/factories.h"
#include "filters/filter_spec.h"
#include "tessera/gpu/executor.h"
#include "planner_grid.h"
#include "variant_print.h"

#include <utility>

#include <gtest/gtest.h>

namespace {

using tessera::filters::Border;
using tessera::gpu::KernelVariant;
using tessera::gpu::PixelDepth;
using tessera::gpu::PixelFormat;
using tessera::values::DeviceInfo;
using tessera::values::Method;
using tessera::values::TensorCores;
namespace filters = tessera::filters;

using tessera::gpu::test::describedH200;

filters::FilterSpec dense3()
{
    filters::FilterSpec s;
    s.kernel = filters::Kernel2D{3, 3, {0.1, 0.2, 0.1, 0.0, 0.2, 0.0, 0.1, 0.2, 0.1}};
    return s;
}

TEST(PlanShapes, Rgba8ThreeByThreeWalksOneStripPerColumnOfBlocks)
{
    const auto plan = tessera::gpu::makePlan(dense3(), PixelFormat{PixelDepth::U8, 4}, 8192, 8192, describedH200(),
                                             Method::Direct, TensorCores::Off);
    EXPECT_EQ(plan.shape.variant, KernelVariant::DirectRgba8WalkHalf) << plan.describe();
    EXPECT_EQ(plan.shape.compiledSize, 3) << plan.describe();
    EXPECT_EQ(plan.shape.gridX, 64);
    // Segments of 64 rows (two steps of 32).
    EXPECT_EQ(plan.shape.tileHeight, 64);
    EXPECT_EQ(plan.shape.gridY, 128);
}

// The byte walk states which form it takes and its rounding bound (direct_rgba8_bound.h): fp16
// sums for a mild 3 x 3 kernel, the one-instruction byte conversion for a mild 5 x 5 one (fp16
// would round too often), the exact conversion for a kernel with a large sum |w|.
TEST(PlanShapes, Rgba8WalkStatesItsByteConversion)
{
    const auto mild = tessera::gpu::makePlan(dense3(), PixelFormat{PixelDepth::U8, 4}, 640, 480, describedH200(),
                                             Method::Direct, TensorCores::Off);
    ASSERT_EQ(mild.shape.variant, KernelVariant::DirectRgba8WalkHalf);
    EXPECT_NE(mild.describe().find("fp16 sums of exact bytes (rounding within 0."), std::string::npos)
        << mild.describe();
    // Forced by name, the walk keeps its byte form on taps its fp16 form would take.
    const auto forced = tessera::gpu::makePlanForVariant(dense3(), PixelFormat{PixelDepth::U8, 4}, 640, 480,
                                                         describedH200(), KernelVariant::DirectRgba8Walk);
    ASSERT_EQ(forced.shape.variant, KernelVariant::DirectRgba8Walk);
    EXPECT_NE(forced.describe().find("bytes as 1 + b/2^15 (rounding within 0."), std::string::npos)
        << forced.describe();
    const auto mild5 = tessera::gpu::makePlan(filters::makeBox(5), PixelFormat{PixelDepth::U8, 4}, 640, 480,
                                              describedH200(), Method::Direct, TensorCores::Off);
    ASSERT_EQ(mild5.shape.variant, KernelVariant::DirectRgba8Walk);
    EXPECT_NE(mild5.describe().find("bytes as 1 + b/2^15 (rounding within 0."), std::string::npos) << mild5.describe();
    filters::FilterSpec strong;
    strong.kernel = filters::Kernel2D{3, 3, {-5, -5, -5, -5, 41, -5, -5, -5, -5}};
    const auto exact = tessera::gpu::makePlan(strong, PixelFormat{PixelDepth::U8, 4}, 640, 480, describedH200(),
                                              Method::Direct, TensorCores::Off);
    ASSERT_EQ(exact.shape.variant, KernelVariant::DirectRgba8Walk);
    EXPECT_NE(exact.describe().find("bytes converted exactly"), std::string::npos) << exact.describe();
    // Other variants say nothing of it.
    const auto f32 = tessera::gpu::makePlan(dense3(), PixelFormat{PixelDepth::F32, 1}, 640, 480, describedH200(),
                                            Method::Direct, TensorCores::Off);
    EXPECT_EQ(f32.describe().find("bytes"), std::string::npos) << f32.describe();
}

// With tensor cores allowed, RGBA8 3 x 3 goes to the integer tensor cores unless the byte walk's
// fp16 form can take it: strips start 2 pixels left so that 8192 columns take 65 of them, and the
// reason states the taps' fixed point and bound.
TEST(PlanShapes, Rgba8ThreeByThreeTakesTheIntegerTensorCores)
{
    // dense3 with an offset that the fp16 form cannot reach within its bound.
    filters::FilterSpec offsetDense3 = dense3();
    offsetDense3.offset = -600.0;
    const auto mild = tessera::gpu::makePlan(dense3(), PixelFormat{PixelDepth::U8, 4}, 8192, 8192, describedH200(),
                                             Method::Auto, TensorCores::Auto);
    EXPECT_EQ(mild.shape.variant, KernelVariant::DirectRgba8WalkHalf) << mild.describe();
    EXPECT_FALSE(mild.tensorCores);
    const auto plan = tessera::gpu::makePlan(offsetDense3, PixelFormat{PixelDepth::U8, 4}, 8192, 8192, describedH200(),
                                             Method::Auto, TensorCores::Auto);
    ASSERT_EQ(plan.shape.variant, KernelVariant::DirectRgba8Imma) << plan.describe();
    EXPECT_EQ(plan.method, Method::Direct);
    EXPECT_TRUE(plan.tensorCores);
    EXPECT_EQ(plan.shape.compiledSize, 3);
    EXPECT_EQ(plan.shape.gridX, 65);
    EXPECT_EQ(plan.shape.tileHeight, 64);
    EXPECT_EQ(plan.shape.gridY, 128);
    // 0.2 is a multiple of 2^-17 only approximately: the taps round at 2^-17.
    EXPECT_NE(plan.describe().find("integer products of 16-bit taps (2^-17), error at most"), std::string::npos)
        << plan.describe();
    // Forced by name, the plan states the same.
    const auto forced = tessera::gpu::makePlanForVariant(dense3(), PixelFormat{PixelDepth::U8, 4}, 640, 480,
                                                         describedH200(), KernelVariant::DirectRgba8Imma);
    EXPECT_NE(forced.describe().find("forced variant; integer products of 16-bit taps (2^-17)"), std::string::npos)
        << forced.describe();
    // Tensor cores off keeps the byte walk.
    const auto off = tessera::gpu::makePlan(dense3(), PixelFormat{PixelDepth::U8, 4}, 8192, 8192, describedH200(),
                                            Method::Auto, TensorCores::Off);
    EXPECT_EQ(off.shape.variant, KernelVariant::DirectRgba8WalkHalf) << off.describe();
    // Taps whose 16-bit form rounds too much keep the byte walk too.
    filters::FilterSpec coarse = offsetDense3;
    coarse.scale = 201.37;
    const auto kept = tessera::gpu::makePlan(coarse, PixelFormat{PixelDepth::U8, 4}, 8192, 8192, describedH200(),
                                             Method::Auto, TensorCores::Auto);
    EXPECT_EQ(kept.shape.variant, KernelVariant::DirectRgba8Walk) << kept.describe();
}

TEST(PlanShapes, WalkingRgba8KernelOnlyWhereItApplies)
{
    const DeviceInfo d = describedH200();
    auto shapeOf = [&](const filters::FilterSpec& s, PixelFormat f) {
        const auto shape = tessera::gpu::makePlan(s, f, 640, 480, d, Method::Direct, TensorCores::Off).shape;
        return std::pair{shape.variant, shape.compiledSize};
    };
    const std::pair walk3{KernelVariant::DirectRgba8WalkHalf, 3};  // the walk, in its fp16 form for these taps
    const std::pair fixed3{KernelVariant::DirectFixed, 3};
    EXPECT_EQ(shapeOf(dense3(), {PixelDepth::U8, 4}), walk3);
    filters::FilterSpec offCentre = dense3();
    offCentre.anchor = filters::Point{0, 2};
    EXPECT_EQ(shapeOf(offCentre, {PixelDepth::U8, 4}), fixed3) << "off-centre anchors take the fixed kernel";
    EXPECT_EQ(shapeOf(dense3(), {PixelDepth::U8, 3}), fixed3);
    EXPECT_EQ(shapeOf(dense3(), {PixelDepth::F32, 4}), fixed3);
    filters::FilterSpec toFloat = dense3();
    toFloat.depth = filters::OutputDepth::F32;
    EXPECT_EQ(shapeOf(toFloat, {PixelDepth::U8, 4}), fixed3) << "a float output is written by the fixed kernel";
    filters::FilterSpec byteBorder = dense3();
    byteBorder.border = Border::Constant;
    byteBorder.borderValue = 200.0;
    EXPECT_EQ(shapeOf(byteBorder, {PixelDepth::U8, 4}), walk3);
    byteBorder.borderValue = 100.3;
    EXPECT_EQ(shapeOf(byteBorder, {PixelDepth::U8, 4}), fixed3) << "a border value that is not a byte";
    EXPECT_EQ(shapeOf(filters::makeBox(5), {PixelDepth::U8, 4}), std::pair(KernelVariant::DirectRgba8Walk, 5));
    EXPECT_EQ(shapeOf(filters::makeBox(7), {PixelDepth::U8, 4}), std::pair(KernelVariant::DirectFixed, 7));
}

TEST(PlanShapes, FloatGaussianSeparableWalks)
{
    const auto gaussian = filters::makeGaussian(5.0, 31);
    const auto plan = tessera::gpu::makePlan(gaussian, PixelFormat{PixelDepth::F32, 1}, 8192, 8192, describedH200(),
                                             Method::Separable, TensorCores::Off);
    EXPECT_EQ(plan.shape.variant, KernelVariant::SeparableWalk) << plan.describe();
    EXPECT_EQ(plan.shape.gridX, 64);
    // At most 256 rows per block.
    EXPECT_EQ(plan.shape.tileHeight, 256);
    EXPECT_EQ(plan.shape.gridY, 32);
    // A 1920 x 1080 image: 15 strips, segments short enough to give every SM's two slots a block.
    const auto hd = tessera::gpu::makePlan(gaussian, PixelFormat{PixelDepth::F32, 1}, 1920, 1080, describedH200(),
                                           Method::Separable, TensorCores::Off);
    EXPECT_EQ(hd.shape.gridX, 15);
    EXPECT_GE(hd.shape.gridX * hd.shape.gridY, 2 * 132 - hd.shape.gridX);
    // Longer taps or other depths keep the tile-per-block kernel.
    const auto wide = tessera::gpu::makePlan(filters::makeGaussian(8.0, 49), PixelFormat{PixelDepth::F32, 1}, 8192,
                                             8192, describedH200(), Method::Separable, TensorCores::Off);
    EXPECT_EQ(wide.shape.variant, KernelVariant::SeparableSingle) << wide.describe();
    const auto bytes = tessera::gpu::makePlan(gaussian, PixelFormat{PixelDepth::U8, 1}, 8192, 8192, describedH200(),
                                              Method::Separable, TensorCores::Off);
    EXPECT_EQ(bytes.shape.variant, KernelVariant::SeparableSingle) << bytes.describe();
}

TEST(PlanShapes, FloatGaussian31TakesTheTf32WalkAndStatesItsBound)
{
    const PixelFormat f32x1{PixelDepth::F32, 1};
    const auto plan =
        tessera::gpu::makePlan(filters::makeGaussian(5.0, 31), f32x1, 8192, 8192, describedH200(), Method::Auto);
    ASSERT_EQ(plan.shape.variant, KernelVariant::SeparableTf32Walk) << plan.describe();
    EXPECT_TRUE(plan.tensorCores);
    EXPECT_EQ(plan.shape.compiledSize, 32);
    EXPECT_EQ(plan.shape.gridX, 64);
    EXPECT_EQ(plan.shape.gridY, 32);
    // 2 x (4 + 3 x 5) x 2^-22 + 2^-24 of S.
    EXPECT_NE(plan.describe().find("three TF32 products per tap, error at most 9.1e-06 x"), std::string::npos)
        << plan.describe();
    // A forced plan states it too; 15 taps pad to 16 (three blocks of taps per pass).
    const auto forced = tessera::gpu::makePlanForVariant(filters::makeGaussian(3.0, 15), f32x1, 8192, 8192,
                                                         describedH200(), KernelVariant::SeparableTf32Walk);
    EXPECT_EQ(forced.shape.compiledSize, 16);
    EXPECT_NE(forced.describe().find("error at most 6.3e-06 x"), std::string::npos) << forced.describe();
    // Where the FMA walk is faster (15 taps) or tensor cores are off, the FMA walk.
    EXPECT_EQ(tessera::gpu::makePlan(filters::makeGaussian(3.0, 15), f32x1, 8192, 8192, describedH200(), Method::Auto)
                  .shape.variant,
              KernelVariant::SeparableWalk);
    EXPECT_EQ(tessera::gpu::makePlan(filters::makeGaussian(5.0, 31), f32x1, 8192, 8192, describedH200(), Method::Auto,
                                     TensorCores::Off)
                  .shape.variant,
              KernelVariant::SeparableWalk);
}

TEST(PlanShapes, SmallImagesStillCoverEveryRow)
{
    const DeviceInfo d = describedH200();
    for (const int h : {1, 2, 31, 33, 64, 65, 197, 4097}) {
        for (const int w : {1, 129, 1000}) {
            const auto direct = tessera::gpu::makePlan(dense3(), PixelFormat{PixelDepth::U8, 4}, w, h, d,
                                                       Method::Direct, TensorCores::Off);
            EXPECT_GE(direct.shape.gridY * direct.shape.tileHeight, h) << w << "x" << h;
            EXPECT_LT((direct.shape.gridY - 1) * direct.shape.tileHeight, h) << w << "x" << h;
            EXPECT_GE(direct.shape.gridX * direct.shape.tileWidth, w);
            const auto sep = tessera::gpu::makePlan(filters::makeGaussian(2.0, 13), PixelFormat{PixelDepth::F32, 1}, w,
                                                    h, d, Method::Separable, TensorCores::Off);
            EXPECT_GE(sep.shape.gridY * sep.shape.tileHeight, h) << w << "x" << h;
            EXPECT_LT((sep.shape.gridY - 1) * sep.shape.tileHeight, h) << w << "x" << h;
        }
    }
}

}  // namespace
