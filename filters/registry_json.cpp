// SPDX-License-Identifier: Apache-2.0
#include "filters/registry_json.h"

#include <nlohmann/json.hpp>

namespace tessera::filters {

std::string paramTypeName(ParamType t)
{
    switch (t) {
    case ParamType::Int: return "int";
    case ParamType::Double: return "double";
    case ParamType::Bool: return "bool";
    case ParamType::Choice: return "choice";
    }
    return "unknown";
}

std::string registryJson(const FilterRegistry& registry, int indent)
{
    using nlohmann::json;
    json list = json::array();
    for (const auto& f : registry.all()) {
        json params = json::array();
        for (const auto& p : f.params) {
            json pj = {{"key", p.key},      {"label", p.label},    {"type", paramTypeName(p.type)},
                       {"min", p.minValue}, {"max", p.maxValue},   {"default", p.defaultValue},
                       {"step", p.step},    {"tooltip", p.tooltip}};
            if (p.type == ParamType::Choice) {
                pj["choices"] = p.choices;
            }
            params.push_back(pj);
        }
        list.push_back({{"id", f.id},
                        {"title", f.title},
                        {"category", f.category},
                        {"description", f.description},
                        {"params", params}});
    }
    return json{{"filters", list}}.dump(indent);
}

}  // namespace tessera::filters
