// SPDX-License-Identifier: Apache-2.0
#include "filters/preset_io.h"

#include "files/json_bounds.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

namespace tessera::filters {

namespace {

using json = nlohmann::json;

// Step settings that a chain may give once for all its steps.
struct StepDefaults {
    Border border = Border::Reflect101;
    double borderValue = 0.0;
    OutputDepth depth = OutputDepth::Same;
};

// Reads one preset document; every failure names the source and the JSON path.
class PresetReader {
public:
    PresetReader(std::string source, const FilterRegistry& registry) : source_(std::move(source)), registry_(registry)
    {
    }

    Preset read(const json& doc) const
    {
        if (!doc.is_object()) {
            fail("", "expected a JSON object, got " + typeName(doc));
        }
        Preset preset;
        if (doc.contains("filters")) {
            checkFields(doc, "", {"name", "description", "filters", "border", "border_value", "depth"});
            readNameAndDescription(doc, preset);
            const StepDefaults defaults = readDefaults(doc, "", StepDefaults{});
            const json& list = doc.at("filters");
            if (!list.is_array()) {
                fail("filters", "expected an array, got " + typeName(list));
            }
            if (list.empty()) {
                fail("filters", "expected at least one filter");
            }
            if (list.size() > kMaxChainSteps) {
                fail("filters", std::to_string(list.size()) + " filters; a preset may hold at most " +
                                    std::to_string(kMaxChainSteps));
            }
            for (size_t i = 0; i < list.size(); ++i) {
                preset.steps.push_back(readStep(list[i], "filters[" + std::to_string(i) + "]", defaults));
            }
            return preset;
        }
        if (doc.contains("weights") || doc.contains("size")) {
            checkFields(doc, "",
                        {"name", "description", "id", "size", "anchor", "weights", "scale", "offset", "normalize",
                         "border", "border_value", "depth"});
            readNameAndDescription(doc, preset);
            if (doc.contains("id") && !(doc["id"].is_string() && doc["id"] == "custom")) {
                fail("id", "a single kernel object takes no id other than \"custom\"");
            }
            preset.steps.push_back(readKernelStep(doc, "", StepDefaults{}));
            return preset;
        }
        fail("", "expected \"filters\" (a chain) or \"size\" and \"weights\" (a single kernel)");
    }

private:
    [[noreturn]] void fail(const std::string& path, const std::string& message) const
    {
        throw PresetError(source_ + ": " + (path.empty() ? "" : path + ": ") + message);
    }

    static std::string typeName(const json& value)
    {
        if (value.is_number()) {
            return "number";
        }
        if (value.is_boolean()) {
            return "boolean";
        }
        return value.type_name();
    }

    static std::string join(const std::string& path, const std::string& field)
    {
        return path.empty() ? field : path + "." + field;
    }

    // Unknown fields are errors: a typo such as "boder" would otherwise be silently ignored.
    void checkFields(const json& object, const std::string& path, const std::set<std::string>& allowed) const
    {
        for (const auto& item : object.items()) {
            if (allowed.count(item.key()) == 0) {
                fail(join(path, item.key()), "unknown field");
            }
        }
    }

    std::string readString(const json& value, const std::string& path) const
    {
        if (!value.is_string()) {
            fail(path, "expected a string, got " + typeName(value));
        }
        return value.get<std::string>();
    }

    double readNumber(const json& value, const std::string& path) const
    {
        if (!value.is_number()) {
            fail(path, "expected a number, got " + typeName(value));
        }
        const double v = value.get<double>();
        if (!std::isfinite(v)) {
            fail(path, "expected a finite number");
        }
        return v;
    }

    int readInt(const json& value, const std::string& path) const
    {
        const double v = readNumber(value, path);
        if (v != std::floor(v) || std::abs(v) > 1e9) {
            fail(path, "expected an integer, got " + value.dump());
        }
        return static_cast<int>(v);
    }

    std::pair<int, int> readPair(const json& value, const std::string& path, const std::string& what) const
    {
        if (!value.is_array() || value.size() != 2) {
            fail(path, "expected " + what);
        }
        return {readInt(value[0], path + "[0]"), readInt(value[1], path + "[1]")};
    }

