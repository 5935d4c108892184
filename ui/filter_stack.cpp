#include "ui/filter_stack.h"

#include <QAbstractItemModel>
#include <QHBoxLayout>
#include <QListWidget>
#include <QMenu>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace tessera::ui {

namespace {

using filters::FilterDesc;
using filters::ParamDesc;
using filters::ParamType;

QString qs(const std::string& text) { return QString::fromStdString(text); }

// A short reading of one parameter value for the list ("5", "1.5", "vertical").
QString formatValue(const ParamDesc& desc, double value)
{
    switch (desc.type) {
    case ParamType::Choice: {
        const auto index = static_cast<size_t>(std::lround(value));
        return index < desc.choices.size() ? qs(desc.choices[index]) : QString::number(value);
    }
    case ParamType::Bool: return value != 0.0 ? QStringLiteral("on") : QStringLiteral("off");
    default: return QString::number(value, 'g', 4);
    }
}

QToolButton* makeButton(QWidget* parent, const char* name, const QString& text, const QString& tip)
{
    auto* button = new QToolButton(parent);
    button->setObjectName(QString::fromLatin1(name));
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    return button;
}

}  // namespace

FilterStack::FilterStack(QWidget* parent) : QWidget(parent)
{
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("stackList"));
    list_->setToolTip(tr("Filters run from top to bottom; untick one to skip it; drag to reorder"));
    list_->setDragDropMode(QAbstractItemView::InternalMove);
    list_->setDefaultDropAction(Qt::MoveAction);
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->setUniformItemSizes(true);

    addMenu_ = new QMenu(this);
    addMenu_->setObjectName(QStringLiteral("stackAddMenu"));
    addButton_ = makeButton(this, "stackAddButton", tr("Add"), tr("Add a filter below the selected one"));
    addButton_->setMenu(addMenu_);
    addButton_->setPopupMode(QToolButton::InstantPopup);
    addButton_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    removeButton_ = makeButton(this, "stackRemoveButton", tr("Remove"), tr("Remove the selected filter"));
    upButton_ = makeButton(this, "stackUpButton", tr("Up"), tr("Run the selected filter earlier"));
    upButton_->setIcon(style()->standardIcon(QStyle::SP_ArrowUp));
    downButton_ = makeButton(this, "stackDownButton", tr("Down"), tr("Run the selected filter later"));
    downButton_->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));

    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(addButton_);
    buttons->addWidget(removeButton_);
    buttons->addStretch(1);
    buttons->addWidget(upButton_);
    buttons->addWidget(downButton_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(list_);
    layout->addLayout(buttons);

    connect(removeButton_, &QToolButton::clicked, this, &FilterStack::removeCurrent);
    connect(upButton_, &QToolButton::clicked, this, [this] { moveCurrent(-1); });
    connect(downButton_, &QToolButton::clicked, this, [this] { moveCurrent(1); });
    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (refreshing_ || row == state_.current) {
            return;
        }
        state_.current = row;
        updateButtons();
        emit currentChanged(row);
    });
    connect(list_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (!refreshing_) {
            setEntryEnabled(list_->row(item), item->checkState() == Qt::Checked);
        }
    });
    // A drag inside the list moves a row of the model; the stack follows.
    connect(list_->model(), &QAbstractItemModel::rowsMoved, this, &FilterStack::onRowsMoved);
    updateButtons();
}

FilterStack::~FilterStack() = default;

void FilterStack::setFilters(std::vector<filters::FilterDesc> filters)
{
    filters_ = std::move(filters);
    addMenu_->clear();
    std::map<std::string, QMenu*> categories;
    for (const FilterDesc& desc : filters_) {
        QMenu*& sub = categories[desc.category];
        if (sub == nullptr) {
            sub = addMenu_->addMenu(qs(desc.category));
        }
        QAction* action = sub->addAction(qs(desc.title));
        action->setObjectName(QStringLiteral("stackAdd_") + qs(desc.id));
        action->setToolTip(qs(desc.description));
        const QString id = qs(desc.id);
        connect(action, &QAction::triggered, this, [this, id] { addFilter(id); });
    }
    refresh();
}

void FilterStack::setState(const StackState& state)
{
    state_ = state;
    refresh();
    emit currentChanged(state_.current);
}

