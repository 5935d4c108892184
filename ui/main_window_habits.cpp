// SPDX-License-Identifier: Apache-2.0
#include "ui/main_window.h"

#include "ui/document_actions.h"
#include "ui/filter_dock.h"
#include "ui/filter_stack.h"
#include "ui/help_menu.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>

// What people bring from other image editors: Ctrl+Y for Redo, the common actions on the
// toolbar with their shortcuts in the tooltips, Filters > Add Filter, and Help's list of keys
// and the user guide.

namespace tessera::ui {

namespace {

QMenu* menuTitled(QMenuBar* bar, const QString& title)
{
    for (QAction* action : bar->actions()) {
        if (action->menu() != nullptr && action->text() == title) {
            return action->menu();
        }
    }
    return nullptr;
}

}  // namespace

void MainWindow::createHabits()
{
    // Ctrl+Y as well as the platform's Redo key (Ctrl+Shift+Z here).
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Y))) {
        redoKeys << QKeySequence(Qt::CTRL | Qt::Key_Y);
    }
    redoAction_->setShortcuts(redoKeys);

    if (QMenu* filters = menuTitled(menuBar(), tr("F&ilters"))) {
        QMenu* add = filterStack()->addMenu();
        add->setTitle(tr("&Add Filter"));
        add->menuAction()->setObjectName(QStringLiteral("actionAddFilter"));
        filters->insertMenu(filters->actions().value(0), add);
    }

    auto* bar = findChild<QToolBar*>(QStringLiteral("mainToolBar"));
    QAction* first = bar->actions().value(1);  // after Open
    for (QAction* action : {documents_->save(), documents_->exportImage()}) {
        bar->insertAction(first, action);
    }
    bar->insertSeparator(first);
    for (QAction* action : {undoAction_, redoAction_}) {
        bar->insertAction(first, action);
    }
    bar->addSeparator();
    bar->addAction(compareAction_);
    // Icons only for the new ones keeps the bar within a 1280-pixel window.
    for (QAction* action : bar->actions()) {
        action->setToolTip(tipWithShortcut(action));
    }
    // The style's arrows where the desktop has no icon theme: the toolbar shows Undo and Redo as
    // icons alone, since their text names the step ("Undo Add Box blur") and would push the
    // buttons after them off a 1024-pixel bar. The tooltip and the Edit menu keep the text.
    undoAction_->setIcon(QIcon::fromTheme(QStringLiteral("edit-undo"), style()->standardIcon(QStyle::SP_ArrowBack)));
    redoAction_->setIcon(
        QIcon::fromTheme(QStringLiteral("edit-redo"), style()->standardIcon(QStyle::SP_ArrowForward)));
    for (QAction* action : {undoAction_, redoAction_}) {
        if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(action))) {
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
        }
    }
    // The Undo text names the step ("Undo Add Box blur"); its tooltip follows it.
    for (QAction* action : {undoAction_, redoAction_}) {
        connect(action, &QAction::changed, this, [action] {
            const QString tip = tipWithShortcut(action);
            if (action->toolTip() != tip) {
                action->setToolTip(tip);
            }
        });
    }
}

}  // namespace tessera::ui
