// SPDX-License-Identifier: Apache-2.0
#include "filters/filter_spec.h"

#include "filters/text_util.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace tessera::filters {

namespace {

using detail::lowered;
using detail::trimmed;

/// One name of an enum value. A table lists the canonical name of every value first, in the
/// enum's order, then any aliases the parser also accepts.
template <typename E>
struct Named {
    E value;
    const char* name;
    bool canonical = true;
};

constexpr std::array<Named<Border>, 7> kBorderNames{{
    {Border::Reflect101, "reflect101"},
    {Border::Reflect, "reflect"},
    {Border::Replicate, "replicate"},
    {Border::Constant, "constant"},
    {Border::Wrap, "wrap"},
    {Border::Reflect101, "reflect_101", false},  // OpenCV's spelling
    {Border::Reflect101, "reflect-101", false},
}};

constexpr std::array<Named<OutputDepth>, 4> kDepthNames{{
    {OutputDepth::Same, "same"},
    {OutputDepth::U8, "u8"},
    {OutputDepth::U16, "u16"},
    {OutputDepth::F32, "f32"},
}};

template <typename E, std::size_t N>
std::string nameIn(const std::array<Named<E>, N>& table, E value)
{
    for (const auto& n : table) {
        if (n.value == value) {
            return n.name;
        }
    }
    return table.front().name;
}

/// Case and surrounding blanks do not matter.
template <typename E, std::size_t N>
std::optional<E> valueIn(const std::array<Named<E>, N>& table, const std::string& text)
{
    const std::string t = lowered(trimmed(text));
    for (const auto& n : table) {
        if (t == n.name) {
            return n.value;
        }
    }
    return std::nullopt;
}

/// "a, b, c or d" of the canonical names.
template <typename E, std::size_t N>
std::string choices(const std::array<Named<E>, N>& table)
{
    std::vector<std::string> names;
    for (const auto& n : table) {
        if (n.canonical) {
            names.emplace_back(n.name);
        }
    }
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    }
    return text;
}

// Values of one inline-kernel row: comma separated when there is a comma (so "1,,2" is an
// error rather than silently two values), otherwise separated by blanks.
std::vector<std::string> splitRow(const std::string& row)
{
    std::vector<std::string> parts;
    if (row.find(',') != std::string::npos) {
        size_t start = 0;
        while (true) {
            const auto comma = row.find(',', start);
            parts.push_back(trimmed(row.substr(start, comma - start)));
            if (comma == std::string::npos) {
                break;
            }
            start = comma + 1;
        }
        return parts;
    }
    size_t pos = 0;
    while (true) {
        pos = row.find_first_not_of(" \t\r\n", pos);
        if (pos == std::string::npos) {
            break;
        }
        const auto end = row.find_first_of(" \t\r\n", pos);
        parts.push_back(row.substr(pos, end - pos));
        pos = end;
    }
    return parts;
}

}  // namespace

int Halo::maxReach() const
{
    return std::max({left, right, top, bottom});
}

double Kernel2D::sum() const
{
    double s = 0.0;
    for (double w : weights) {
        s += w;
    }
    return s;
}

Point FilterSpec::effectiveAnchor() const
{
    return anchor ? *anchor : Point{kernel.width / 2, kernel.height / 2};
}

Halo FilterSpec::halo() const
{
    const Point a = effectiveAnchor();
    return {a.x, kernel.width - 1 - a.x, a.y, kernel.height - 1 - a.y};
}

bool FilterChain::isIdentity() const
{
    return std::all_of(steps.begin(), steps.end(), [](const FilterSpec& s) {
        if (s.scale != 1.0 || s.offset != 0.0 || s.depth != OutputDepth::Same ||
            s.kernel.weights.size() !=
                static_cast<std::size_t>(s.kernel.width) * static_cast<std::size_t>(s.kernel.height)) {
            return false;
        }
        const Point a = s.effectiveAnchor();
        for (int y = 0; y < s.kernel.height; ++y) {
            for (int x = 0; x < s.kernel.width; ++x) {
                if (s.kernel.at(x, y) != (x == a.x && y == a.y ? 1.0 : 0.0)) {
                    return false;
                }
            }
        }
        return true;
    });
}

Halo FilterChain::halo() const
{
    Halo total;
    for (const auto& step : steps) {
        const Halo h = step.halo();
        total.left += h.left;
        total.right += h.right;
        total.top += h.top;
        total.bottom += h.bottom;
    }
    return total;
}

std::string toString(Border b)
{
    return nameIn(kBorderNames, b);
}

Border parseBorder(const std::string& text)
{
    if (const auto b = valueIn(kBorderNames, text)) {
        return *b;
    }
    throw std::invalid_argument("unknown border '" + text + "' (expected " + choices(kBorderNames) + ")");
}

std::string toString(OutputDepth d)
{
    return nameIn(kDepthNames, d);
}

OutputDepth parseOutputDepth(const std::string& text)
{
    if (const auto d = valueIn(kDepthNames, text)) {
        return *d;
    }
    throw std::invalid_argument("unknown output depth '" + text + "' (expected " + choices(kDepthNames) + ")");
}

