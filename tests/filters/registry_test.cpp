// SPDX-License-Identifier: Apache-2.0
// The registry's descriptions, parameter parsing and range checks, and the factories' kernels
// and error messages.

#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "filters/registry.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include <set>

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

TEST(Registry, HasEveryBuiltinFilter)
{
    std::set<std::string> ids;
    for (const auto& desc : builtinRegistry().all()) {
        ids.insert(desc.id);
    }
    const std::set<std::string> expected = {"identity",  "box",         "gaussian", "sharpen", "unsharp",
                                            "laplacian", "log",         "sobel",    "scharr",  "prewitt",
                                            "emboss",    "motion_blur", "custom"};
    EXPECT_EQ(ids, expected);
}

TEST(Registry, DescriptionsAreCompleteAndDefaultsBuild)
{
    for (const auto& desc : builtinRegistry().all()) {
        SCOPED_TRACE(desc.id);
        EXPECT_FALSE(desc.title.empty());
        EXPECT_FALSE(desc.category.empty());
        EXPECT_FALSE(desc.description.empty());
        ASSERT_TRUE(desc.build);
        for (const auto& p : desc.params) {
            SCOPED_TRACE(p.key);
            EXPECT_FALSE(p.label.empty());
            EXPECT_FALSE(p.tooltip.empty());
            EXPECT_LE(p.minValue, p.defaultValue);
            EXPECT_GE(p.maxValue, p.defaultValue);
            EXPECT_GT(p.step, 0.0);
            if (p.type == ParamType::Choice) {
                EXPECT_EQ(p.maxValue, static_cast<double>(p.choices.size()) - 1.0);
            }
            EXPECT_EQ(desc.param(p.key), &p);
        }
        const FilterSpec spec = desc.build(desc.defaults());
        EXPECT_EQ(spec.id, desc.id);
        EXPECT_NO_THROW(validateSpec(spec));
        EXPECT_EQ(desc.build(ParamValues{}), spec);  // missing values take their defaults
    }
}

TEST(Registry, LookUp)
{
    const auto& reg = builtinRegistry();
    EXPECT_EQ(reg.find("nope"), nullptr);
    EXPECT_EQ(&reg.get("sobel"), reg.find("sobel"));
    expectInvalidArgument([&] { reg.get("blurr"); }, "unknown filter 'blurr' (known: identity, box, gaussian, sharpen, "
                                                     "unsharp, laplacian, log, sobel, scharr, prewitt, emboss, "
                                                     "motion_blur, custom)");
    FilterRegistry mine;
    registerBuiltinFilters(mine);
    expectInvalidArgument(
        [&] {
            mine.add(FilterDesc{"box", "Box", "Blur", "again", {}, {}});
        },
        "filter id 'box' is already registered");
}

TEST(Registry, ParseValueAcceptsEveryKind)
{
    const auto& reg = builtinRegistry();
    EXPECT_EQ(reg.get("gaussian").parseValue("sigma", "2.5"), 2.5);
    EXPECT_EQ(reg.get("gaussian").parseValue("size", " 7 "), 7.0);
    EXPECT_EQ(reg.get("box").parseValue("size", "4.0"), 4.0);
    for (const char* yes : {"true", "YES", "on", "1"}) {
        EXPECT_EQ(reg.get("box").parseValue("normalize", yes), 1.0) << yes;
    }
    for (const char* no : {"false", "no", "Off", "0"}) {
        EXPECT_EQ(reg.get("box").parseValue("normalize", no), 0.0) << no;
    }
    EXPECT_EQ(reg.get("prewitt").parseValue("direction", "vertical"), 1.0);
    EXPECT_EQ(reg.get("prewitt").parseValue("direction", "Horizontal"), 0.0);
    EXPECT_EQ(reg.get("prewitt").parseValue("direction", "1"), 1.0);
}

TEST(Registry, ParseValueErrorsNameFilterKeyAndValue)
{
    const auto& reg = builtinRegistry();
    expectInvalidArgument([&] { reg.get("gaussian").parseValue("sigma", "abc"); },
                          "filter 'gaussian', parameter 'sigma': value 'abc' is not a number");
    expectInvalidArgument([&] { reg.get("gaussian").parseValue("sigma", "100"); },
                          "filter 'gaussian', parameter 'sigma': value 100 is outside 0.1..40");
    expectInvalidArgument([&] { reg.get("box").parseValue("size", "3.5"); },
                          "filter 'box', parameter 'size': value 3.5 is not an integer");
    expectInvalidArgument([&] { reg.get("box").parseValue("normalize", "maybe"); },
                          "filter 'box', parameter 'normalize': value 'maybe' is not a boolean "
                          "(true/false, yes/no, on/off, 1/0)");
    expectInvalidArgument([&] { reg.get("prewitt").parseValue("direction", "diagonal"); },
                          "filter 'prewitt', parameter 'direction': value 'diagonal' is not one "
                          "of horizontal, vertical");
    expectInvalidArgument([&] { reg.get("prewitt").parseValue("direction", "2"); },
                          "filter 'prewitt', parameter 'direction': value 2 is not a choice "
                          "index 0..1 (horizontal, vertical)");
    expectInvalidArgument([&] { reg.get("gaussian").parseValue("radius", "3"); },
                          "filter 'gaussian' has no parameter 'radius' (parameters: sigma, size)");
    expectInvalidArgument([&] { reg.get("identity").parseValue("size", "3"); },
                          "filter 'identity' has no parameter 'size' (it takes none)");
}

