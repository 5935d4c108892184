// SPDX-License-Identifier: Apache-2.0
#include "ui/help_menu.h"

#include "ui/document_prompts.h"
#include "ui/make_action.h"
#include "ui/user_guide_dialog.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::ui {

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

HelpMenu::HelpMenu(QMainWindow* window, QMenu* help, const DocumentPrompts& prompts)
    : QObject(window), window_(window), prompts_(prompts)
{
    QAction* guide = makeAction(window, tr("&User Guide"), QStringLiteral("actionUserGuide"),
                                QKeySequence::HelpContents, tr("Open the manual, offline, in a window of its own"));
    connect(guide, &QAction::triggered, this, &HelpMenu::showUserGuide);
    QAction* keys = makeAction(window, tr("&Keyboard Shortcuts"), QStringLiteral("actionShortcuts"),
                               QKeySequence(Qt::CTRL | Qt::Key_F1), tr("Every key Tessera answers to"));
    connect(keys, &QAction::triggered, this, &HelpMenu::showShortcuts);
    help->addAction(guide);
    help->addAction(keys);
    help->addSeparator();
    sampleMenu_ = help->addMenu(tr("Open &Sample Image"));
    sampleMenu_->setObjectName(QStringLiteral("sampleMenu"));
    sampleMenu_->setEnabled(false);
    help->addSeparator();
    QAction* about = makeAction(window, tr("&About Tessera"), QStringLiteral("actionAbout"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &HelpMenu::showAbout);
    help->addAction(about);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QString HelpMenu::aboutText() const
{
    return formatAboutText(about_);
}

void HelpMenu::showAbout()
{
    if (prompts_.modalDialogsEnabled()) {
        QMessageBox::about(window_, tr("About Tessera"), aboutText());
    }
}

void HelpMenu::setSampleImages(const QStringList& paths)
{
    sampleMenu_->clear();
    for (const QString& path : paths) {
        QAction* action = sampleMenu_->addAction(QFileInfo(path).fileName());
        action->setToolTip(path);
        connect(action, &QAction::triggered, this, [this, path] { emit sampleChosen(path); });
    }
    sampleMenu_->setEnabled(!paths.isEmpty());
}

QList<QPair<QString, QString>> HelpMenu::shortcutList() const
{
    QList<QPair<QString, QString>> rows;
    for (const QAction* action : window_->findChildren<QAction*>()) {
        if (action->shortcuts().isEmpty() || action->text().isEmpty()) {
            continue;
        }
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts()) {
            keys << key.toString(QKeySequence::NativeText);
        }
        // An action whose text follows the state ("Undo Add Box blur") gives its lasting name;
        // a key that works only in one widget says which.
        const QVariant lasting = action->property(kShortcutName);
        QString name =
            lasting.isValid() ? lasting.toString() : tipWithShortcut(action).section(QStringLiteral(" ("), 0, 0);
        const Qt::ShortcutContext context = action->shortcutContext();
        const auto* owner = qobject_cast<const QWidget*>(action->parent());
        if ((context == Qt::WidgetShortcut || context == Qt::WidgetWithChildrenShortcut) && owner != nullptr &&
            !owner->accessibleName().isEmpty()) {
            name = tr("%1 (%2 focused)").arg(name, owner->accessibleName().toLower());
        }
        rows.append({name, keys.join(QStringLiteral(", "))});
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

void HelpMenu::showShortcuts()
{
    auto* dialog = new QDialog(window_);
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

UserGuideDialog* HelpMenu::showUserGuide()
{
    auto* dialog = window_->findChild<UserGuideDialog*>(QStringLiteral("userGuideDialog"), Qt::FindDirectChildrenOnly);
    if (dialog == nullptr) {
        dialog = new UserGuideDialog(userGuidePlaces_, window_);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    return dialog;
}

}  // namespace tessera::ui