std::optional<SeparablePair> detectSeparable(const Kernel2D& k, double relTol)
{
    if (k.width < 1 || k.height < 1 ||
        k.weights.size() != static_cast<size_t>(k.width) * static_cast<size_t>(k.height)) {
        return std::nullopt;
    }
    // A rank-1 kernel is column[y] * row[x]; the row and column through its largest entry are
    // those factors up to scale, and the largest entry keeps the division well conditioned.
    int px = 0;
    int py = 0;
    double peak = 0.0;
    for (int y = 0; y < k.height; ++y) {
        for (int x = 0; x < k.width; ++x) {
            if (std::abs(k.at(x, y)) > std::abs(peak)) {
                peak = k.at(x, y);
                px = x;
                py = y;
            }
        }
    }
    if (peak == 0.0 || !std::isfinite(peak)) {
        return std::nullopt;
    }
    // Splitting |peak| evenly gives both factors the same magnitude, so a symmetric kernel
    // g * g^T comes back as (g, g).
    const double root = std::sqrt(std::abs(peak));
    const double sign = peak < 0.0 ? -1.0 : 1.0;
    SeparablePair pair;
    pair.row.resize(static_cast<size_t>(k.width));
    pair.column.resize(static_cast<size_t>(k.height));
    for (int x = 0; x < k.width; ++x) {
        pair.row[static_cast<size_t>(x)] = k.at(x, py) / root;
    }
    for (int y = 0; y < k.height; ++y) {
        pair.column[static_cast<size_t>(y)] = sign * k.at(px, y) / root;
    }
    const double tolerance = relTol * std::abs(peak);
    for (int y = 0; y < k.height; ++y) {
        for (int x = 0; x < k.width; ++x) {
            const double product = pair.column[static_cast<size_t>(y)] * pair.row[static_cast<size_t>(x)];
            if (!(std::abs(product - k.at(x, y)) <= tolerance)) {
                return std::nullopt;
            }
        }
    }
    return pair;
}

void validateSpec(const FilterSpec& spec)
{
    const Kernel2D& k = spec.kernel;
    if (k.width < 1 || k.height < 1 || k.width > kMaxKernelSide || k.height > kMaxKernelSide) {
        throw std::invalid_argument("kernel size " + std::to_string(k.width) + " x " + std::to_string(k.height) +
                                    " is outside 1..." + std::to_string(kMaxKernelSide));
    }
    const size_t expected = static_cast<size_t>(k.width) * static_cast<size_t>(k.height);
    if (k.weights.size() != expected) {
        throw std::invalid_argument("kernel " + std::to_string(k.width) + " x " + std::to_string(k.height) + " needs " +
                                    std::to_string(expected) + " weights, has " + std::to_string(k.weights.size()));
    }
    for (double w : k.weights) {
        if (!std::isfinite(w)) {
            throw std::invalid_argument("kernel weights must be finite numbers");
        }
    }
    const Point a = spec.effectiveAnchor();
    if (a.x < 0 || a.y < 0 || a.x >= k.width || a.y >= k.height) {
        throw std::invalid_argument("anchor (" + std::to_string(a.x) + ", " + std::to_string(a.y) +
                                    ") is outside the " + std::to_string(k.width) + " x " + std::to_string(k.height) +
                                    " kernel");
    }
    if (spec.separable && (spec.separable->row.size() != static_cast<size_t>(k.width) ||
                           spec.separable->column.size() != static_cast<size_t>(k.height))) {
        throw std::invalid_argument("separable factors do not match the kernel size");
    }
    if (!std::isfinite(spec.scale) || !std::isfinite(spec.offset) || !std::isfinite(spec.borderValue)) {
        throw std::invalid_argument("scale, offset and border value must be finite numbers");
    }
}

Kernel2D parseInlineKernel(const std::string& text)
{
    if (trimmed(text).empty()) {
        throw std::invalid_argument("inline kernel is empty");
    }
    Kernel2D kernel;
    kernel.weights.clear();
    int rowCount = 0;
    size_t start = 0;
    while (start <= text.size()) {
        const auto semicolon = text.find(';', start);
        const std::string row = text.substr(start, semicolon - start);
        ++rowCount;
        const std::string where = "inline kernel: row " + std::to_string(rowCount);
        const auto parts = splitRow(row);
        if (parts.empty() || (parts.size() == 1 && parts.front().empty())) {
            throw std::invalid_argument(where + " is empty");
        }
        for (size_t i = 0; i < parts.size(); ++i) {
            const std::string& part = parts[i];
            double value = 0.0;
            const char* first = part.data();
            const char* last = part.data() + part.size();
            if (!part.empty() && *first == '+') {
                ++first;  // from_chars rejects a leading '+', people write it anyway
            }
            const auto [ptr, ec] = std::from_chars(first, last, value);
            if (part.empty() || ec != std::errc() || ptr != last || !std::isfinite(value)) {
                throw std::invalid_argument(where + ", value " + std::to_string(i + 1) + ": '" + part +
                                            "' is not a number");
            }
            kernel.weights.push_back(value);
        }
        const int width = static_cast<int>(parts.size());
        if (rowCount == 1) {
            kernel.width = width;
        } else if (width != kernel.width) {
            throw std::invalid_argument(where + " has " + std::to_string(width) + " values, row 1 has " +
                                        std::to_string(kernel.width));
        }
        if (kernel.width > kMaxKernelSide || rowCount > kMaxKernelSide) {
            throw std::invalid_argument("inline kernel: more than " + std::to_string(kMaxKernelSide) +
                                        " values per side");
        }
        if (semicolon == std::string::npos) {
            break;
        }
        start = semicolon + 1;
    }
    kernel.height = rowCount;
    return kernel;
}

void applyOverrides(FilterChain& chain, const ChainOverrides& overrides)
{
    if (chain.steps.empty()) {
        return;
    }
    for (FilterSpec& step : chain.steps) {
        if (overrides.border) {
            step.border = *overrides.border;
        }
        if (overrides.borderValue) {
            step.borderValue = *overrides.borderValue;
        }
    }
    FilterSpec& last = chain.steps.back();
    if (overrides.scale) {
        last.scale = *overrides.scale;
    }
    if (overrides.offset) {
        last.offset = *overrides.offset;
    }
    if (overrides.depth) {
        last.depth = *overrides.depth;
    }
}

}  // namespace tessera::filters
