// SPDX-License-Identifier: Apache-2.0
#include "filters/registry.h"

#include "filters/text_util.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace tessera::filters {

namespace {

using detail::formatNumber;
using detail::lowered;
using detail::trimmed;

std::optional<double> parseNumber(const std::string& text)
{
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (first != last && *first == '+') {
        ++first;
    }
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (text.empty() || ec != std::errc() || ptr != last || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

std::string joinedChoices(const ParamDesc& p)
{
    std::string out;
    for (size_t i = 0; i < p.choices.size(); ++i) {
        out += (i == 0 ? "" : ", ") + p.choices[i];
    }
    return out;
}

}  // namespace

double ParamValues::get(const std::string& key, double fallback) const
{
    const auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
}

ParamValues FilterDesc::defaults() const
{
    ParamValues v;
    for (const auto& p : params) {
        v.values[p.key] = p.defaultValue;
    }
    return v;
}

const ParamDesc* FilterDesc::param(const std::string& key) const
{
    for (const auto& p : params) {
        if (p.key == key) {
            return &p;
        }
    }
    return nullptr;
}

void FilterDesc::checkValue(const std::string& key, double value) const
{
    const std::string where = "filter '" + id + "', parameter '" + key + "'";
    const ParamDesc* p = param(key);
    if (p == nullptr) {
        std::string known;
        for (const auto& q : params) {
            known += (known.empty() ? "" : ", ") + q.key;
        }
        throw std::invalid_argument("filter '" + id + "' has no parameter '" + key + "' (" +
                                    (known.empty() ? "it takes none" : "parameters: " + known) + ")");
    }
    if (!std::isfinite(value)) {
        throw std::invalid_argument(where + ": value " + formatNumber(value) + " is not a finite number");
    }
    switch (p->type) {
    case ParamType::Bool:
        if (value != 0.0 && value != 1.0) {
            throw std::invalid_argument(where + ": value " + formatNumber(value) + " is not a boolean (0 or 1)");
        }
        return;
    case ParamType::Choice:
        if (value != std::floor(value) || value < 0.0 || value >= static_cast<double>(p->choices.size())) {
            throw std::invalid_argument(where + ": value " + formatNumber(value) + " is not a choice index 0.." +
                                        std::to_string(p->choices.size() - 1) + " (" + joinedChoices(*p) + ")");
        }
        return;
    case ParamType::Int:
        if (value != std::floor(value)) {
            throw std::invalid_argument(where + ": value " + formatNumber(value) + " is not an integer");
        }
        break;
    case ParamType::Double: break;
    }
    if (value < p->minValue || value > p->maxValue) {
        throw std::invalid_argument(where + ": value " + formatNumber(value) + " is outside " +
                                    formatNumber(p->minValue) + ".." + formatNumber(p->maxValue));
    }
}

double FilterDesc::parseValue(const std::string& key, const std::string& text) const
{
    const ParamDesc* p = param(key);
    if (p == nullptr) {
        checkValue(key, 0.0);  // throws the unknown-parameter message
        return 0.0;
    }
    const std::string where = "filter '" + id + "', parameter '" + key + "'";
    const std::string t = lowered(trimmed(text));
    double value = 0.0;
    switch (p->type) {
    case ParamType::Bool:
        if (t == "true" || t == "yes" || t == "on" || t == "1") {
            value = 1.0;
        } else if (t == "false" || t == "no" || t == "off" || t == "0") {
            value = 0.0;
        } else {
            throw std::invalid_argument(where + ": value '" + text +
                                        "' is not a boolean (true/false, yes/no, on/off, 1/0)");
        }
        break;
    case ParamType::Choice: {
        // Names win over indices, so a choice called "3" is never read as index 3.
        for (size_t i = 0; i < p->choices.size(); ++i) {
            if (lowered(p->choices[i]) == t) {
                return static_cast<double>(i);
            }
        }
        const auto number = parseNumber(t);
        if (!number) {
            throw std::invalid_argument(where + ": value '" + text + "' is not one of " + joinedChoices(*p));
        }
        value = *number;
        break;
    }
    case ParamType::Int:
    case ParamType::Double: {
        const auto number = parseNumber(t);
        if (!number) {
            throw std::invalid_argument(where + ": value '" + text + "' is not a number");
        }
        value = *number;
        break;
    }
    }
    checkValue(key, value);
    return value;
}

void FilterRegistry::add(FilterDesc desc)
{
    if (find(desc.id) != nullptr) {
        throw std::invalid_argument("filter id '" + desc.id + "' is already registered");
    }
    filters_.push_back(std::move(desc));
}

const FilterDesc* FilterRegistry::find(const std::string& id) const
{
    for (const auto& f : filters_) {
        if (f.id == id) {
            return &f;
        }
    }
    return nullptr;
}

const FilterDesc& FilterRegistry::get(const std::string& id) const
{
    if (const FilterDesc* f = find(id)) {
        return *f;
    }
    std::string known;
    for (const auto& f : filters_) {
        known += (known.empty() ? "" : ", ") + f.id;
    }
    throw std::invalid_argument("unknown filter '" + id + "' (known: " + known + ")");
}

const FilterRegistry& builtinRegistry()
{
    static const FilterRegistry registry = [] {
        FilterRegistry r;
        registerBuiltinFilters(r);
        return r;
    }();
    return registry;
}

}  // namespace tessera::filters
