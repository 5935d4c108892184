// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_info.h"
#include "values/timing_record.h"
#include "ui/document_prompts.h"
#include "ui/preferences_dialog.h"

#include <QMainWindow>
#include <QStringList>

#include <memory>

class QAction;
class QDockWidget;
class QMenu;
class QUndoStack;

namespace tessera::ui {

class DevicePanel;
class DisplayMenu;
class DocumentActions;
class FilterDock;
class FilterPanel;
class FilterStack;
class HelpMenu;
class ImageView;
class KernelDock;
class ProfilerDock;
class RecentFiles;
class WindowStatus;
class ZoomField;

/// The Tessera main window: menus, the image view as central widget (docks go around it), and a
/// status bar with zoom, image size and format, and where filters run. It never reads files:
/// it asks with openRequested() and app/ answers with showImage() or showError(). GUI thread only.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    /// Builds the window and restores its geometry and the recent files from QSettings.
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// The central image view.
    ImageView* imageView() const { return view_; }
    /// The Filter dock: the filter stack and the selected filter's parameters.
    FilterDock* filterDock() const { return filterDock_; }
    /// The Kernel dock: the kernel editor for the stack's selected entry.
    KernelDock* kernelDock() const { return kernelDock_; }
    /// The filter panel in the Filter dock.
    FilterPanel* filterPanel() const;
    /// The filter stack in the Filter dock.
    FilterStack* filterStack() const;
    /// The Devices dock (View > Devices).
    QDockWidget* deviceDock() const { return deviceDock_; }
    /// The device panel in the Devices dock.
    DevicePanel* devicePanel() const { return devicePanel_; }
    /// Keys of the devices the Devices dock allows for previews ("gpu:N", "cpu").
    QStringList enabledDevices() const;
    /// The Profiler dock (View > Profiler): the last run's timeline and per-kernel table.
    ProfilerDock* profilerDock() const { return profilerDock_; }
    /// View > Show Tiles: the tile grid of the last run over the image.
    QAction* showTilesAction() const { return showTilesAction_; }
    /// View > Display Mapping.
    DisplayMenu* displayMenu() const { return displayMenu_; }
    /// Path of the image shown, empty when none.
    QString currentPath() const { return currentPath_; }
    /// The preview device key kept in the settings ("auto", "cpu", "gpu:N").
    QString preferredDevice() const;
    /// Recent files, newest first.
    QStringList recentFiles() const;
    /// Status text of the last preview shown.
    QString previewStatus() const;
    /// Text of the last showError() message, for tests and logs.
    QString lastError() const { return lastError_; }
    /// When false, errors, About and the document questions skip their modal boxes (errors go to
    /// the status bar and lastError() only); tests turn this off so nothing blocks.
    void setModalDialogsEnabled(bool enabled) { prompts_->setModalDialogsEnabled(enabled); }
    /// The Help menu: About, the user guide, the keyboard shortcuts.
    HelpMenu* help() const { return help_; }
    /// The questions asked about the document (unsaved work, Save, Export); tests replace them.
    DocumentPrompts& prompts() const { return *prompts_; }
    using UnsavedAnswer = DocumentPrompts::UnsavedAnswer;
    using SaveChoice = DocumentPrompts::SaveChoice;
    using ExportFix = DocumentPrompts::ExportFix;
    /// Asks, when the image has unsaved changes, whether to save them before `action`; Save
    /// saves to the open file. True when the document may be replaced or closed.
    bool mayDiscardDocument(const QString& action);
    SaveChoice askSaveChoice(const QString& path, const QStringList& filters) const
    {
        return prompts_->askSaveChoice(path, filters);
    }
    ExportFix askExportFix(const QString& problem, const QString& other, bool canConvert) const
    {
        return prompts_->askExportFix(problem, other, canConvert);
    }

public slots:
    /// Shows image for the file at path; description names the pixel format (e.g. "u8x3").
    void showImage(const QImage& image, const QString& path, const QString& description);
    /// Shows a filtered rendering of the open image without moving the view; status says where
    /// it ran and how long it took (e.g. "Preview: GPU 0 (NVIDIA H200), separable, 0.8 ms").
    void showPreview(const QImage& image, const QString& status);
    /// Shows the preview of a part of the open image over it, with its top-left corner at image
    /// pixel at; the rest of the image shows dimmed as not previewed. status as showPreview()
    /// (e.g. "Preview: CPU, 12 ms, view 1024 \u00d7 768").
    void showPreviewPatch(const QImage& patch, QPoint at, const QString& status);
    /// Shows what the display mapping makes of the shown image in the status bar (e.g. "data
    /// min-max [-2, 2], 0 at mid-grey"); empty (8-bit images) hides it.
    void setDisplayStatus(const QString& text);
    /// Shows the pixel readout text ("x 12, y 40: 31 52 200") in the status bar; empty hides it.
    void setPixelReadout(const QString& text);
    /// A passing message in the status bar, never modal (e.g. a parameter combination a filter
    /// refuses while a slider moves).
    void showNotice(const QString& message);
    /// A passing status bar message about something that worked (e.g. "Saved ..."); not recorded
    /// in lastError().
    void showMessage(const QString& message);
    /// Reports a failure: a warning box (when modal dialogs are enabled) and the status bar.
    void showError(const QString& title, const QString& message);
    /// Connects Edit > Undo / Redo to stack (owned by the caller, must outlive the window's use).
    void setUndoStack(QUndoStack* stack);
    /// After Save As: the open image now lives at path (title, Save target, recent list).
    void setDocumentPath(const QString& path);
    /// Marks the open image as changed since it was opened or saved (title shows "*").
    void setDocumentModified(bool modified);
    /// Help > Open Sample Image lists paths; choosing one opens it as Open Recent does.
    void setSampleImages(const QStringList& paths);
    /// Where Help > User Guide looks for the manual (see HelpMenu).
    void setUserGuidePlaces(const QStringList& indexFiles);
    /// Sets the devices Edit > Preferences offers (Auto and CPU only are there from the start).
    void setDeviceOptions(const std::vector<tessera::ui::DeviceOption>& options);
    /// Opens Edit > Preferences (not blocking); accepting a new device stores it and emits
    /// preferredDeviceChanged().
    void showPreferences();
    /// Sets the status bar's compute text, e.g. "GPU: 4 x NVIDIA H200" or "CPU path (...)".
    void setComputeSummary(const QString& summary);
    /// Shows snapshot's devices in the Devices dock and names them in the Profiler.
    void setDevices(const tessera::values::DeviceSnapshot& snapshot);
    /// Shows a run's timing records in the Profiler dock (unless frozen) and its tiles in the
    /// image view's tile grid; title names the run (e.g. "Gaussian · 4096 × 4096").
    void setTimingRecords(const std::vector<tessera::values::TimingRecord>& records, const QString& title);

signals:
    /// The user asked to open path (menu, recent list, drop); app/ loads it.
    void openRequested(const QString& path);
    /// The user asked to save the image to path (Save: the open file; Save As: a chosen one).
    void saveRequested(const QString& path);
    /// The user asked to apply the filter stack to the image (Filters > Apply).
    void applyRequested();
    /// The user asked to write the image with the stack applied to path (File > Export), leaving
    /// the document as it is.
    void exportRequested(const QString& path);
    /// The user asked to replace the stack by the preset in path.
    void loadPresetRequested(const QString& path);
    /// The user asked to write the stack's enabled filters as a preset to path.
    void savePresetRequested(const QString& path);
    /// The user chose another preview device in Preferences (key as preferredDevice()).
    void preferredDeviceChanged(const QString& key);
    /// The user enabled or disabled a device in the Devices dock (keys as enabledDevices()).
    void enabledDevicesChanged(const QStringList& keys);
    /// The user asked to read the devices again (Devices dock, Refresh).
    void deviceRefreshRequested();
    /// The window accepted a close: the last moment to keep what the session built.
    void closing();
    /// The user asked for the batch dialog (Batch > Run Batch).
    void batchRequested();
    /// The user asked for the device comparison (Tools > Compare Devices).
    void compareRequested();

protected:
    void closeEvent(QCloseEvent* event) override;
    /// Every way of opening another image (Open Recent, a drop) comes here: asks about unsaved
    /// work, then emits openRequested.
    void requestOpen(const QString& path);
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createToolBar();
    void createStatusBar();
    void createFilterDock();
    void createDeviceDock();
    void createProfilerDock();
    void createHabits();
    void restoreWindowState();
    void saveWindowState() const;
    void updateViewActions();

