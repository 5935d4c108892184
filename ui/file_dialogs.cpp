#include "ui/file_dialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace tessera::ui {

namespace {

QString settingsKey(FolderRole role)
{
    return role == FolderRole::Open ? QStringLiteral("lastOpenDir") : QStringLiteral("lastSaveDir");
}

}  // namespace

QString lastFolder(FolderRole role)
{
    const QString folder = QSettings().value(settingsKey(role)).toString();
    if (!folder.isEmpty() && QFileInfo(folder).isDir()) {
        return folder;
    }
    return QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
}

void rememberFolder(FolderRole role, const QString& filePath)
{
    QSettings().setValue(settingsKey(role), QFileInfo(filePath).absolutePath());
}

QString askFileToOpen(QWidget* parent, const QString& title, const QString& filter)
{
    const QString path = QFileDialog::getOpenFileName(parent, title, lastFolder(FolderRole::Open), filter);
    if (!path.isEmpty()) {
        rememberFolder(FolderRole::Open, path);
    }
    return path;
}

QString askFileToSave(QWidget* parent, const QString& title, const QString& suggestedName,
                      const QString& filter)
{
    const QString start = QFileInfo(suggestedName).isAbsolute()
                              ? suggestedName
                              : QDir(lastFolder(FolderRole::Save)).filePath(suggestedName);
    const QString path = QFileDialog::getSaveFileName(parent, title, start, filter);
    if (!path.isEmpty()) {
        rememberFolder(FolderRole::Save, path);
    }
    return path;
}

}  // namespace tessera::ui
