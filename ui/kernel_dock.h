// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "filters/filter_stack_model.h"

#include <QDockWidget>

#include <optional>

class QStackedWidget;

namespace tessera::ui {

class FilterStack;
class KernelEditor;

/// The Kernel dock: the kernel of the filter stack's selected entry. A custom entry's kernel,
/// anchor, scale and offset are edited here, and each edit emits entryEdited() for app/ to make
/// an undoable edit of the document; for a built-in filter the dock shows the kernel it makes,
/// read-only, and "Copy to custom" turns the entry into a custom kernel. Editing with an empty
/// stack starts one. The dock shows only what the stack (the document's) shows. GUI thread only.
class KernelDock : public QDockWidget {
    Q_OBJECT

public:
    /// Follows stack (which must outlive the dock).
    explicit KernelDock(FilterStack* stack, QWidget* parent = nullptr);

    /// The editor in the dock.
    KernelEditor* editor() const { return editor_; }
    /// True while the dock says the stack is empty instead of showing the editor.
    bool showsEmptyState() const;

signals:
    /// The user edited the kernel: the selected entry (or, with an empty stack, the first one)
    /// should become entry.
    void entryEdited(const tessera::filters::StackEntry& entry);

private:
    void showCurrentEntry();
    void showCustom(const filters::StackEntry& entry);
    void kernelEdited(const filters::Kernel2D& kernel, std::optional<filters::Point> anchor);

    FilterStack* stack_;
    KernelEditor* editor_ = nullptr;
    QStackedWidget* pages_ = nullptr;  ///< the empty stack's note, then the editor
};

}  // namespace tessera::ui
