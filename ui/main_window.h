// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ui/document_prompts.h"

#include <QMainWindow>
#include <QStringList>

#include <memory>

namespace tessera::ui {

class FilterDock;
class FilterStack;
class HelpMenu;
class ImageView;
class KernelDock;
class RunDocks;
class WindowMenus;
class WindowStatus;

/// The Tessera main window: the image view as central widget, the Filter and Kernel docks on
/// the right, the menus and toolbar (menus()), the Devices and Profiler docks (runDocks()), and
/// a status bar with zoom, image size and format, and where filters run. It owns the document's
/// life on screen (its path, the modified mark, the question before unsaved work is lost, drops)
/// but never reads files: it asks with openRequested() and app/ answers with showImage() or
/// showError(). GUI thread only.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    /// Builds the window and restores its geometry and the recent files from QSettings.
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    ImageView* imageView() const { return view_; }
    /// The Filter dock (the stack and the selected filter's parameters) and its stack.
    FilterDock* filterDock() const { return filterDock_; }
    FilterStack* filterStack() const;
    /// The Kernel dock: the kernel editor for the stack's selected entry.
    KernelDock* kernelDock() const { return kernelDock_; }
    WindowMenus* menus() const { return menus_; }
    RunDocks* runDocks() const { return runDocks_; }
    HelpMenu* help() const;
    /// Path of the image shown, empty when none.
    QString currentPath() const { return currentPath_; }
    /// Recent files, newest first.
    QStringList recentFiles() const;
    /// Status text of the last preview shown.
    QString previewStatus() const;
    /// The passing status bar message in whole (the bar may show it cut with "…").
    QString statusMessage() const;
    /// Text of the last showError() or showNotice() message, for tests and logs.
    QString lastError() const { return lastError_; }
    /// The questions asked about the document (unsaved work, Save, Export); tests replace them,
    /// or turn modal boxes off so that nothing blocks (errors then go to the status bar only).
    DocumentPrompts& prompts() const { return *prompts_; }
    void setModalDialogsEnabled(bool enabled) { prompts_->setModalDialogsEnabled(enabled); }
    /// Asks, when the image has unsaved changes, whether to save them before `action`; Save
    /// saves to the open file. True when the document may be replaced or closed.
    bool mayDiscardDocument(const QString& action);

public slots:
    /// Shows image for the file at path; description names the pixel format (e.g. "u8x3").
    void showImage(const QImage& image, const QString& path, const QString& description);
    /// Shows a filtered rendering of the open image without moving the view; status says where
    /// it ran and how long it took (e.g. "Preview: GPU 0 (NVIDIA H200), separable, 0.8 ms").
    void showPreview(const QImage& image, const QString& status, QSize logicalSize = {});
    /// Shows the preview of a part of the image with its top-left corner at image pixel at; the
    /// rest of the image shows dimmed as not previewed. status as showPreview().
    void showPreviewPatch(const QImage& patch, QPoint at, const QString& status);
    /// What the display mapping makes of the shown image (e.g. "data min-max [-2, 2], 0 at
    /// mid-grey"); empty (8-bit images) hides it.
    void setDisplayStatus(const QString& text);
    /// While busy: the view's "Computing…" badge, and the Preview field says so instead of the
    /// last preview's time.
    void setPreviewBusy(bool busy);
    /// The pixel readout ("x 12, y 40: 31 52 200"); empty hides it.
    void setPixelReadout(const QString& text);
    /// The status bar's compute text, e.g. "GPU: 4 x NVIDIA H200" or "CPU path (...)".
    void setComputeSummary(const QString& summary);
    /// A passing, never modal message about something refused (e.g. a parameter combination a
    /// filter refuses while a slider moves); recorded in lastError().
    void showNotice(const QString& message);
    /// A passing message about something that worked (e.g. "Saved ...").
    void showMessage(const QString& message);
    /// Reports a failure: a warning box (when modal dialogs are enabled) and the status bar.
    void showError(const QString& title, const QString& message);
    /// After Save As: the open image now lives at path (title, Save target, recent list).
    void setDocumentPath(const QString& path);
    /// Marks the open image as changed since it was opened or saved (title shows "*").
    void setDocumentModified(bool modified);

signals:
    /// The user asked to open path (menu, recent list, drop); app/ loads it.
    void openRequested(const QString& path);
    /// The user asked to save the image to path (Save: the open file; Save As: a chosen one).
    void saveRequested(const QString& path);
    /// The user asked to write the image with the stack applied to path (File > Export), leaving
    /// the document as it is.
    void exportRequested(const QString& path);
    /// The user asked to replace the stack by the preset in path.
    void loadPresetRequested(const QString& path);
    /// The user asked to write the stack's enabled filters as a preset to path.
    void savePresetRequested(const QString& path);
    /// The window accepted a close: the last moment to keep what the session built.
    void closing();

protected:
    void closeEvent(QCloseEvent* event) override;
    /// The first time: keeps the window (now with its frame) within the screen.
    void showEvent(QShowEvent* event) override;
    /// Every way of opening another image (Open Recent, a sample, a drop) comes here: asks about
    /// unsaved work, then emits openRequested.
    void requestOpen(const QString& path);
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void connectDocumentActions();
    void createFilterDocks();
    void restoreWindowState();
    void restoreDocks();
    void saveWindowState() const;

    ImageView* view_ = nullptr;
    std::unique_ptr<DocumentPrompts> prompts_;
    WindowMenus* menus_ = nullptr;
    WindowStatus* status_ = nullptr;
    FilterDock* filterDock_ = nullptr;
    KernelDock* kernelDock_ = nullptr;
    RunDocks* runDocks_ = nullptr;
    QString currentPath_;
    QString lastError_;
    bool shownOnce_ = false;
};

}  // namespace tessera::ui
