// SPDX-License-Identifier: Apache-2.0
#include "ui/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

#include <algorithm>

namespace tessera::ui {

namespace {

const QString kSettingsKey = QStringLiteral("recentFiles");

}  // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu)
{
    files_ = QSettings().value(kSettingsKey).toStringList();
    files_.removeAll(QString());
    while (files_.size() > kMaxEntries) {
        files_.removeLast();
    }
    rebuildMenu();
}

void RecentFiles::add(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files_.removeAll(absolute);
    files_.prepend(absolute);
    while (files_.size() > kMaxEntries) {
        files_.removeLast();
    }
    save();
    rebuildMenu();
}

void RecentFiles::clear()
{
    files_.clear();
    save();
    rebuildMenu();
}

void RecentFiles::save() const
{
    QSettings().setValue(kSettingsKey, files_);
}

void RecentFiles::rebuildMenu()
{
    menu_->clear();
    for (int i = 0; i < files_.size(); ++i) {
        const QString& path = files_.at(i);
        // Number the first nine for keyboard access; the full path is in the status tip.
        const QFileInfo info(path);
        QString name = info.fileName();
        // Two files of one name (photos from two cameras, say) are told apart by their folder.
        const bool shared = std::count_if(files_.begin(), files_.end(), [&name](const QString& other) {
                                return QFileInfo(other).fileName() == name;
                            }) > 1;
        if (shared) {
            name = QStringLiteral("%1 \u2014 %2").arg(name, QDir::toNativeSeparators(info.absolutePath()));
        }
        const QString text = i < 9 ? QStringLiteral("&%1 %2").arg(i + 1).arg(name) : name;
        QAction* action = menu_->addAction(text);
        action->setStatusTip(QDir::toNativeSeparators(path));
        action->setToolTip(QDir::toNativeSeparators(path));
        // Queued: handling the choice rebuilds this menu, which deletes the emitting action.
        connect(
            action, &QAction::triggered, this, [this, path] { emit fileChosen(path); }, Qt::QueuedConnection);
    }
    if (!files_.isEmpty()) {
        menu_->addSeparator();
    }
    QAction* clearAction = menu_->addAction(tr("&Clear Recent"));
    clearAction->setEnabled(!files_.isEmpty());
    connect(clearAction, &QAction::triggered, this, &RecentFiles::clear, Qt::QueuedConnection);
}

}  // namespace tessera::ui
