// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "filters/registry.h"

#include <string>
#include <vector>

namespace tessera::filters {

/// Id of the filter whose kernel is typed in by the user instead of computed.
inline constexpr const char* kCustomFilterId = "custom";

/// One filter of the document with its parameter values and output settings, as plain data.
struct FilterChoice {
    std::string id;
    ParamValues values;
    Border border = Border::Reflect101;
    double borderValue = 0.0;
    OutputDepth depth = OutputDepth::Same;

    bool operator==(const FilterChoice&) const = default;
};

/// The custom filter's starting kernel: a 3 x 3 identity, so it is visibly a kernel to edit.
Kernel2D defaultCustomKernel();

/// The settings a filter starts with: its parameter defaults, the default border and depth,
/// and for the custom filter defaultCustomKernel(). Does not throw.
FilterChoice defaultChoice(const FilterDesc& desc);

/// One filter of the stack: its choice, whether it runs, and the scale and offset a preset may
/// carry (the Filter panel does not show them; they stay while the filter stays).
struct StackEntry {
    FilterChoice choice;
    bool enabled = true;
    double scale = 1.0;
    double offset = 0.0;

    bool operator==(const StackEntry&) const = default;
};

/// The whole stack as a value: entries in the order they run, and the selected one.
struct StackState {
    std::vector<StackEntry> entries;
    int current = -1;  ///< index of the selected entry; -1 when the stack is empty

    /// The selected entry, nullptr when none is selected.
    const StackEntry* currentEntry() const;
    bool operator==(const StackState&) const = default;
};

/// What a stack edit did; Params edits of one entry in quick succession merge into one undo step.
enum class StackEdit { Add, Remove, Move, Enable, Params, ChangeFilter, Replace };

/// The entry that results from editing old (nullptr: none selected) into choice: for the same
/// filter, what the panel does not show stays (enabled, scale, offset, and the anchor while the
/// kernel keeps its size); for another filter only the enabled flag stays.
StackEntry editedEntry(const StackEntry* old, const FilterChoice& choice);

}  // namespace tessera::filters
