// SPDX-License-Identifier: Apache-2.0
#include "ui/filter_stack.h"

#include <QAction>

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

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

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
    // Delete in the list removes the selected filter; elsewhere (the kernel grid) it does not.
    auto* remove = new QAction(tr("Remove Filter"), list_);
    remove->setObjectName(QStringLiteral("stackRemoveKey"));
    remove->setShortcuts({QKeySequence(QKeySequence::Delete), QKeySequence(Qt::Key_Backspace)});
    remove->setShortcutContext(Qt::WidgetShortcut);
    list_->addAction(remove);
    connect(remove, &QAction::triggered, this, &FilterStack::removeCurrent);
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
    // A drag inside the list moves a row of the model; the document is asked to follow.
    connect(list_->model(), &QAbstractItemModel::rowsMoved, this,
            [this](const QModelIndex&, int start, int, const QModelIndex&, int row) { onRowsMoved(start, row); });
    updateButtons();
}

FilterStack::~FilterStack() = default;

QSize FilterStack::sizeHint() const
{
    const int rows = std::clamp(list_->count() + 1, 3, 8);
    const int rowHeight = list_->fontMetrics().height() + 6;
    const int height = rows * rowHeight + 2 * list_->frameWidth() + addButton_->sizeHint().height() + 6;
    return {QWidget::sizeHint().width(), height};
}

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

void FilterStack::setState(const filters::StackState& state)
{
    state_ = state;
    refresh();
    emit currentChanged(state_.current);
}

const filters::StackEntry* FilterStack::currentEntry() const
{
    return state_.currentEntry();
}

const filters::FilterDesc* FilterStack::filter(const std::string& id) const
{
    const auto found =
        std::find_if(filters_.begin(), filters_.end(), [&id](const FilterDesc& desc) { return desc.id == id; });
    return found != filters_.end() ? &*found : nullptr;
}

QString FilterStack::titleOf(const std::string& id) const
{
    const FilterDesc* desc = filter(id);
    return desc != nullptr ? qs(desc->title) : qs(id);
}

void FilterStack::addFilter(const QString& id)
{
    if (filter(id.toStdString()) != nullptr) {
        emit addRequested(id);
    }
}

void FilterStack::removeCurrent()
{
    if (currentEntry() != nullptr) {
        emit removeRequested(state_.current);
    }
}

void FilterStack::moveCurrent(int delta)
{
    if (currentEntry() != nullptr) {
        emit moveRequested(state_.current, state_.current + delta);
    }
}

void FilterStack::setEntryEnabled(int index, bool enabled)
{
    emit enableRequested(index, enabled);
}

void FilterStack::onRowsMoved(int from, int row)
{
    if (refreshing_) {
        return;
    }
    // row is where the entry went counted before it left its place; the list itself shows the
    // document's answer on the next setState(), or goes back to it when nothing changes.
    const int to = row > from ? row - 1 : row;
    emit moveRequested(from, to);
    refresh();
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
        const filters::StackEntry& entry = state_.entries[static_cast<size_t>(row)];
        QListWidgetItem* item = list_->item(row);
        item->setText(describe(entry));
        item->setToolTip(titleOf(entry.choice.id));
        item->setCheckState(entry.enabled ? Qt::Checked : Qt::Unchecked);
        item->setForeground(list_->palette().brush(entry.enabled ? QPalette::Text : QPalette::PlaceholderText));
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

QString FilterStack::describe(const filters::StackEntry& entry) const
{
    const QString text = titleOf(entry.choice.id);
    const FilterDesc* found = filter(entry.choice.id);
    if (found == nullptr) {
        return text;
    }
    QStringList values;
    for (const ParamDesc& param : found->params) {
        values << QStringLiteral("%1 %2").arg(
            qs(param.label).toLower(), formatValue(param, entry.choice.values.get(param.key, param.defaultValue)));
    }
    if (entry.choice.values.kernel) {
        values << QStringLiteral("%1 \u00d7 %2")
                      .arg(entry.choice.values.kernel->width)
                      .arg(entry.choice.values.kernel->height);
    }
    return values.isEmpty() ? text : QStringLiteral("%1 (%2)").arg(text, values.join(QStringLiteral(", ")));
}

}  // namespace tessera::ui
