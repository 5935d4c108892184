// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tessera::filters {

/// How pixels outside the image are made up. Names follow cv::BorderTypes, plus Wrap (periodic).
enum class Border { Reflect101, Reflect, Replicate, Constant, Wrap };

/// Depth of the result: Same keeps the input depth.
enum class OutputDepth { Same, U8, U16, F32 };

/// The depth a spec with output depth `requested` writes for an input of depth `in`: `in` for
/// Same, otherwise the one named. Depths are the caller's own codes (OpenCV depths,
/// gpu::PixelDepth), given for u8, u16 and f32, so that every executor applies this one rule.
template <typename Depth>
constexpr Depth resolveOutputDepth(OutputDepth requested, Depth in, Depth u8, Depth u16, Depth f32)
{
    switch (requested) {
    case OutputDepth::Same: return in;
    case OutputDepth::U8: return u8;
    case OutputDepth::U16: return u16;
    case OutputDepth::F32: return f32;
    }
    return in;
}

/// Largest kernel side accepted anywhere (factories, presets, inline kernels).
inline constexpr int kMaxKernelSide = 255;

struct Point {
    int x = 0;
    int y = 0;
    bool operator==(const Point&) const = default;
};

/// How far a filter reaches past an output pixel on each side (in pixels).
struct Halo {
    int left = 0;
    int right = 0;
    int top = 0;
    int bottom = 0;
    bool operator==(const Halo&) const = default;
    /// The largest reach in any direction.
    int maxReach() const;
};

/// A dense correlation kernel, row-major: weight(x, y) = weights[y * width + x].
struct Kernel2D {
    int width = 1;
    int height = 1;
    std::vector<double> weights{1.0};

    double at(int x, int y) const { return weights[static_cast<size_t>(y) * width + x]; }
    double sum() const;
    bool operator==(const Kernel2D&) const = default;
};

/// A rank-1 kernel: weight(x, y) = column[y] * row[x].
struct SeparablePair {
    std::vector<double> row;     ///< horizontal taps, length = kernel width
    std::vector<double> column;  ///< vertical taps, length = kernel height
    bool operator==(const SeparablePair&) const = default;
};

/// One linear filter as a plain value: cv::filter2D semantics (correlation, not flipped),
/// output = saturate(round(scale * sum + offset)) in the output depth.
struct FilterSpec {
    std::string id = "identity";             ///< registry id of the filter that made it
    Kernel2D kernel;                         ///< always present, full 2D weights
    std::optional<SeparablePair> separable;  ///< set when the kernel is rank 1
    std::optional<Point> anchor;             ///< empty: (width / 2, height / 2)
    Border border = Border::Reflect101;
    double borderValue = 0.0;  ///< used by Border::Constant
    double scale = 1.0;
    double offset = 0.0;
    OutputDepth depth = OutputDepth::Same;

    /// The anchor in effect (explicit or the centre).
    Point effectiveAnchor() const;
    /// Reach of the kernel around the anchor.
    Halo halo() const;
    bool operator==(const FilterSpec&) const = default;
};

/// Filters applied one after another; each step reads the previous step's output.
/// The most steps a chain may have: far more than any real stack, few enough that a hostile
/// preset cannot make a run take minutes and gigabytes.
inline constexpr std::size_t kMaxChainSteps = 64;

struct FilterChain {
    std::vector<FilterSpec> steps;
    /// Union of the steps' reaches (sum of halos, since steps compose).
    Halo halo() const;
    /// True when every step gives back its input exactly: one weight of 1 at the anchor and
    /// zeros elsewhere, scale 1, offset 0, the depth kept. Such a chain is a copy, whatever the
    /// border; running it would only turn -0 into +0.
    bool isIdentity() const;
    bool operator==(const FilterChain&) const = default;
};

/// What a front end sets over a whole chain (--border, --scale, ... on the command line, the
/// options of Python's calls, a batch's output depth). The one rule every front end follows:
/// the border and its value apply to every step (each step reads the one before through it);
/// scale, offset and depth apply to the last step, the one that makes the output.
struct ChainOverrides {
    std::optional<Border> border = std::nullopt;
    std::optional<double> borderValue = std::nullopt;
    std::optional<double> scale = std::nullopt;
    std::optional<double> offset = std::nullopt;
    std::optional<OutputDepth> depth = std::nullopt;  ///< Same: the input's, whatever the last step said
};

/// chain with overrides applied by that rule. Does nothing to an empty chain. Never throws.
void applyOverrides(FilterChain& chain, const ChainOverrides& overrides);

/// Lower-case names used on the command line and in JSON: "reflect101", "reflect", "replicate",
/// "constant", "wrap". parseBorder throws std::invalid_argument naming the bad text.
std::string toString(Border b);
Border parseBorder(const std::string& text);
/// "same", "u8", "u16", "f32". parseOutputDepth throws std::invalid_argument.
std::string toString(OutputDepth d);
OutputDepth parseOutputDepth(const std::string& text);

/// If the kernel is rank 1 (within a relative tolerance), returns the factors; otherwise empty.
std::optional<SeparablePair> detectSeparable(const Kernel2D& k, double relTol = 1e-6);

/// Checks that the kernel's weights match its size (1..kMaxKernelSide per side), every weight
/// is finite and the anchor lies inside the kernel; throws std::invalid_argument otherwise.
void validateSpec(const FilterSpec& spec);

/// Parses an inline kernel "0,-1,0;-1,5,-1;0,-1,0" (rows by ';', values by ',', or by blanks
/// when a row has no comma); throws std::invalid_argument saying which row/value is wrong or
/// that rows differ in length.
Kernel2D parseInlineKernel(const std::string& text);

}  // namespace tessera::filters