    ImageView* view_ = nullptr;
    FilterDock* filterDock_ = nullptr;
    KernelDock* kernelDock_ = nullptr;
    QDockWidget* deviceDock_ = nullptr;
    DevicePanel* devicePanel_ = nullptr;
    ProfilerDock* profilerDock_ = nullptr;
    QAction* showTilesAction_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    DisplayMenu* displayMenu_ = nullptr;
    DocumentActions* documents_ = nullptr;
    RecentFiles* recent_ = nullptr;
    WindowStatus* status_ = nullptr;
    ZoomField* zoomField_ = nullptr;

    QAction* quitAction_ = nullptr;
    QAction* undoAction_ = nullptr;
    QAction* redoAction_ = nullptr;
    QAction* applyAction_ = nullptr;
    QAction* compareAction_ = nullptr;
    QAction* zoomInAction_ = nullptr;
    QAction* zoomOutAction_ = nullptr;
    QAction* fitAction_ = nullptr;
    QAction* actualSizeAction_ = nullptr;
    QAction* preferencesAction_ = nullptr;
    std::vector<DeviceOption> deviceOptions_;

    HelpMenu* help_ = nullptr;
    QString currentPath_;
    QString lastError_;
    std::unique_ptr<DocumentPrompts> prompts_;
    bool profilerSawDevices_ = false;  ///< setDevices() has passed a snapshot to the profiler
};

}  // namespace tessera::ui