const StackEntry* FilterStack::currentEntry() const
{
    if (state_.current < 0 || state_.current >= static_cast<int>(state_.entries.size())) {
        return nullptr;
    }
    return &state_.entries[static_cast<size_t>(state_.current)];
}

const filters::FilterDesc* FilterStack::filter(const std::string& id) const
{
    const auto found = std::find_if(filters_.begin(), filters_.end(),
                                    [&id](const FilterDesc& desc) { return desc.id == id; });
    return found != filters_.end() ? &*found : nullptr;
}

QString FilterStack::titleOf(const std::string& id) const
{
    const FilterDesc* desc = filter(id);
    return desc != nullptr ? qs(desc->title) : qs(id);
}

void FilterStack::addFilter(const QString& id)
{
    const FilterDesc* found = filter(id.toStdString());
    if (found == nullptr) {
        return;
    }
    StackState next = state_;
    const int at = state_.current < 0 ? static_cast<int>(next.entries.size()) : state_.current + 1;
    next.entries.insert(next.entries.begin() + at, StackEntry{FilterPanel::defaultChoice(*found)});
    next.current = at;
    commit(std::move(next), StackEdit::Add, at, tr("Add %1").arg(qs(found->title)));
    emit currentChanged(state_.current);
}

void FilterStack::removeCurrent()
{
    const StackEntry* entry = currentEntry();
    if (entry == nullptr) {
        return;
    }
    const QString text = tr("Remove %1").arg(titleOf(entry->choice.id));
    const int index = state_.current;
    StackState next = state_;
    next.entries.erase(next.entries.begin() + index);
    next.current = std::min(index, static_cast<int>(next.entries.size()) - 1);
    commit(std::move(next), StackEdit::Remove, index, text);
    emit currentChanged(state_.current);
}

void FilterStack::moveCurrent(int delta)
{
    const StackEntry* entry = currentEntry();
    if (entry == nullptr) {
        return;
    }
    const int from = state_.current;
    const int to = std::clamp(from + delta, 0, static_cast<int>(state_.entries.size()) - 1);
    if (to == from) {
        return;
    }
    const QString text = (to < from ? tr("Move %1 up") : tr("Move %1 down")).arg(titleOf(entry->choice.id));
    StackState next = state_;
    StackEntry moved = next.entries[static_cast<size_t>(from)];
    next.entries.erase(next.entries.begin() + from);
    next.entries.insert(next.entries.begin() + to, std::move(moved));
    next.current = to;
    commit(std::move(next), StackEdit::Move, to, text);
}

void FilterStack::setEntryEnabled(int index, bool enabled)
{
    if (index < 0 || index >= static_cast<int>(state_.entries.size()) ||
        state_.entries[static_cast<size_t>(index)].enabled == enabled) {
        return;
    }
    StackState next = state_;
    StackEntry& entry = next.entries[static_cast<size_t>(index)];
    entry.enabled = enabled;
    const QString title = titleOf(entry.choice.id);
    commit(std::move(next), StackEdit::Enable, index, enabled ? tr("Enable %1").arg(title) : tr("Disable %1").arg(title));
}

void FilterStack::editCurrent(const FilterChoice& choice)
{
    const StackEntry* old = currentEntry();
    StackEntry entry{choice};
    if (old != nullptr && old->choice.id == choice.id) {
        // What the panel does not show stays: scale and offset, and the anchor while the
        // kernel keeps its size.
        entry = StackEntry{choice, old->enabled, old->scale, old->offset};
        const auto& kernel = old->choice.values.kernel;
        if (!choice.values.anchor && kernel && choice.values.kernel &&
            kernel->width == choice.values.kernel->width && kernel->height == choice.values.kernel->height) {
            entry.choice.values.anchor = old->choice.values.anchor;
        }
    } else if (old != nullptr) {
        entry.enabled = old->enabled;
    }
    commitCurrent(std::move(entry));
}

void FilterStack::replaceCurrent(const StackEntry& entry)
{
    if (commitCurrent(entry)) {
        emit currentChanged(state_.current);
    }
}

