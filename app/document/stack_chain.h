// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "filters/preset_io.h"
#include "filters/registry.h"
#include "filters/filter_stack_model.h"

#include <string>
#include <vector>

namespace tessera::app {

/// The spec one stack entry stands for: the registry's build of its parameters with the
/// entry's border, depth, scale and offset. Throws std::invalid_argument (unknown filter, a
/// parameter combination the filter refuses).
filters::FilterSpec buildSpec(const filters::StackEntry& entry, const filters::FilterRegistry& registry);

/// The enabled entries of stack, top to bottom, as a chain (empty when none is enabled). Throws
/// std::invalid_argument as buildSpec().
filters::FilterChain buildChain(const filters::StackState& stack, const filters::FilterRegistry& registry);

/// Stack entries (all enabled) that show the steps of preset.
std::vector<filters::StackEntry> entriesFromPreset(const filters::Preset& preset);

/// A preset named name holding the enabled entries of stack. Throws std::invalid_argument as
/// buildSpec().
filters::Preset presetFromStack(const filters::StackState& stack, const std::string& name,
                                const filters::FilterRegistry& registry);

}  // namespace tessera::app
