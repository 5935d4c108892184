#pragma once

#include <QString>

class QWidget;

namespace tessera::ui {

/// Which folder a file dialog starts in: the last one a file was opened from (images, presets)
/// or the last one a file was written to (Save As, Export, presets). Kept in QSettings.
enum class FolderRole { Open, Save };

/// The folder remembered for role, or the user's Pictures folder when none is (or it is gone).
QString lastFolder(FolderRole role);
/// Remembers the folder of filePath for role.
void rememberFolder(FolderRole role, const QString& filePath);

/// Asks for an existing file, starting in lastFolder(FolderRole::Open); remembers its folder.
/// Empty when cancelled.
QString askFileToOpen(QWidget* parent, const QString& title, const QString& filter);
/// Asks for a file to write; suggestedName is a bare name placed in lastFolder(FolderRole::Save)
/// or a full path used as is. Remembers the chosen folder. Empty when cancelled.
QString askFileToSave(QWidget* parent, const QString& title, const QString& suggestedName,
                      const QString& filter);

}  // namespace tessera::ui
