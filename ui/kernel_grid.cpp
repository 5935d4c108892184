// SPDX-License-Identifier: Apache-2.0
#include "ui/kernel_grid.h"

#include "ui/kernel_grid_model.h"

#include <QAction>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStyledItemDelegate>

#include <algorithm>

namespace tessera::ui {

namespace {

// Paints the anchor cell with a two-tone frame that stays visible on red, blue and white.
class AnchorFrameDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::paint(painter, option, index);
        if (!index.data(KernelGridModel::AnchorRole).toBool()) {
            return;
        }
        painter->save();
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(Qt::black, 2));
        painter->drawRect(option.rect.adjusted(1, 1, -1, -1));
        painter->setPen(QPen(Qt::white, 1));
        painter->drawRect(option.rect.adjusted(3, 3, -4, -4));
        painter->restore();
    }
};

}  // namespace

KernelGridView::KernelGridView(QWidget* parent) : QTableView(parent)
{
    setItemDelegate(new AnchorFrameDelegate(this));
    // Room for the widest cell text ("-0.00123", "-1.67e-4") plus the delegate's margins keeps
    // 31 x 31 kernels compact; scroll bars take the rest.
    const int cellWidth = fontMetrics().horizontalAdvance(QStringLiteral("-0.00000")) + 14;
    const int cellHeight = fontMetrics().height() + 6;
    for (QHeaderView* header : {horizontalHeader(), verticalHeader()}) {
        header->setSectionResizeMode(QHeaderView::Fixed);
        header->setMinimumSectionSize(std::min(cellWidth, cellHeight));
        header->setHighlightSections(true);
    }
    horizontalHeader()->setDefaultSectionSize(cellWidth);
    verticalHeader()->setDefaultSectionSize(cellHeight);
    // Columns share the width the dock gives; they shrink down to the width of "-0.00" (longer
    // numbers are elided, the tooltip holds them) before the grid scrolls sideways.
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    horizontalHeader()->setMinimumSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("-0.00")) + 8);
    setWordWrap(false);
    setTabKeyNavigation(false);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                    QAbstractItemView::AnyKeyPressed);

    const auto addMenuAction = [this](const QString& text, const char* name) {
        auto* action = new QAction(text, this);
        action->setObjectName(QString::fromLatin1(name));
        // Only while the grid itself has focus, so Delete in a cell editor still edits text.
        action->setShortcutContext(Qt::WidgetShortcut);
        addAction(action);
        return action;
    };
    // Named in Help > Keyboard Shortcuts, where the grid's keys say where they work.
    setAccessibleName(tr("Kernel grid"));
    setAnchorAction_ = addMenuAction(tr("Set anchor here"), "setAnchorAction");
    setAnchorAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    centreAnchorAction_ = addMenuAction(tr("Centre anchor"), "centreAnchorAction");
    clearAction_ = addMenuAction(tr("Clear to 0"), "clearCellsAction");
    clearAction_->setShortcuts({QKeySequence(Qt::Key_Delete), QKeySequence(Qt::Key_Backspace)});
    setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(setAnchorAction_, &QAction::triggered, this, [this] {
        if (currentIndex().isValid()) {
            emit anchorPicked(currentIndex().column(), currentIndex().row());
        }
    });
    connect(centreAnchorAction_, &QAction::triggered, this, &KernelGridView::centreAnchorRequested);
    connect(clearAction_, &QAction::triggered, this, &KernelGridView::clearRequested);
}

void KernelGridView::setEditable(bool editable)
{
    for (QAction* action : {setAnchorAction_, centreAnchorAction_, clearAction_}) {
        action->setEnabled(editable);
    }
}

void KernelGridView::setAnchorPicking(bool on)
{
    if (picking_ == on) {
        return;
    }
    picking_ = on;
    if (on) {
        viewport()->setCursor(Qt::CrossCursor);
    } else {
        viewport()->unsetCursor();
    }
    emit anchorPickingChanged(on);
}

QModelIndexList KernelGridView::targetCells() const
{
    QModelIndexList cells = selectionModel() != nullptr ? selectionModel()->selectedIndexes() : QModelIndexList();
    if (cells.isEmpty() && currentIndex().isValid()) {
        cells << currentIndex();
    }
    return cells;
}

void KernelGridView::mousePressEvent(QMouseEvent* event)
{
    const QModelIndex index = indexAt(event->position().toPoint());
    const auto* grid = qobject_cast<const KernelGridModel*>(model());
    const bool wantsAnchor = picking_ || event->modifiers().testFlag(Qt::ControlModifier);
    if (event->button() == Qt::LeftButton && index.isValid() && wantsAnchor && grid != nullptr && !grid->isReadOnly()) {
        setAnchorPicking(false);
        event->accept();
        emit anchorPicked(index.column(), index.row());
        return;
    }
    QTableView::mousePressEvent(event);
}

QAction* KernelGridView::ownActionFor(const QKeyEvent* event) const
{
    const QKeySequence pressed(event->keyCombination());
    for (QAction* action : actions()) {
        if (action->isEnabled() && action->shortcuts().contains(pressed)) {
            return action;
        }
    }
    return nullptr;
}

bool KernelGridView::event(QEvent* event)
{
    // Only when the grid itself has focus: in a cell editor the keys edit the text.
    if (event->type() == QEvent::ShortcutOverride && hasFocus() && ownActionFor(static_cast<QKeyEvent*>(event))) {
        event->accept();
        return true;
    }
    return QTableView::event(event);
}

void KernelGridView::keyPressEvent(QKeyEvent* event)
{
    if (QAction* own = hasFocus() ? ownActionFor(event) : nullptr) {
        own->trigger();
        event->accept();
        return;
    }
    if (event->key() == Qt::Key_Escape && picking_) {
        setAnchorPicking(false);
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

}  // namespace tessera::ui
