// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessera::filters {

enum class ParamType { Int, Double, Bool, Choice };

/// What the GUI needs to build a control and the CLI needs to parse --param key=value.
struct ParamDesc {
    std::string key;
    std::string label;
    ParamType type = ParamType::Double;
    double minValue = 0.0;
    double maxValue = 1.0;
    double defaultValue = 0.0;
    double step = 1.0;
    std::vector<std::string> choices;  ///< for Choice: value = index into choices
    std::string tooltip;
};

/// Parameter values by key; a Choice holds its index, a Bool 0 or 1. The custom filter also
/// takes a kernel (and an optional anchor).
struct ParamValues {
    std::map<std::string, double> values;
    std::optional<Kernel2D> kernel;
    std::optional<Point> anchor;

    /// The value for key, or fallback when absent.
    double get(const std::string& key, double fallback) const;
    bool operator==(const ParamValues&) const = default;
};

struct FilterDesc {
    std::string id;
    std::string title;
    std::string category;
    std::string description;
    std::vector<ParamDesc> params;
    /// Builds the spec; missing values take their defaults. Throws std::invalid_argument.
    std::function<FilterSpec(const ParamValues&)> build;

    /// Defaults for every parameter.
    ParamValues defaults() const;
    /// Parses "value" for param key (numbers, true/false/yes/no/on/off, choice names or
    /// indices), checks the range; throws std::invalid_argument naming filter, key and value.
    double parseValue(const std::string& key, const std::string& text) const;
    const ParamDesc* param(const std::string& key) const;
    /// Checks an already numeric value for param key (known key, integer for Int/Bool/Choice,
    /// inside the range); throws std::invalid_argument naming filter, key and value.
    void checkValue(const std::string& key, double value) const;
};

class FilterRegistry {
public:
    /// Adds a filter; throws std::invalid_argument if the id is taken.
    void add(FilterDesc desc);
    /// nullptr when unknown.
    const FilterDesc* find(const std::string& id) const;
    /// Throws std::invalid_argument listing the known ids.
    const FilterDesc& get(const std::string& id) const;
    const std::vector<FilterDesc>& all() const { return filters_; }

private:
    std::vector<FilterDesc> filters_;
};

/// Registers identity, box, gaussian, sharpen, unsharp, laplacian, log, sobel, scharr, prewitt,
/// emboss, motion_blur and custom.
void registerBuiltinFilters(FilterRegistry& registry);

/// A registry with the built-in filters, built once.
const FilterRegistry& builtinRegistry();

}  // namespace tessera::filters
