// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ui/preferences_dialog.h"

#include <QObject>
#include <QString>

#include <vector>

class QAction;
class QMainWindow;
class QMenu;
class QUndoStack;

namespace tessera::ui {

class DisplayMenu;
class DocumentActions;
class DocumentPrompts;
class HelpMenu;
class ImageView;
class RecentFiles;
class ZoomField;

/// The main window's menu bar and toolbar with the actions behind them: File, Edit (with Undo,
/// Redo and Preferences), View (zoom, Compare Before/After, Display Mapping), Filters, Batch,
/// Tools and Help. Actions that concern the document (open, save, export, presets) live in
/// documents(); this class wires the rest to the image view or announces them. GUI thread only.
class WindowMenus : public QObject {
    Q_OBJECT

public:
    /// Fills window's menu bar and adds its toolbar; the actions are children of window, so
    /// their shortcuts work wherever the window has focus.
    WindowMenus(QMainWindow* window, ImageView* view, DocumentPrompts& prompts);

    DocumentActions* documents() const { return documents_; }
    RecentFiles* recent() const { return recent_; }
    DisplayMenu* displayMenu() const { return displayMenu_; }
    HelpMenu* help() const { return help_; }
    QMenu* viewMenu() const { return viewMenu_; }
    /// View > Compare Before/After.
    QAction* compareAction() const { return compare_; }
    /// Edit > Copy Stack and Paste Stack: carry a filter stack from one image to another.
    QAction* copyStackAction() const { return copyStack_; }
    QAction* pasteStackAction() const { return pasteStack_; }

    /// Puts menu (Filters > Add Filter) first in the Filters menu.
    void addFilterMenu(QMenu* menu);
    /// Connects Edit > Undo / Redo to stack (owned by the caller, must outlive the window's use).
    void setUndoStack(QUndoStack* stack);
    /// Enables what needs an image (zoom, Apply, Save, Export) when one is shown.
    void setImageOpen(bool open);

    /// The preview device key kept in the settings ("auto", "cpu", "gpu:N").
    static QString preferredDevice();
    /// Sets the devices Edit > Preferences offers (Auto and CPU only are there from the start).
    void setDeviceOptions(const std::vector<DeviceOption>& options) { deviceOptions_ = options; }
    /// Opens Edit > Preferences (not blocking); accepting a new device stores it and emits
    /// preferredDeviceChanged().
    void showPreferences();

signals:
    /// Filters > Apply Filters.
    void applyRequested();
    /// Batch > Run Batch.
    void batchRequested();
    /// Tools > Compare Devices.
    void compareRequested();
    /// The user chose another preview device in Preferences (key as preferredDevice()).
    void preferredDeviceChanged(const QString& key);
    /// Preferences changed the GPU memory budget (already stored).
    void gpuMemoryLimitChanged();

private:
    void createActions();
    void createMenus();
    void createToolBar();
    void createHabits();

    QMainWindow* window_;
    ImageView* view_;
    DocumentPrompts& prompts_;
    DocumentActions* documents_ = nullptr;
    RecentFiles* recent_ = nullptr;
    DisplayMenu* displayMenu_ = nullptr;
    HelpMenu* help_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QMenu* filtersMenu_ = nullptr;
    ZoomField* zoomField_ = nullptr;
    QAction* quit_ = nullptr;
    QAction* undo_ = nullptr;
    QAction* redo_ = nullptr;
    QAction* apply_ = nullptr;
    QAction* compare_ = nullptr;
    QAction* zoomIn_ = nullptr;
    QAction* zoomOut_ = nullptr;
    QAction* fit_ = nullptr;
    QAction* actualSize_ = nullptr;
    QAction* preferences_ = nullptr;
    QAction* copyStack_ = nullptr;
    QAction* pasteStack_ = nullptr;
    std::vector<DeviceOption> deviceOptions_;
};

}  // namespace tessera::ui
