// SPDX-License-Identifier: Apache-2.0
#include "ui/file_dialogs.h"

#include "ui/preferences_dialog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace tessera::ui {

namespace {

// The file name extensions of the formats Tessera reads, for the Open dialog and for drops.
const QStringList kReadableExtensions{
    QStringLiteral("png"), QStringLiteral("jpg"), QStringLiteral("jpeg"), QStringLiteral("jpe"),  QStringLiteral("bmp"),
    QStringLiteral("dib"), QStringLiteral("tif"), QStringLiteral("tiff"), QStringLiteral("webp"), QStringLiteral("exr"),
    QStringLiteral("pbm"), QStringLiteral("pgm"), QStringLiteral("ppm"),  QStringLiteral("pnm")};

QString readableImagesFilter()
{
    QStringList patterns;
    for (const QString& ext : kReadableExtensions) {
        patterns << QStringLiteral("*.") + ext;
    }
    return QStringLiteral("Images (%1);;All files (*)").arg(patterns.join(QLatin1Char(' ')));
}

const QString kReadableImages = readableImagesFilter();
const QString kWritableImages = QStringLiteral(
    "PNG (*.png);;TIFF (*.tif *.tiff);;JPEG (*.jpg *.jpeg);;BMP (*.bmp);;WebP (*.webp);;OpenEXR (*.exr)");
const QString kPresets = QStringLiteral("Tessera presets (*.json);;All files (*)");

QString settingsKey(FolderRole role)
{
    switch (role) {
    case FolderRole::Open: return QStringLiteral("lastOpenDir");
    case FolderRole::Save: return QStringLiteral("lastSaveDir");
    case FolderRole::Preset: return QStringLiteral("lastPresetDir");
    }
    return {};
}

QString& bundledPresets()
{
    static QString folder;
    return folder;
}

QString tr(const char* text)
{
    return QCoreApplication::translate("FileDialogs", text);
}

QString askToOpen(QWidget* parent, const QString& title, const QString& filter, FolderRole role = FolderRole::Open)
{
    const QString path = QFileDialog::getOpenFileName(parent, title, lastFolder(role), filter);
    if (!path.isEmpty()) {
        rememberFolder(role, path);
    }
    return path;
}

// suggested: a bare name placed in the last save folder, or a full path used as it is.
QString askToSave(QWidget* parent, const QString& title, const QString& suggested, const QString& filter)
{
    // The type shown agrees with the suggested name's extension (a JPEG suggests JPEG, not PNG).
    QString selected = nameFilterFor(filter, suggested);
    const QString path = QFileDialog::getSaveFileName(parent, title, suggestedSavePath(suggested), filter, &selected);
    if (!path.isEmpty()) {
        rememberFolder(FolderRole::Save, path);
    }
    return path;
}

}  // namespace

QString lastFolder(FolderRole role)
{
    const QString folder = QSettings().value(settingsKey(role)).toString();
    if (!folder.isEmpty() && QFileInfo(folder).isDir()) {
        return folder;
    }
    if (role == FolderRole::Preset && QFileInfo(bundledPresets()).isDir()) {
        return bundledPresets();
    }
    return QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
}

void rememberFolder(FolderRole role, const QString& filePath)
{
    QSettings().setValue(settingsKey(role), QFileInfo(filePath).absolutePath());
}

QString startFolder(FolderRole role, const QString& shown)
{
    if (!shown.trimmed().isEmpty()) {
        const QFileInfo info(shown);
        if (info.isDir()) {
            return info.absoluteFilePath();
        }
        if (QFileInfo(info.absolutePath()).isDir()) {
            return info.absolutePath();
        }
    }
    return lastFolder(role);
}

QString suggestedSavePath(const QString& name)
{
    return QFileInfo(name).isAbsolute() ? name : QDir(lastFolder(FolderRole::Save)).filePath(name);
}

QString nameFilterFor(const QString& filters, const QString& path)
{
    const QStringList entries = filters.split(QStringLiteral(";;"));
    const QString pattern = QStringLiteral("*.") + QFileInfo(path).suffix().toLower();
    for (const QString& entry : entries) {
        const qsizetype open = entry.indexOf(QLatin1Char('('));
        const QStringList patterns =
            entry.mid(open + 1).chopped(entry.endsWith(QLatin1Char(')')) ? 1 : 0).split(QLatin1Char(' '));
        if (open >= 0 && patterns.contains(pattern)) {
            return entry;
        }
    }
    return entries.value(0);
}

bool hasReadableImageName(const QString& path)
{
    return kReadableExtensions.contains(QFileInfo(path).suffix().toLower());
}

QString askImageToOpen(QWidget* parent)
{
    return askToOpen(parent, tr("Open Image"), kReadableImages);
}

QString writableImageFilters()
{
    return kWritableImages;
}

QString askImageToSave(QWidget* parent, const QString& currentPath)
{
    return askToSave(parent, tr("Save Image As"), currentPath, kWritableImages);
}

QString askImageToExport(QWidget* parent, const QString& currentPath)
{
    const QFileInfo info(currentPath);
    const QString preferred = PreferencesDialog::exportFormat();
    const QString name =
        QStringLiteral("%1-filtered.%2").arg(info.completeBaseName(), preferred.isEmpty() ? info.suffix() : preferred);
    return askToSave(parent, tr("Export Image"), name, kWritableImages);
}

void setBundledPresetFolder(const QString& folder)
{
    bundledPresets() = folder;
}

QString askPresetToLoad(QWidget* parent)
{
    return askToOpen(parent, tr("Load Preset"), kPresets, FolderRole::Preset);
}

QString askPresetToSave(QWidget* parent)
{
    return askToSave(parent, tr("Save Stack as Preset"), QStringLiteral("stack.json"), kPresets);
}

QString askKernelPresetToLoad(QWidget* parent)
{
    return askToOpen(parent, tr("Load Kernel Preset"), kPresets, FolderRole::Preset);
}

QString askKernelPresetToSave(QWidget* parent)
{
    QString path = askToSave(parent, tr("Save Kernel Preset"), QStringLiteral("kernel.json"), kPresets);
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty()) {
        path += QStringLiteral(".json");
    }
    return path;
}

}  // namespace tessera::ui
