// SPDX-License-Identifier: Apache-2.0
#include "ui/filter_dock.h"

#include "ui/filter_panel.h"
#include "ui/filter_stack.h"

#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

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
    // An empty stack shows how to start rather than the parameters of no filter.
    pages_ = new QStackedWidget(splitter);
    pages_->setObjectName(QStringLiteral("filterPages"));
    pages_->addWidget(makeEmptyPage());
    pages_->addWidget(scroll);
    splitter->addWidget(stack_);
    splitter->addWidget(pages_);
    // The parameters get the height; the stack keeps room for a few entries.
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    setWidget(splitter);

    connect(stack_, &FilterStack::currentChanged, this, &FilterDock::showCurrentEntry);
}

bool FilterDock::showsEmptyState() const
{
    return pages_->currentIndex() == 0;
}

QWidget* FilterDock::makeEmptyPage()
{
    auto* page = new QWidget;
    page->setObjectName(QStringLiteral("emptyStackPage"));
    auto* text = new QLabel(tr("<b>No filter yet.</b><br>The image shows as it is. Add a filter with "
                               "<i>Add</i> above or <i>Filters › Add Filter</i>; its settings then "
                               "show here."),
                            page);
    text->setObjectName(QStringLiteral("emptyStackText"));
    text->setWordWrap(true);
    auto* add = new QPushButton(tr("Add a Filter"), page);
    add->setObjectName(QStringLiteral("emptyStackAddButton"));
    add->setMenu(stack_->addMenu());
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(text);
    layout->addWidget(add, 0, Qt::AlignLeft);
    layout->addStretch(1);
    return page;
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
    pages_->setCurrentIndex(stack_->state().entries.empty() ? 0 : 1);
    // The panel touches only the controls whose value differs, so the answer to its own edit
    // leaves a dragged slider or a field being typed in alone.
    if (const filters::StackEntry* entry = stack_->currentEntry()) {
        panel_->setChoice(entry->choice);
    }
}

}  // namespace tessera::ui
