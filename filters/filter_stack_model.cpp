// SPDX-License-Identifier: Apache-2.0
#include "filters/filter_stack_model.h"

namespace tessera::filters {

Kernel2D defaultCustomKernel()
{
    return Kernel2D{3, 3, {0, 0, 0, 0, 1, 0, 0, 0, 0}};
}

FilterChoice defaultChoice(const FilterDesc& desc)
{
    FilterChoice choice;
    choice.id = desc.id;
    choice.values = desc.defaults();
    if (desc.id == kCustomFilterId) {
        choice.values.kernel = defaultCustomKernel();
    }
    return choice;
}

const StackEntry* StackState::currentEntry() const
{
    if (current < 0 || current >= static_cast<int>(entries.size())) {
        return nullptr;
    }
    return &entries[static_cast<size_t>(current)];
}

StackEntry editedEntry(const StackEntry* old, const FilterChoice& choice)
{
    StackEntry entry{choice};
    if (old == nullptr) {
        return entry;
    }
    entry.enabled = old->enabled;
    if (old->choice.id != choice.id) {
        return entry;
    }
    entry.scale = old->scale;
    entry.offset = old->offset;
    const auto& kernel = old->choice.values.kernel;
    if (!choice.values.anchor && kernel && choice.values.kernel && kernel->width == choice.values.kernel->width &&
        kernel->height == choice.values.kernel->height) {
        entry.choice.values.anchor = old->choice.values.anchor;
    }
    return entry;
}

}  // namespace tessera::filters
