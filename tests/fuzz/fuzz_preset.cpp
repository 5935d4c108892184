// SPDX-License-Identifier: Apache-2.0
// Preset JSON, as --preset, the GUI's preset menu and kernel files in JSON read it: only
// PresetError may come out, and what parses must survive a save and a reload unchanged.
#include "filters/preset_io.h"
#include "filters/registry.h"

#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    const auto& registry = tessera::filters::builtinRegistry();
    tessera::filters::Preset preset;
    try {
        preset = tessera::filters::parsePreset(text, "fuzz.json", registry);
    } catch (const tessera::filters::PresetError&) {
        return 0;
    }
    const std::string saved = tessera::filters::presetToJson(preset);
    tessera::filters::Preset again;
    try {
        again = tessera::filters::parsePreset(saved, "saved.json", registry);
    } catch (const tessera::filters::PresetError&) {
        std::abort();  // a preset we wrote must read back
    }
    if (!(again == preset)) {
        std::abort();
    }
    return 0;
}