bool FilterStack::commitCurrent(StackEntry entry)
{
    if (entry.choice.id.empty()) {
        return false;
    }
    const QString title = titleOf(entry.choice.id);
    StackState next = state_;
    if (next.entries.empty()) {
        next.entries.push_back(std::move(entry));
        next.current = 0;
        commit(std::move(next), StackEdit::Add, 0, tr("Add %1").arg(title));
        return true;
    }
    StackEntry& old = next.entries[static_cast<size_t>(state_.current)];
    if (old == entry) {
        return false;
    }
    const bool sameFilter = old.choice.id == entry.choice.id;
    old = std::move(entry);
    commit(std::move(next), sameFilter ? StackEdit::Params : StackEdit::ChangeFilter, state_.current,
           sameFilter ? tr("Change %1").arg(title) : tr("Change filter to %1").arg(title));
    return true;
}

void FilterStack::replaceEntries(const std::vector<StackEntry>& entries, const QString& text)
{
    StackState next{entries, entries.empty() ? -1 : 0};
    commit(std::move(next), StackEdit::Replace, -1, text);
    emit currentChanged(state_.current);
}

void FilterStack::commit(StackState next, StackEdit kind, int entry, const QString& text)
{
    StackChange change{state_, next, kind, entry, text};
    state_ = std::move(next);
    refresh();
    emit edited(change);
}

void FilterStack::onRowsMoved()
{
    if (refreshing_) {
        return;
    }
    // Each row still carries the index its entry had before the drag.
    StackState next;
    int moved = -1;
    for (int row = 0; row < list_->count(); ++row) {
        const int old = list_->item(row)->data(Qt::UserRole).toInt();
        next.entries.push_back(state_.entries.at(static_cast<size_t>(old)));
        if (old == state_.current) {
            moved = row;
        }
    }
    next.current = moved;
    if (next.entries == state_.entries) {
        return;
    }
    const QString title = moved >= 0 ? titleOf(next.entries[static_cast<size_t>(moved)].choice.id) : QString();
    commit(std::move(next), StackEdit::Move, moved, tr("Move %1").arg(title));
}

void FilterStack::refresh()
{
    // Items are updated in place: refresh() may run inside a signal of the list's own items.
    refreshing_ = true;
    const int count = static_cast<int>(state_.entries.size());
    while (list_->count() > count) {
        delete list_->takeItem(list_->count() - 1);
    }
    while (list_->count() < count) {
        auto* item = new QListWidgetItem(list_);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable | Qt::ItemIsDragEnabled);
    }
    for (int row = 0; row < count; ++row) {
        const StackEntry& entry = state_.entries[static_cast<size_t>(row)];
        QListWidgetItem* item = list_->item(row);
        item->setText(describe(entry));
        item->setToolTip(titleOf(entry.choice.id));
        item->setCheckState(entry.enabled ? Qt::Checked : Qt::Unchecked);
        item->setForeground(list_->palette().brush(entry.enabled ? QPalette::Text : QPalette::PlaceholderText));
        item->setData(Qt::UserRole, row);
    }
    list_->setCurrentRow(state_.current);
    refreshing_ = false;
    updateButtons();
}

void FilterStack::updateButtons()
{
    const int count = static_cast<int>(state_.entries.size());
    const bool selected = state_.current >= 0 && state_.current < count;
    removeButton_->setEnabled(selected);
    upButton_->setEnabled(selected && state_.current > 0);
    downButton_->setEnabled(selected && state_.current < count - 1);
}

QString FilterStack::describe(const StackEntry& entry) const
{
    const QString text = titleOf(entry.choice.id);
    const FilterDesc* found = filter(entry.choice.id);
    if (found == nullptr) {
        return text;
    }
    QStringList values;
    for (const ParamDesc& param : found->params) {
        values << QStringLiteral("%1 %2").arg(qs(param.label).toLower(),
                                              formatValue(param, entry.choice.values.get(param.key, param.defaultValue)));
    }
    if (entry.choice.values.kernel) {
        values << QStringLiteral("%1 \u00d7 %2").arg(entry.choice.values.kernel->width).arg(entry.choice.values.kernel->height);
    }
    return values.isEmpty() ? text : QStringLiteral("%1 (%2)").arg(text, values.join(QStringLiteral(", ")));
}

}  // namespace tessera::ui
