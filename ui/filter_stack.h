// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/registry.h"
#include "filters/filter_stack_model.h"

#include <QString>
#include <QWidget>

#include <vector>

class QListWidget;
class QMenu;
class QToolButton;

namespace tessera::ui {

/// The filter stack in the Filter dock: a list of filters run top to bottom, each with a check
/// box to enable it, and buttons to add (from the registry), remove and move entries; entries
/// can also be dragged. It shows a StackState it is given (the document's) and changes nothing
/// itself: every user edit emits a request, and the document's answer comes back through
/// setState(). GUI thread only.
class FilterStack : public QWidget {
    Q_OBJECT

public:
    /// Creates an empty stack; call setFilters() to fill the Add menu.
    explicit FilterStack(QWidget* parent = nullptr);
    ~FilterStack() override;

    /// Filters offered by Add, grouped by category, and used for the entries' titles.
    void setFilters(std::vector<filters::FilterDesc> filters);
    /// Room for a few entries and the buttons; the list grows only when the dock has room.
    QSize sizeHint() const override;
    /// The Add menu (also Filters > Add Filter in the main window).
    QMenu* addMenu() const { return addMenu_; }
    /// The stack as shown.
    const filters::StackState& state() const { return state_; }
    /// Shows state (the document's); emits currentChanged().
    void setState(const filters::StackState& state);
    /// The selected entry, nullptr when the stack is empty.
    const filters::StackEntry* currentEntry() const;
    /// The description of filter id as given to setFilters(); nullptr when it is not listed.
    const filters::FilterDesc* filter(const std::string& id) const;
    /// The title of the filter id ("Box blur"); the id itself when it is not listed.
    QString titleOf(const std::string& id) const;

public slots:
    /// Asks to add filter id below the selected entry.
    void addFilter(const QString& id);
    /// Asks to remove the selected entry.
    void removeCurrent();
    /// Asks to move the selected entry by delta places (negative: up).
    void moveCurrent(int delta);
    /// Asks to turn entry index on or off.
    void setEntryEnabled(int index, bool enabled);

signals:
    /// The user wants filter id added below the selected entry.
    void addRequested(const QString& id);
    /// The user wants entry index removed.
    void removeRequested(int index);
    /// The user wants entry from moved to place to.
    void moveRequested(int from, int to);
    /// The user wants entry index turned on or off.
    void enableRequested(int index, bool enabled);
    /// The user selected another entry (or none: -1), which the document follows, or setState()
    /// showed a new state: the Filter panel should show currentEntry().
    void currentChanged(int index);

private:
    void refresh();
    void onRowsMoved(int from, int row);
    void updateButtons();
    QString describe(const filters::StackEntry& entry) const;

    std::vector<filters::FilterDesc> filters_;
    filters::StackState state_;
    QListWidget* list_ = nullptr;
    QMenu* addMenu_ = nullptr;
    QToolButton* addButton_ = nullptr;
    QToolButton* removeButton_ = nullptr;
    QToolButton* upButton_ = nullptr;
    QToolButton* downButton_ = nullptr;
    bool refreshing_ = false;
};

}  // namespace tessera::ui
