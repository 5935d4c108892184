#pragma once

#include "filters/registry.h"
#include "ui/filter_panel.h"

#include <QString>
#include <QWidget>

#include <vector>

class QListWidget;
class QMenu;
class QToolButton;

namespace tessera::ui {

/// One filter of the stack: what the Filter panel edits, whether it runs, and the scale and
/// offset a preset may carry (the panel does not show them; they stay while the filter stays).
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

    bool operator==(const StackState&) const = default;
};

/// What a stack edit did; Params edits of one entry in quick succession merge into one undo step.
enum class StackEdit { Add, Remove, Move, Enable, Params, ChangeFilter, Replace };

/// One user edit of the stack, as emitted by FilterStack::edited().
struct StackChange {
    StackState before;
    StackState after;
    StackEdit kind = StackEdit::Params;
    int entry = -1;  ///< the entry edited, as indexed in after (before for Remove)
    QString text;    ///< for the undo history, e.g. "Add Box blur"
};

/// The filter stack in the Filter dock: a list of filters run top to bottom, each with a check
/// box to enable it, and buttons to add (from the registry), remove and move entries; entries
/// can also be dragged. It holds the stack as a StackState; every user edit emits edited() with
/// the state before and after, and the undo history calls setState() to go back. GUI thread only.
class FilterStack : public QWidget {
    Q_OBJECT

public:
    /// Creates an empty stack; call setFilters() to fill the Add menu.
    explicit FilterStack(QWidget* parent = nullptr);
    ~FilterStack() override;

    /// Filters offered by Add, grouped by category, and used for the entries' titles.
    void setFilters(std::vector<filters::FilterDesc> filters);
    /// The stack as shown.
    const StackState& state() const { return state_; }
    /// Shows state without emitting edited(); emits currentChanged().
    void setState(const StackState& state);
    /// The selected entry, nullptr when the stack is empty.
    const StackEntry* currentEntry() const;
    /// The description of filter id as given to setFilters(); nullptr when it is not listed.
    const filters::FilterDesc* filter(const std::string& id) const;
    /// The title of the filter id ("Box blur"); the id itself when it is not listed.
    QString titleOf(const std::string& id) const;

public slots:
    /// Adds filter id with its default settings below the selected entry and selects it.
    void addFilter(const QString& id);
    /// Removes the selected entry; the one below it (or above, at the end) becomes selected.
    void removeCurrent();
    /// Moves the selected entry by delta places (negative: up), clamped to the list.
    void moveCurrent(int delta);
    /// Turns entry index on or off.
    void setEntryEnabled(int index, bool enabled);
    /// Makes choice the selected entry's settings (a Filter panel edit); with an empty stack the
    /// choice becomes the first entry. Scale, offset and (for a kernel of the same size) the
    /// anchor of the entry stay, as the panel does not show them.
    void editCurrent(const tessera::ui::FilterChoice& choice);
    /// Replaces the selected entry (an edit from outside the panel, e.g. the kernel editor) and
    /// emits currentChanged(); with an empty stack entry becomes the first one.
    void replaceCurrent(const tessera::ui::StackEntry& entry);
    /// Replaces every entry (a loaded preset) in one edit; text names it in the undo history.
    void replaceEntries(const std::vector<tessera::ui::StackEntry>& entries, const QString& text);

signals:
    /// The user changed the stack; change.after is already shown.
    void edited(const tessera::ui::StackChange& change);
    /// Another entry (or none: -1) is selected, or setState() showed a new state: the Filter
    /// panel should show currentEntry().
    void currentChanged(int index);

private:
    void commit(StackState next, StackEdit kind, int entry, const QString& text);
    bool commitCurrent(StackEntry entry);
    void refresh();
    void onRowsMoved();
    void updateButtons();
    QString describe(const StackEntry& entry) const;

    std::vector<filters::FilterDesc> filters_;
    StackState state_;
    QListWidget* list_ = nullptr;
    QMenu* addMenu_ = nullptr;
    QToolButton* addButton_ = nullptr;
    QToolButton* removeButton_ = nullptr;
    QToolButton* upButton_ = nullptr;
    QToolButton* downButton_ = nullptr;
    bool refreshing_ = false;
};

}  // namespace tessera::ui
