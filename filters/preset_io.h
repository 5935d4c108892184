// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "filters/registry.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::filters {

/// A named chain as stored in a preset file, with the registry parameters that made each step
/// (so the GUI can show them again).
struct PresetStep {
    std::string id;      ///< registry id
    ParamValues params;  ///< values used to build it
    FilterSpec spec;     ///< the built spec, with border/scale/offset/depth applied
    bool operator==(const PresetStep&) const = default;
};

struct Preset {
    std::string name;
    std::vector<PresetStep> steps;
    std::string description;  ///< optional free text ("description" in JSON)
    /// The steps' specs in order.
    FilterChain chain() const;
    bool operator==(const Preset&) const = default;
};

/// Thrown by preset parsing; what() names the file (when known) and the JSON field, e.g.
/// "preset.json: filters[1].weights: expected 9 numbers (3 x 3), got 8".
class PresetError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parses a preset from JSON text. Accepts a single kernel object
/// {name, size:[w,h], anchor:[x,y], weights:[...], scale, offset, normalize, border, border_value, depth}
/// or a chain {name, filters:[{id, params:{...}} | kernel object with "id":"custom"], border, ...}.
/// `source` is used in messages. JSON nested deeper than files::kMaxJsonDepth is refused before
/// it is built. Throws PresetError.
Preset parsePreset(const std::string& jsonText, const std::string& source, const FilterRegistry& registry);

/// The largest preset file loadPreset reads (far above any real stack of filters).
inline constexpr std::uintmax_t kMaxPresetBytes = std::uintmax_t{4} << 20;

/// The text of a preset file under the input rule (files::readInputFile); throws PresetError
/// naming the file when it is missing, unreadable, not a regular file (a FIFO, a device) or
/// larger than kMaxPresetBytes. Nothing is parsed.
std::string readPresetFile(const std::string& path);

/// readPresetFile, then parsePreset: throws PresetError for either.
Preset loadPreset(const std::string& path, const FilterRegistry& registry);
/// Serialises to JSON that parsePreset reads back to an equal Preset.
std::string presetToJson(const Preset& preset);
/// Writes under the output rule (files::writeOutputFile): a file is replaced through a temporary
/// in the same folder and a rename, keeping its mode. Throws PresetError.
void savePreset(const Preset& preset, const std::string& path);

}  // namespace tessera::filters