    void readNameAndDescription(const json& doc, Preset& preset) const
    {
        if (doc.contains("name")) {
            preset.name = readString(doc["name"], "name");
        }
        if (doc.contains("description")) {
            preset.description = readString(doc["description"], "description");
        }
    }

    StepDefaults readDefaults(const json& object, const std::string& path, StepDefaults inherited) const
    {
        StepDefaults d = inherited;
        if (object.contains("border")) {
            const std::string where = join(path, "border");
            try {
                d.border = parseBorder(readString(object["border"], where));
            } catch (const std::invalid_argument& e) {
                fail(where, e.what());
            }
        }
        if (object.contains("border_value")) {
            d.borderValue = readNumber(object["border_value"], join(path, "border_value"));
        }
        if (object.contains("depth")) {
            const std::string where = join(path, "depth");
            try {
                d.depth = parseOutputDepth(readString(object["depth"], where));
            } catch (const std::invalid_argument& e) {
                fail(where, e.what());
            }
        }
        return d;
    }

    // Border, scale, offset and depth are applied after the filter is built.
    void applyCommon(const json& object, const std::string& path, const StepDefaults& inherited, FilterSpec& spec) const
    {
        const StepDefaults d = readDefaults(object, path, inherited);
        spec.border = d.border;
        spec.borderValue = d.borderValue;
        spec.depth = d.depth;
        if (object.contains("scale")) {
            spec.scale = readNumber(object["scale"], join(path, "scale"));
        }
        if (object.contains("offset")) {
            spec.offset = readNumber(object["offset"], join(path, "offset"));
        }
    }

    void readAnchor(const json& object, const std::string& path, ParamValues& values) const
    {
        if (object.contains("anchor")) {
            const auto [x, y] = readPair(object["anchor"], join(path, "anchor"), "[x, y]");
            values.anchor = Point{x, y};
        }
    }

    FilterSpec build(const FilterDesc& desc, const ParamValues& values, const std::string& path) const
    {
        try {
            return desc.build(values);
        } catch (const std::invalid_argument& e) {
            fail(path, e.what());
        }
    }

    PresetStep readStep(const json& entry, const std::string& path, const StepDefaults& defaults) const
    {
        if (!entry.is_object()) {
            fail(path, "expected an object, got " + typeName(entry));
        }
        if (!entry.contains("id")) {
            fail(path, "missing field \"id\"");
        }
        const std::string id = readString(entry["id"], join(path, "id"));
        if (id == "custom") {
            return readKernelStep(entry, path, defaults);
        }
        const FilterDesc* desc = registry_.find(id);
        if (desc == nullptr) {
            try {
                registry_.get(id);
            } catch (const std::invalid_argument& e) {
                fail(join(path, "id"), e.what());
            }
        }
        checkFields(entry, path, {"id", "params", "anchor", "scale", "offset", "border", "border_value", "depth"});
        PresetStep step;
        step.id = id;
        if (entry.contains("params")) {
            const std::string where = join(path, "params");
            const json& params = entry["params"];
            if (!params.is_object()) {
                fail(where, "expected an object, got " + typeName(params));
            }
            for (const auto& item : params.items()) {
                step.params.values[item.key()] = readParam(*desc, item.key(), item.value(), join(where, item.key()));
            }
        }
        readAnchor(entry, path, step.params);
        step.spec = build(*desc, step.params, path);
        applyCommon(entry, path, defaults, step.spec);
        return step;
    }

    double readParam(const FilterDesc& desc, const std::string& key, const json& value, const std::string& path) const
    {
        // The registry's messages start with the filter and key, which the path already says.
        const std::string prefix = "filter '" + desc.id + "', parameter '" + key + "': ";
        try {
            if (value.is_boolean()) {
                // true is not 1 for a size or a count: only a yes/no parameter takes a boolean.
                if (const ParamDesc* p = desc.param(key); p != nullptr && p->type != ParamType::Bool) {
                    fail(path, std::string("expected ") + (p->type == ParamType::Int ? "an integer" : "a number") +
                                   ", got " + (value.get<bool>() ? "true" : "false"));
                }
                const double v = value.get<bool>() ? 1.0 : 0.0;
                desc.checkValue(key, v);
                return v;
            }
            if (value.is_string()) {
                return desc.parseValue(key, value.get<std::string>());
            }
            const double v = readNumber(value, path);
            desc.checkValue(key, v);
            return v;
        } catch (const std::invalid_argument& e) {
            std::string message = e.what();
            if (message.rfind(prefix, 0) == 0) {
                message.erase(0, prefix.size());
            }
            fail(path, message);
        }
    }

