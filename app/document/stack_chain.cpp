// SPDX-License-Identifier: Apache-2.0
#include "app/document/stack_chain.h"

namespace tessera::app {

filters::FilterSpec buildSpec(const filters::StackEntry& entry, const filters::FilterRegistry& registry)
{
    const filters::FilterChoice& choice = entry.choice;
    filters::FilterSpec spec = registry.get(choice.id).build(choice.values);
    spec.border = choice.border;
    spec.borderValue = choice.borderValue;
    spec.depth = choice.depth;
    spec.scale = entry.scale;
    spec.offset = entry.offset;
    return spec;
}

filters::FilterChain buildChain(const filters::StackState& stack, const filters::FilterRegistry& registry)
{
    filters::FilterChain chain;
    for (const filters::StackEntry& entry : stack.entries) {
        if (entry.enabled) {
            chain.steps.push_back(buildSpec(entry, registry));
        }
    }
    return chain;
}

std::vector<filters::StackEntry> entriesFromPreset(const filters::Preset& preset)
{
    std::vector<filters::StackEntry> entries;
    for (const filters::PresetStep& step : preset.steps) {
        filters::StackEntry entry;
        entry.choice.id = step.id;
        entry.choice.values = step.params;
        entry.choice.border = step.spec.border;
        entry.choice.borderValue = step.spec.borderValue;
        entry.choice.depth = step.spec.depth;
        entry.scale = step.spec.scale;
        entry.offset = step.spec.offset;
        entries.push_back(std::move(entry));
    }
    return entries;
}

filters::Preset presetFromStack(const filters::StackState& stack, const std::string& name,
                                const filters::FilterRegistry& registry)
{
    filters::Preset preset;
    preset.name = name;
    for (const filters::StackEntry& entry : stack.entries) {
        if (entry.enabled) {
            preset.steps.push_back({entry.choice.id, entry.choice.values, buildSpec(entry, registry)});
        }
    }
    return preset;
}

}  // namespace tessera::app