TEST(Registry, BuildChecksValuesAndAnchors)
{
    const auto& reg = builtinRegistry();
    ParamValues v;
    v.values["size"] = 300;
    expectInvalidArgument([&] { reg.get("box").build(v); },
                          "filter 'box', parameter 'size': value 300 is outside 1..255");
    v.values = {{"sigma", 1.0}, {"size", 4}};
    expectInvalidArgument([&] { reg.get("gaussian").build(v); },
                          "gaussian: size must be 0 (from sigma) or odd 1..255, got 4");
    v.values = {{"bogus", 1.0}};
    expectInvalidArgument([&] { reg.get("sharpen").build(v); },
                          "filter 'sharpen' has no parameter 'bogus' (parameters: amount)");
    v.values.clear();
    v.kernel = Kernel2D{2, 2, {1, 2, 3, 4}};
    v.anchor = Point{2, 0};
    expectInvalidArgument([&] { reg.get("custom").build(v); }, "custom: anchor (2, 0) is outside the 2 x 2 kernel");
    v.anchor = Point{1, 0};
    const FilterSpec spec = reg.get("custom").build(v);
    EXPECT_EQ(spec.kernel, *v.kernel);
    EXPECT_EQ(spec.anchor, v.anchor);
}

TEST(Factories, ErrorsNameTheParameter)
{
    expectInvalidArgument([] { makeBox(0); }, "box: size must be 1..255, got 0");
    expectInvalidArgument([] { makeGaussian(0.0); }, "gaussian: sigma must be > 0, got 0");
    expectInvalidArgument([] { makeGaussian(-1.0, 5); }, "gaussian: sigma must be > 0, got -1");
    expectInvalidArgument([] { makeGaussian(1.0, 6); }, "gaussian: size must be 0 (from sigma) or odd 1..255, got 6");
    expectInvalidArgument([] { makeGaussian(50.0); }, "gaussian: sigma 50 needs a 301-tap kernel; the limit is 255");
    expectInvalidArgument([] { makeSharpen(-1.0); }, "sharpen: amount must be >= 0, got -1");
    expectInvalidArgument([] { makeUnsharp(1.0, NAN); }, "unsharp: amount must be a finite number, got nan");
    expectInvalidArgument([] { makeLaplacian(2); }, "laplacian: size must be 1 or 3, got 2");
    expectInvalidArgument([] { makeLaplacianOfGaussian(0.0); }, "log: sigma must be > 0, got 0");
    expectInvalidArgument([] { makeSobel(1, 0, 4); }, "sobel: size must be 1, 3, 5 or 7, got 4");
    expectInvalidArgument([] { makeSobel(0, 0, 3); }, "sobel: dx + dy must be at least 1");
    expectInvalidArgument([] { makeSobel(3, 0, 3); }, "sobel: dx must be 0..2, got 3");
    expectInvalidArgument([] { makeScharr(1, 1); }, "scharr: dx, dy must be (1, 0) or (0, 1), got (1, 1)");
    expectInvalidArgument([] { makePrewitt("diagonal"); },
                          "prewitt: direction must be horizontal or vertical, got 'diagonal'");
    expectInvalidArgument([] { makeEmboss(45.0, -2.0); }, "emboss: strength must be >= 0, got -2");
    expectInvalidArgument([] { makeMotionBlur(0, 0.0); }, "motion_blur: length must be 1..255, got 0");
    expectInvalidArgument(
        [] {
            makeCustom(Kernel2D{256, 1, std::vector<double>(256, 1.0)});
        },
        "custom: kernel size 256 x 1 is outside 1...255");
    expectInvalidArgument([] { makeCustom(Kernel2D{3, 3, {1, 2, 3}}); }, "custom: kernel 3 x 3 needs 9 weights, has 3");
}

