// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QTableView>

class QAction;

namespace tessera::ui {

/// Table view for a KernelGridModel with small fixed-size cells. Ctrl+click (or a plain click
/// while anchor picking is on) asks for the anchor instead of selecting; the anchor cell gets
/// a frame. Tab leaves the grid; the arrow keys move inside it. Its context menu and shortcuts
/// (Delete / Backspace: clear to 0, Ctrl+Return: anchor at the current cell) only ask; the
/// owner changes the model.
class KernelGridView : public QTableView {
    Q_OBJECT

public:
    explicit KernelGridView(QWidget* parent = nullptr);

    /// While on, the next plain click on a cell picks the anchor, then picking turns off.
    void setAnchorPicking(bool on);
    bool isAnchorPicking() const { return picking_; }
    /// The cells an action should act on: the selection, or the current cell when none.
    QModelIndexList targetCells() const;
    /// Turns the editing actions (anchor, clear) on or off.
    void setEditable(bool editable);

signals:
    /// The user pointed at cell (x, y) as the new anchor.
    void anchorPicked(int x, int y);
    /// The user asked for the anchor back at the centre.
    void centreAnchorRequested();
    /// The user asked to set targetCells() to 0.
    void clearRequested();
    /// Anchor picking turned on or off (by setAnchorPicking, a pick or Escape).
    void anchorPickingChanged(bool on);

protected:
    /// The grid's own keys win over the window's while the grid has focus, as a text field's
    /// Ctrl+Z does: Ctrl+Return sets the anchor here instead of applying the filters.
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    /// The enabled action of the grid's own whose shortcut event is, or nullptr.
    QAction* ownActionFor(const QKeyEvent* event) const;

    bool picking_ = false;
    QAction* setAnchorAction_ = nullptr;
    QAction* centreAnchorAction_ = nullptr;
    QAction* clearAction_ = nullptr;
};

}  // namespace tessera::ui