    PresetStep readKernelStep(const json& object, const std::string& path, const StepDefaults& defaults) const
    {
        checkFields(object, path,
                    {"name", "description", "id", "size", "anchor", "weights", "scale", "offset", "normalize", "border",
                     "border_value", "depth"});
        if (!object.contains("size")) {
            fail(join(path, "size"), "missing (expected [width, height])");
        }
        if (!object.contains("weights")) {
            fail(join(path, "weights"), "missing (expected the kernel's numbers, row by row)");
        }
        const std::string sizePath = join(path, "size");
        const auto [width, height] = readPair(object["size"], sizePath, "[width, height]");
        if (width < 1 || width > kMaxKernelSide || height < 1 || height > kMaxKernelSide) {
            fail(sizePath, std::to_string(width) + " x " + std::to_string(height) + " is outside 1..." +
                               std::to_string(kMaxKernelSide) + " on a side");
        }
        const std::string weightsPath = join(path, "weights");
        const json& weights = object["weights"];
        if (!weights.is_array()) {
            fail(weightsPath, "expected an array of numbers, got " + typeName(weights));
        }
        const size_t expected = static_cast<size_t>(width) * static_cast<size_t>(height);
        if (weights.size() != expected) {
            fail(weightsPath, "expected " + std::to_string(expected) + " numbers (" + std::to_string(width) + " x " +
                                  std::to_string(height) + "), got " + std::to_string(weights.size()));
        }
        PresetStep step;
        step.id = "custom";
        Kernel2D kernel{width, height, {}};
        kernel.weights.reserve(expected);
        for (size_t i = 0; i < weights.size(); ++i) {
            kernel.weights.push_back(readNumber(weights[i], weightsPath + "[" + std::to_string(i) + "]"));
        }
        step.params.kernel = std::move(kernel);
        if (object.contains("normalize")) {
            const json& n = object["normalize"];
            if (!n.is_boolean()) {
                fail(join(path, "normalize"), "expected true or false, got " + typeName(n));
            }
            step.params.values["normalize"] = n.get<bool>() ? 1.0 : 0.0;
        }
        readAnchor(object, path, step.params);
        if (step.params.anchor) {
            const Point a = *step.params.anchor;
            if (a.x < 0 || a.y < 0 || a.x >= width || a.y >= height) {
                fail(join(path, "anchor"), "(" + std::to_string(a.x) + ", " + std::to_string(a.y) +
                                               ") is outside the " + std::to_string(width) + " x " +
                                               std::to_string(height) + " kernel");
            }
        }
        const FilterDesc* custom = registry_.find("custom");
        if (custom == nullptr) {
            fail(join(path, "id"), "this registry has no custom filter");
        }
        step.spec = build(*custom, step.params, path);
        applyCommon(object, path, defaults, step.spec);
        return step;
    }

    std::string source_;
    const FilterRegistry& registry_;
};

}  // namespace

Preset parsePreset(const std::string& jsonText, const std::string& source, const FilterRegistry& registry)
{
    json doc;
    try {
        doc = files::parseBoundedJson<json>(jsonText);
    } catch (const files::JsonTooDeep& e) {
        throw PresetError(source + ": invalid JSON: " + e.what());
    } catch (const json::exception& e) {
        // A syntax error, or a number too large for a double (out_of_range.406). Drop nlohmann's
        // "[json.exception.parse_error.101] " tag; the rest says where or which number.
        std::string message = e.what();
        const auto tag = message.find("] ");
        if (message.rfind("[json.exception", 0) == 0 && tag != std::string::npos) {
            message.erase(0, tag + 2);
        }
        throw PresetError(source + ": invalid JSON: " + message);
    }
    return PresetReader(source, registry).read(doc);
}

}  // namespace tessera::filters
