#include "ui/filter_dock.h"

#include "ui/filter_panel.h"
#include "ui/filter_stack.h"

#include <QScrollArea>
#include <QSplitter>

namespace tessera::ui {

FilterDock::FilterDock(QWidget* parent) : QDockWidget(tr("Filter"), parent)
{
    setObjectName(QStringLiteral("filterDock"));
    setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("filterSplitter"));
    stack_ = new FilterStack(splitter);
    // The panel grows with the parameters of the selected filter; it scrolls rather than
    // squeezing the stack.
    auto* scroll = new QScrollArea(splitter);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    panel_ = new FilterPanel(scroll);
    scroll->setWidget(panel_);
    splitter->addWidget(stack_);
    splitter->addWidget(scroll);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    setWidget(splitter);

    connect(stack_, &FilterStack::currentChanged, this, &FilterDock::showCurrentEntry);
    connect(panel_, &FilterPanel::choiceChanged, this, [this] {
        // The panel already shows this edit; showing the document's answer again would reset
        // a slider or a kernel field under the user's hands.
        editing_ = true;
        stack_->editCurrent(panel_->currentChoice());
        editing_ = false;
    });
}

void FilterDock::setFilters(const std::vector<filters::FilterDesc>& filters)
{
    stack_->setFilters(filters);
    panel_->setFilters(filters);
    showCurrentEntry();
}

void FilterDock::showCurrentEntry()
{
    // With an empty stack the panel keeps what it shows: its next edit starts a new stack.
    if (editing_) {
        return;
    }
    if (const filters::StackEntry* entry = stack_->currentEntry()) {
        panel_->setChoice(entry->choice);
    }
}

}  // namespace tessera::ui
