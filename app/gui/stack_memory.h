// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_stack_model.h"
#include "filters/registry.h"

#include <QString>

#include <vector>

namespace tessera::app::gui {

/// The filter stack each image was left with, by the image's exact absolute path, kept in the
/// settings across sessions for the most recent kMaxImages images: opening an image brings its
/// own stack back, and no other image's. GUI thread only (QSettings).
class StackMemory {
public:
    static constexpr int kMaxImages = 100;

    /// Stacks are stored as presets of filters from registry (which must outlive this).
    explicit StackMemory(const filters::FilterRegistry& registry) : registry_(registry) {}

    /// Remembers the enabled filters of stack for path, as the most recent; a stack with none
    /// (or one that does not build) forgets path.
    void keep(const QString& path, const filters::StackState& stack) const;
    /// The filters remembered for path, all enabled; empty when none, or when one of them is a
    /// filter this version does not know.
    std::vector<filters::StackEntry> recall(const QString& path) const;

private:
    const filters::FilterRegistry& registry_;
};

}  // namespace tessera::app::gui