// Known kernels, written out.
TEST(Factories, Kernels)
{
    EXPECT_EQ(makeIdentity().kernel, (Kernel2D{1, 1, {1.0}}));
    EXPECT_EQ(makeSharpen(1.0).kernel, parseInlineKernel("0,-1,0;-1,5,-1;0,-1,0"));
    EXPECT_EQ(makeLaplacian(1).kernel, parseInlineKernel("0,1,0;1,-4,1;0,1,0"));
    EXPECT_EQ(makeLaplacian(3).kernel, parseInlineKernel("2,0,2;0,-8,0;2,0,2"));
    EXPECT_EQ(makeSobel(1, 0, 3).kernel, parseInlineKernel("-1,0,1;-2,0,2;-1,0,1"));
    EXPECT_EQ(makeScharr(0, 1).kernel, parseInlineKernel("-3,-10,-3;0,0,0;3,10,3"));
    EXPECT_EQ(makePrewitt("horizontal").kernel, parseInlineKernel("-1,0,1;-1,0,1;-1,0,1"));
    EXPECT_EQ(makeBox(2, false).kernel, parseInlineKernel("1,1;1,1"));
    EXPECT_EQ(makeGaussian(1.0).kernel.width, 7);
    EXPECT_EQ(makeGaussian(1.0, 3).kernel.width, 3);
    EXPECT_EQ(makeLaplacianOfGaussian(1.4).kernel.width, 11);
    EXPECT_EQ(makeUnsharp(1.0, 0.0).kernel.sum(), 1.0);

    const Kernel2D emboss = makeEmboss(45.0, 1.0).kernel;
    const Kernel2D classic = parseInlineKernel("0,1,2;-1,1,1;-2,-1,0");
    for (size_t i = 0; i < 9; ++i) {
        EXPECT_NEAR(emboss.weights[i], classic.weights[i], 1e-12) << i;
    }
    const Kernel2D horizontal = makeMotionBlur(5, 0.0).kernel;
    EXPECT_EQ(horizontal.width, 5);
    EXPECT_EQ(horizontal.height, 1);
    const Kernel2D evenLine = makeMotionBlur(4, 90.0).kernel;
    EXPECT_EQ(evenLine.width, 2);
    EXPECT_EQ(evenLine.height, 4);
    for (double w : evenLine.weights) {
        EXPECT_NEAR(w, 1.0 / 8.0, 1e-12);
    }
    const Kernel2D diagonal = makeMotionBlur(5, 45.0).kernel;
    EXPECT_EQ(diagonal.width, 5);
    EXPECT_GT(diagonal.at(4, 0), 0.0);  // towards the top right
    EXPECT_EQ(diagonal.at(0, 0), 0.0);
}

TEST(Factories, CustomNormalizeDividesBySum)
{
    const FilterSpec spec = makeCustom(parseInlineKernel("1,2;3,4"), true);
    EXPECT_EQ(spec.kernel.weights, (std::vector<double>{0.1, 0.2, 0.3, 0.4}));
    const Kernel2D edge = parseInlineKernel("-1,0,1");
    EXPECT_EQ(makeCustom(edge, true).kernel, edge);  // zero sum: left alone
}

// Derivative filters give what OpenCV's own functions give (on f32, so exactly comparable).
TEST(Factories, DerivativesMatchOpenCv)
{
    const auto seed = testing::freshSeed();
    SCOPED_TRACE(testing::seedNote(seed));
    std::mt19937 rng(seed);
    const cv::Mat src = testing::randomImage(15, 19, CV_32FC1, rng);
    auto check = [&](const FilterSpec& spec, const cv::Mat& expected) {
        SCOPED_TRACE(spec.id);
        EXPECT_LE(cv::norm(applyCpu(src, spec), expected, cv::NORM_INF), 1e-4);
    };
    cv::Mat expected;
    for (const auto& [dx, dy, size] : {std::tuple{1, 0, 3}, std::tuple{0, 1, 5}, std::tuple{1, 1, 3},
                                       std::tuple{2, 0, 7}, std::tuple{1, 0, 1}, std::tuple{0, 2, 1}}) {
        cv::Sobel(src, expected, CV_32F, dx, dy, size);
        check(makeSobel(dx, dy, size), expected);
    }
    cv::Scharr(src, expected, CV_32F, 1, 0);
    check(makeScharr(1, 0), expected);
    cv::Scharr(src, expected, CV_32F, 0, 1);
    check(makeScharr(0, 1), expected);
    cv::Laplacian(src, expected, CV_32F, 1);
    check(makeLaplacian(1), expected);
    cv::Laplacian(src, expected, CV_32F, 3);
    check(makeLaplacian(3), expected);
}

}  // namespace
}  // namespace tessera::filters
