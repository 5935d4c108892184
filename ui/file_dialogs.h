// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>

class QWidget;

namespace tessera::ui {

/// Which folder a file dialog starts in: the last one an image was opened from, the last one a
/// file was written to (Save As, Export, Save Stack as Preset), or the last one a preset was
/// loaded from. Kept in QSettings.
enum class FolderRole { Open, Save, Preset };

/// The folder remembered for role, or (none remembered, or it is gone) the bundled presets for
/// Preset and the user's Pictures folder otherwise.
QString lastFolder(FolderRole role);
/// Remembers the folder of filePath for role.
void rememberFolder(FolderRole role, const QString& filePath);
/// Where a dialog of role starts that may already show a path (a field's text): that path when
/// it is a folder, its folder when that exists, otherwise lastFolder(role).
QString startFolder(FolderRole role, const QString& shown = QString());
/// A bare file name placed in the last folder written to; a full path is kept as it is.
QString suggestedSavePath(const QString& name);

// The dialogs below start in the folder of their role and remember the folder chosen; each
// returns an empty string when cancelled.

/// The presets that come with Tessera, where Load Preset starts the first time.
void setBundledPresetFolder(const QString& folder);

/// File > Open: an image to read.
QString askImageToOpen(QWidget* parent);
/// The entry of filters (a QFileDialog filter list, "PNG (*.png);;TIFF (*.tif *.tiff)") whose
/// patterns hold path's extension; the first entry when none does.
QString nameFilterFor(const QString& filters, const QString& path);
/// The list of image types Save As and Export offer.
QString writableImageFilters();
/// True when path's extension is one of a format Tessera reads (any case): what Open offers and
/// what a drop accepts.
bool hasReadableImageName(const QString& path);
/// File > Save As: where to write the open image, starting at its current path.
QString askImageToSave(QWidget* parent, const QString& currentPath);
/// File > Export: suggests "<name>-filtered.<suffix>" for the image at currentPath.
QString askImageToExport(QWidget* parent, const QString& currentPath);
/// Filters > Load Preset: a preset file to read.
QString askPresetToLoad(QWidget* parent);
/// Filters > Save Stack as Preset: where to write one.
QString askPresetToSave(QWidget* parent);
/// The kernel editor's Load: a kernel preset to read (starts where presets do).
QString askKernelPresetToLoad(QWidget* parent);
/// The kernel editor's Save: where to write a kernel preset (".json" added when left out).
QString askKernelPresetToSave(QWidget* parent);

}  // namespace tessera::ui
