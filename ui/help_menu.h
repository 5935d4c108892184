// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ui/about_info.h"

#include <QList>
#include <QObject>
#include <QPair>
#include <QStringList>

class QAction;
class QMainWindow;
class QMenu;

namespace tessera::ui {

class DocumentPrompts;
class UserGuideDialog;

/// "Save (Ctrl+S)": the action's text without its mnemonic and ellipsis, and its shortcuts.
QString tipWithShortcut(const QAction* action);

/// The property an action whose text changes (Undo, Redo) keeps its lasting name in, for Help >
/// Keyboard Shortcuts.
inline constexpr const char* kShortcutName = "shortcutName";

/// The main window's Help menu and what it opens: the user guide, the list of keyboard
/// shortcuts, the sample images, and the About box. GUI thread only.
class HelpMenu : public QObject {
    Q_OBJECT

public:
    /// Fills help (a menu of window's menu bar); prompts says whether modal boxes may show.
    HelpMenu(QMainWindow* window, QMenu* help, const DocumentPrompts& prompts);

    /// The About box text (rich text) built from the last setAboutInfo().
    QString aboutText() const;
    /// Sets what Help > About shows.
    void setAboutInfo(const AboutInfo& info) { about_ = info; }
    /// Help > Keyboard Shortcuts as rows of (what it does, keys), over every action of the window.
    QList<QPair<QString, QString>> shortcutList() const;
    /// Where Help > User Guide looks for the HTML manual's index.html, in order; the first that
    /// exists is shown.
    void setUserGuidePlaces(const QStringList& indexFiles) { userGuidePlaces_ = indexFiles; }
    QStringList userGuidePlaces() const { return userGuidePlaces_; }
    /// Lists the sample images (absolute paths) in Help > Open Sample Image; choosing one emits
    /// sampleChosen(). Empty disables the menu.
    void setSampleImages(const QStringList& paths);

public slots:
    /// Shows the About box (only when modal dialogs are enabled).
    void showAbout();
    /// Shows Help > Keyboard Shortcuts (not blocking).
    void showShortcuts();
    /// Shows Help > User Guide (not blocking): the manual in a browser of its own, or a page that
    /// names where it looked. One window: shown again and raised when already open.
    UserGuideDialog* showUserGuide();

signals:
    /// The user chose a sample image.
    void sampleChosen(const QString& path);

private:
    QMainWindow* window_;
    const DocumentPrompts& prompts_;
    QMenu* sampleMenu_ = nullptr;
    AboutInfo about_;
    QStringList userGuidePlaces_;
};

}  // namespace tessera::ui
