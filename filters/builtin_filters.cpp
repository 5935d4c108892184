// SPDX-License-Identifier: Apache-2.0
#include "filters/factories.h"
#include "filters/registry.h"

#include <cmath>
#include <stdexcept>

namespace tessera::filters {

namespace {

// Parameter values with the filter's defaults filled in, read by key.
class Args {
public:
    Args(const FilterDesc& desc, const ParamValues& values) : desc_(desc), values_(values) {}

    double number(const std::string& key) const
    {
        const ParamDesc* p = desc_.param(key);
        return values_.get(key, p != nullptr ? p->defaultValue : 0.0);
    }
    int integer(const std::string& key) const { return static_cast<int>(std::lround(number(key))); }
    bool flag(const std::string& key) const { return number(key) != 0.0; }
    std::string choice(const std::string& key) const
    {
        return desc_.param(key)->choices.at(static_cast<size_t>(integer(key)));
    }
    const ParamValues& values() const { return values_; }

private:
    const FilterDesc& desc_;
    const ParamValues& values_;
};

ParamDesc intParam(std::string key, std::string label, int lo, int hi, int def, int step, std::string tooltip)
{
    return {std::move(key),    std::move(label), ParamType::Int, double(lo), double(hi), double(def), double(step), {},
            std::move(tooltip)};
}

ParamDesc doubleParam(std::string key, std::string label, double lo, double hi, double def, double step,
                      std::string tooltip)
{
    return {std::move(key), std::move(label), ParamType::Double, lo, hi, def, step, {}, std::move(tooltip)};
}

ParamDesc boolParam(std::string key, std::string label, bool def, std::string tooltip)
{
    return {std::move(key), std::move(label), ParamType::Bool, 0.0, 1.0, def ? 1.0 : 0.0, 1.0, {}, std::move(tooltip)};
}

ParamDesc choiceParam(std::string key, std::string label, std::vector<std::string> choices, int def,
                      std::string tooltip)
{
    const double last = static_cast<double>(choices.size()) - 1.0;
    return {std::move(key),     std::move(label),  ParamType::Choice, 0.0, last, double(def), 1.0,
            std::move(choices), std::move(tooltip)};
}

// Wraps a factory call so every filter checks its values the same way, takes the optional
// anchor and carries its registry id.
void addFilter(FilterRegistry& registry, FilterDesc desc, std::function<FilterSpec(const Args&)> make)
{
    FilterDesc meta = desc;
    desc.build = [meta = std::move(meta), make = std::move(make)](const ParamValues& values) {
        for (const auto& [key, value] : values.values) {
            meta.checkValue(key, value);
        }
        FilterSpec spec = make(Args(meta, values));
        spec.id = meta.id;
        if (values.anchor) {
            spec.anchor = values.anchor;
            try {
                validateSpec(spec);
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument(meta.id + ": " + e.what());
            }
        }
        return spec;
    };
    registry.add(std::move(desc));
}

}  // namespace

namespace {

/// Identity, the blurs of a square window and the sharpeners.
void registerBasicBlurAndSharpen(FilterRegistry& registry)
{
    const int maxSide = kMaxKernelSide;
    addFilter(registry, {"identity", "Identity", "Basic", "Copies the image (a 1 x 1 kernel of 1).", {}, {}},
              [](const Args&) { return makeIdentity(); });

    addFilter(registry,
              {"box",
               "Box blur",
               "Blur",
               "Mean over a square window, as cv::blur.",
               {intParam("size", "Size", 1, maxSide, 3, 1, "Side of the square window in pixels"),
                boolParam("normalize", "Normalize", true, "Divide by the window area (off: plain sum)")},
               {}},
              [](const Args& a) { return makeBox(a.integer("size"), a.flag("normalize")); });

    addFilter(registry,
              {"gaussian",
               "Gaussian blur",
               "Blur",
               "Gaussian blur, as cv::GaussianBlur.",
               {doubleParam("sigma", "Sigma", 0.1, 40.0, 1.0, 0.1, "Standard deviation in pixels"),
                intParam("size", "Size", 0, maxSide, 0, 1, "Odd kernel side; 0 picks 2 * ceil(3 * sigma) + 1")},
               {}},
              [](const Args& a) { return makeGaussian(a.number("sigma"), a.integer("size")); });

    addFilter(registry,
              {"sharpen",
               "Sharpen",
               "Sharpen",
               "3 x 3 sharpen: the centre minus its four neighbours.",
               {doubleParam("amount", "Amount", 0.0, 10.0, 1.0, 0.1, "Weight of each subtracted neighbour")},
               {}},
              [](const Args& a) { return makeSharpen(a.number("amount")); });

    addFilter(registry,
              {"unsharp",
               "Unsharp mask",
               "Sharpen",
               "Adds back the difference between the image and its Gaussian blur.",
               {doubleParam("sigma", "Sigma", 0.1, 40.0, 1.0, 0.1, "Standard deviation of the blur in pixels"),
                doubleParam("amount", "Amount", 0.0, 10.0, 1.0, 0.1, "How much of the detail to add back")},
               {}},
              [](const Args& a) { return makeUnsharp(a.number("sigma"), a.number("amount")); });
}

/// The derivative and second-derivative filters.
void registerEdges(FilterRegistry& registry)
{
    addFilter(registry,
              {"laplacian",
               "Laplacian",
               "Edges",
               "Second derivative, as cv::Laplacian.",
               {intParam("size", "Aperture", 1, 3, 1, 2, "1: 4-neighbour kernel, 3: 3 x 3 aperture")},
               {}},
              [](const Args& a) { return makeLaplacian(a.integer("size")); });

    addFilter(registry,
              {"log",
               "Laplacian of Gaussian",
               "Edges",
               "Laplacian of a Gaussian: blob and edge detector, zero on flat areas.",
               {doubleParam("sigma", "Sigma", 0.1, 40.0, 1.4, 0.1,
                            "Standard deviation in pixels; the kernel spans 3 sigma each way")},
               {}},
              [](const Args& a) { return makeLaplacianOfGaussian(a.number("sigma")); });

    addFilter(registry,
              {"sobel",
               "Sobel",
               "Edges",
               "Smoothed derivative, as cv::Sobel.",
               {intParam("dx", "X order", 0, 2, 1, 1, "Order of the derivative along x"),
                intParam("dy", "Y order", 0, 2, 0, 1, "Order of the derivative along y"),
                intParam("size", "Aperture", 1, 7, 3, 2, "Kernel side: 1, 3, 5 or 7")},
               {}},
              [](const Args& a) { return makeSobel(a.integer("dx"), a.integer("dy"), a.integer("size")); });

    addFilter(registry,
              {"scharr",
               "Scharr",
               "Edges",
               "3 x 3 derivative with better rotation symmetry.",
               {intParam("dx", "X order", 0, 1, 1, 1, "1 for d/dx (then dy is 0)"),
                intParam("dy", "Y order", 0, 1, 0, 1, "1 for d/dy (then dx is 0)")},
               {}},
              [](const Args& a) { return makeScharr(a.integer("dx"), a.integer("dy")); });

    addFilter(
        registry,
        {"prewitt",
         "Prewitt",
         "Edges",
         "3 x 3 derivative with flat smoothing.",
         {choiceParam("direction", "Direction", {"horizontal", "vertical"}, 0, "horizontal: d/dx, vertical: d/dy")},
         {}},
        [](const Args& a) { return makePrewitt(a.choice("direction")); });
}

/// Emboss, motion blur and the custom kernel.
void registerStylesAndCustom(FilterRegistry& registry)
{
    const int maxSide = kMaxKernelSide;
    addFilter(registry,
              {"emboss",
               "Emboss",
               "Stylize",
               "Relief lit from one direction.",
               {doubleParam("angle", "Angle", -180.0, 180.0, 45.0, 15.0,
                            "Light direction in degrees, counter-clockwise from +x"),
                doubleParam("strength", "Strength", 0.0, 10.0, 1.0, 0.1, "Weight of the relief")},
               {}},
              [](const Args& a) { return makeEmboss(a.number("angle"), a.number("strength")); });

    addFilter(
        registry,
        {"motion_blur",
         "Motion blur",
         "Blur",
         "Average along a line.",
         {intParam("length", "Length", 1, maxSide, 9, 1, "Length of the line in pixels"),
          doubleParam("angle", "Angle", -180.0, 180.0, 0.0, 15.0, "Direction in degrees, counter-clockwise from +x")},
         {}},
        [](const Args& a) { return makeMotionBlur(a.integer("length"), a.number("angle")); });

    addFilter(registry,
              {"custom",
               "Custom kernel",
               "Custom",
               "Any kernel up to 255 x 255, with an optional anchor.",
               {boolParam("normalize", "Normalize", false,
                          "Divide by the sum of the weights at every run, leaving the weights as they are "
                          "(skipped when the sum is 0); the editor's Divide by Sum instead changes the weights once")},
               {}},
              [](const Args& a) {
                  const Kernel2D kernel = a.values().kernel.value_or(Kernel2D{});
                  return makeCustom(kernel, a.flag("normalize"));
              });
}

}  // namespace

void registerBuiltinFilters(FilterRegistry& registry)
{
    registerBasicBlurAndSharpen(registry);
    registerEdges(registry);
    registerStylesAndCustom(registry);
}

}  // namespace tessera::filters
