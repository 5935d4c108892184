// SPDX-License-Identifier: Apache-2.0
#include "ui/kernel_dock.h"

#include "ui/filter_panel.h"
#include "ui/filter_stack.h"
#include "ui/kernel_editor.h"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QStackedWidget>

#include <exception>

namespace tessera::ui {

KernelDock::KernelDock(FilterStack* stack, QWidget* parent) : QDockWidget(tr("Kernel"), parent), stack_(stack)
{
    setObjectName(QStringLiteral("kernelDock"));
    // Scrolls rather than forcing its height on the window when the dock shares a column.
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // The editor sits in a plain holder: the scroll area asks the holder's layout, which asks
    // the editor whether it sizes by height-for-width (it says no).
    auto* holder = new QWidget(scroll);
    auto* holding = new QVBoxLayout(holder);
    holding->setContentsMargins(0, 0, 0, 0);
    editor_ = new KernelEditor(holder);
    holding->addWidget(editor_);
    scroll->setWidget(holder);
    pages_ = new QStackedWidget(this);
    pages_->setObjectName(QStringLiteral("kernelPages"));
    auto* empty = new QLabel(tr("The kernel of the selected filter shows here. Add a <i>Custom kernel</i> "
                                "filter to draw your own."),
                             pages_);
    empty->setObjectName(QStringLiteral("emptyKernelText"));
    empty->setWordWrap(true);
    empty->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    empty->setMargin(9);
    pages_->addWidget(empty);
    pages_->addWidget(scroll);
    setWidget(pages_);
    connect(stack_, &FilterStack::currentChanged, this, &KernelDock::showCurrentEntry);
    connect(editor_, &KernelEditor::kernelEdited, this, &KernelDock::kernelEdited);
}

bool KernelDock::showsEmptyState() const
{
    return pages_->currentIndex() == 0;
}

void KernelDock::showCurrentEntry()
{
    const filters::StackEntry* entry = stack_->currentEntry();
    pages_->setCurrentIndex(stack_->state().entries.empty() ? 0 : 1);
    if (entry == nullptr) {
        return;  // with an empty stack the editor keeps what it has
    }
    const filters::FilterChoice& choice = entry->choice;
    if (choice.id == FilterPanel::kCustomId) {
        showCustom(*entry);
        return;
    }
    const filters::FilterDesc* desc = stack_->filter(choice.id);
    if (desc == nullptr) {
        return;
    }
    try {
        filters::FilterSpec spec = desc->build(choice.values);
        spec.scale = entry->scale;
        spec.offset = entry->offset;
        editor_->showReadOnly(spec, QStringLiteral("%1, %2 \u00d7 %3")
                                        .arg(stack_->titleOf(choice.id))
                                        .arg(spec.kernel.width)
                                        .arg(spec.kernel.height));
    } catch (const std::exception&) {
        // Parameters the filter refuses: the window already says why; the last kernel stays.
    }
}

void KernelDock::showCustom(const filters::StackEntry& entry)
{
    // The answer to the editor's own edit finds the editor showing it already; setting it again
    // would clear the editor's note and move the grid's current cell.
    const filters::Kernel2D kernel = entry.choice.values.kernel.value_or(filters::Kernel2D{});
    if (editor_->isReadOnly() || editor_->kernel() != kernel || editor_->anchor() != entry.choice.values.anchor) {
        editor_->setKernel(kernel, entry.choice.values.anchor);
    }
    if (editor_->scale() != entry.scale || editor_->offset() != entry.offset) {
        editor_->setScaleOffset(entry.scale, entry.offset);
    }
}

void KernelDock::kernelEdited(const filters::Kernel2D& kernel, std::optional<filters::Point> anchor)
{
    const filters::FilterDesc* custom = stack_->filter(FilterPanel::kCustomId);
    if (custom == nullptr) {
        return;
    }
    // A built-in entry copied to a custom kernel keeps its place, border and depth.
    const filters::StackEntry* current = stack_->currentEntry();
    filters::StackEntry entry = current != nullptr ? *current : filters::StackEntry{};
    if (entry.choice.id != FilterPanel::kCustomId) {
        entry.choice.id = custom->id;
        entry.choice.values = filters::defaultChoice(*custom).values;
    }
    entry.choice.values.kernel = kernel;
    entry.choice.values.anchor = anchor;
    entry.scale = editor_->scale();
    entry.offset = editor_->offset();
    emit entryEdited(entry);
}

}  // namespace tessera::ui
