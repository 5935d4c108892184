// SPDX-License-Identifier: Apache-2.0
#include "filters/preset_io.h"

#include "files/input_file.h"
#include "files/output_file.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace tessera::filters {

namespace {

using ojson = nlohmann::ordered_json;

ojson paramValue(const FilterDesc* desc, const std::string& key, double value)
{
    const ParamDesc* p = desc != nullptr ? desc->param(key) : nullptr;
    if (p == nullptr) {
        return value;
    }
    switch (p->type) {
    case ParamType::Bool: return value != 0.0;
    case ParamType::Int:
        if (value == std::floor(value) && std::abs(value) < 1e15) {
            return static_cast<long long>(value);
        }
        return value;
    case ParamType::Choice: {
        const auto index = static_cast<size_t>(value);
        if (value >= 0.0 && index < p->choices.size() && double(index) == value) {
            return p->choices[index];
        }
        return value;
    }
    case ParamType::Double: return value;
    }
    return value;
}

// Only settings that differ from the defaults are written, which keeps files short; the reader
// fills the same defaults back in.
void writeCommon(const FilterSpec& spec, ojson& out)
{
    if (spec.border != Border::Reflect101) {
        out["border"] = toString(spec.border);
    }
    if (spec.borderValue != 0.0) {
        out["border_value"] = spec.borderValue;
    }
    if (spec.scale != 1.0) {
        out["scale"] = spec.scale;
    }
    if (spec.offset != 0.0) {
        out["offset"] = spec.offset;
    }
    if (spec.depth != OutputDepth::Same) {
        out["depth"] = toString(spec.depth);
    }
}

ojson stepToJson(const PresetStep& step)
{
    ojson out;
    out["id"] = step.id;
    const std::optional<Point> anchor = step.params.anchor ? step.params.anchor : step.spec.anchor;
    if (step.id == "custom") {
        const Kernel2D& k = step.params.kernel ? *step.params.kernel : step.spec.kernel;
        out["size"] = {k.width, k.height};
        if (anchor) {
            out["anchor"] = {anchor->x, anchor->y};
        }
        out["weights"] = k.weights;
        const auto normalize = step.params.values.find("normalize");
        if (normalize != step.params.values.end()) {
            out["normalize"] = normalize->second != 0.0;
        }
    } else {
        const FilterDesc* desc = builtinRegistry().find(step.id);
        ojson params = ojson::object();
        for (const auto& [key, value] : step.params.values) {
            params[key] = paramValue(desc, key, value);
        }
        out["params"] = std::move(params);
        if (anchor) {
            out["anchor"] = {anchor->x, anchor->y};
        }
    }
    writeCommon(step.spec, out);
    return out;
}

// dump(2) puts every number of an array on its own line, which makes kernels hard to read and
// edit; arrays holding only numbers are put back on one line.
std::string joinNumberArrays(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    size_t i = 0;
    while (i < text.size()) {
        if (text[i] == '"') {
            // Copy strings verbatim, escapes included.
            const size_t start = i++;
            while (i < text.size() && text[i] != '"') {
                i += text[i] == '\\' ? 2 : 1;
            }
            out.append(text, start, ++i - start);
            continue;
        }
        if (text[i] != '[') {
            out += text[i++];
            continue;
        }
        const size_t close = text.find_first_of("[]{}\"", i + 1);
        if (close == std::string::npos || text[close] != ']') {
            out += text[i++];
            continue;
        }
        out += '[';
        bool pendingSpace = false;
        for (size_t j = i + 1; j < close; ++j) {
            const char c = text[j];
            if (c == ' ' || c == '\n') {
                continue;
            }
            if (pendingSpace) {
                out += ' ';
                pendingSpace = false;
            }
            out += c;
            pendingSpace = c == ',';
        }
        out += ']';
        i = close + 1;
    }
    return out;
}

}  // namespace

FilterChain Preset::chain() const
{
    FilterChain chain;
    chain.steps.reserve(steps.size());
    for (const auto& step : steps) {
        chain.steps.push_back(step.spec);
    }
    return chain;
}

std::string presetToJson(const Preset& preset)
{
    ojson doc;
    doc["name"] = preset.name;
    if (!preset.description.empty()) {
        doc["description"] = preset.description;
    }
    ojson filters = ojson::array();
    for (const auto& step : preset.steps) {
        filters.push_back(stepToJson(step));
    }
    doc["filters"] = std::move(filters);
    return joinNumberArrays(doc.dump(2)) + "\n";
}

std::string readPresetFile(const std::string& path)
{
    try {
        return files::readInputFile(path, {"a preset file", kMaxPresetBytes, false});
    } catch (const files::InputFileError& e) {
        throw PresetError(e.what());
    }
}

Preset loadPreset(const std::string& path, const FilterRegistry& registry)
{
    return parsePreset(readPresetFile(path), path, registry);
}

void savePreset(const Preset& preset, const std::string& path)
{
    try {
        files::writeOutputFile(path, presetToJson(preset));
    } catch (const files::OutputFileError& e) {
        throw PresetError(e.what());
    }
}

}  // namespace tessera::filters
