// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/registry.h"

#include <QDockWidget>

#include <vector>

class QStackedWidget;

namespace tessera::ui {

class FilterPanel;
class FilterStack;

/// The Filter dock: the filter stack above the parameter panel. The panel shows the stack's
/// selected entry whenever the stack shows a new state; the panel's edits go to the document
/// straight from FilterPanel::choiceChanged() (app/ connects them), and come back here only as
/// the document's new state. GUI thread only.
class FilterDock : public QDockWidget {
    Q_OBJECT

public:
    /// Builds an empty stack and panel; call setFilters() to fill them.
    explicit FilterDock(QWidget* parent = nullptr);

    /// The list of filters.
    FilterStack* stack() const { return stack_; }
    /// The selected filter's parameters.
    FilterPanel* panel() const { return panel_; }
    /// Offers these filters in the stack's Add menu and the panel's filter list.
    void setFilters(const std::vector<filters::FilterDesc>& filters);

    /// True while the dock shows the empty stack's page instead of the parameters.
    bool showsEmptyState() const;

private:
    void showCurrentEntry();
    QWidget* makeEmptyPage();

    FilterStack* stack_ = nullptr;
    FilterPanel* panel_ = nullptr;
    QStackedWidget* pages_ = nullptr;  ///< the empty stack's page, then the parameters
};

}  // namespace tessera::ui
