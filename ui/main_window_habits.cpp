// SPDX-License-Identifier: Apache-2.0
#include "ui/main_window.h"

#include "ui/document_actions.h"
#include "ui/filter_dock.h"
#include "ui/filter_stack.h"
#include "ui/make_action.h"
#include "ui/user_guide_dialog.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QStyle>
#include <QTableWidget>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

// What people bring from other image editors: Ctrl+Y for Redo, the common actions on the
// toolbar with their shortcuts in the tooltips, Filters > Add Filter, and Help's list of keys
// and the user guide.

namespace tessera::ui {

namespace {

/// "Save (Ctrl+S)": the action's text without its mnemonic and ellipsis, and its shortcuts.
QString tipWithShortcut(const QAction* action)
{
    QString text = action->text().remove(QLatin1Char('&'));
    text.remove(QChar(0x2026));
    QStringList keys;
    for (const QKeySequence& key : action->shortcuts()) {
        keys << key.toString(QKeySequence::NativeText);
    }
    return keys.isEmpty() ? text : QStringLiteral("%1 (%2)").arg(text, keys.join(QStringLiteral(", ")));
}

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

    QMenu* help = menuTitled(menuBar(), tr("&Help"));
    QAction* keys = makeAction(this, tr("&Keyboard Shortcuts"), QStringLiteral("actionShortcuts"),
                               QKeySequence(Qt::CTRL | Qt::Key_F1), tr("Every key Tessera answers to"));
    connect(keys, &QAction::triggered, this, &MainWindow::showShortcuts);
    QAction* guide = makeAction(this, tr("&User Guide"), QStringLiteral("actionUserGuide"), QKeySequence::HelpContents,
                                tr("Open the manual, offline, in a window of its own"));
    connect(guide, &QAction::triggered, this, &MainWindow::showUserGuide);
    QAction* firstHelp = help->actions().value(0);
    help->insertAction(firstHelp, guide);
    help->insertAction(firstHelp, keys);
    help->insertSeparator(firstHelp);
}

QList<QPair<QString, QString>> MainWindow::shortcutList() const
{
    QList<QPair<QString, QString>> rows;
    for (const QAction* action : findChildren<QAction*>()) {
        if (action->shortcuts().isEmpty() || action->text().isEmpty()) {
            continue;
        }
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts()) {
            keys << key.toString(QKeySequence::NativeText);
        }
        rows.append({tipWithShortcut(action).section(QStringLiteral(" ("), 0, 0), keys.join(QStringLiteral(", "))});
    }
    std::sort(rows.begin(), rows.end());
    rows.append({tr("Zoom in / out (image view focused)"), QStringLiteral("+ / \u2212")});
    rows.append({tr("Actual size / fit to window (image view focused)"), QStringLiteral("1 / 0")});
    rows.append({tr("Zoom around the pointer"), tr("Ctrl+wheel")});
    rows.append({tr("Zoom to a typed percentage"), tr("Zoom field in the toolbar, Enter")});
    rows.append({tr("Pan"), tr("Drag, or middle-drag")});
    rows.append({tr("Scroll sideways"), tr("Shift+wheel")});
    rows.append({tr("Scroll a panel without changing its fields"), tr("Wheel over a field without focus")});
    return rows;
}

void MainWindow::showShortcuts()
{
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("shortcutsDialog"));
    dialog->setWindowTitle(tr("Keyboard Shortcuts"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QList<QPair<QString, QString>> rows = shortcutList();
    auto* table = new QTableWidget(static_cast<int>(rows.size()), 2, dialog);
    table->setHorizontalHeaderLabels({tr("Action"), tr("Keys")});
    for (int i = 0; i < rows.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(rows[i].first));
        table->setItem(i, 1, new QTableWidgetItem(rows[i].second));
    }
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table);
    layout->addWidget(buttons);
    dialog->resize(560, 520);
    dialog->show();
}

UserGuideDialog* MainWindow::showUserGuide()
{
    auto* dialog = findChild<UserGuideDialog*>(QStringLiteral("userGuideDialog"), Qt::FindDirectChildrenOnly);
    if (dialog == nullptr) {
        dialog = new UserGuideDialog(userGuidePlaces_, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    return dialog;
}

}  // namespace tessera::ui
