// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"

#include <QDockWidget>

#include <optional>

class QStackedWidget;

namespace tessera::ui {

class FilterStack;
class KernelEditor;

/// The Kernel dock: the kernel of the filter stack's selected entry. A custom entry's kernel,
/// anchor, scale and offset are edited here, and each edit asks the document (through the
/// stack) for an undoable edit of the entry; for a built-in filter the dock shows the kernel it makes, read-only, and "Copy to
/// custom" turns the entry into a custom kernel. Editing with an empty stack starts one. GUI
/// thread only.
class KernelDock : public QDockWidget {
    Q_OBJECT

public:
    /// Follows stack (which must outlive the dock).
    explicit KernelDock(FilterStack* stack, QWidget* parent = nullptr);

    /// The editor in the dock.
    KernelEditor* editor() const { return editor_; }
    /// True while the dock says the stack is empty instead of showing the editor.
    bool showsEmptyState() const;

private:
    void showCurrentEntry();
    void kernelEdited(const filters::Kernel2D& kernel, std::optional<filters::Point> anchor);

    FilterStack* stack_;
    KernelEditor* editor_ = nullptr;
    QStackedWidget* pages_ = nullptr;  ///< the empty stack's note, then the editor
    bool editing_ = false;  ///< true while the editor's own edit goes into the stack
};

}  // namespace tessera::ui
