// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_info.h"
#include "values/timing_record.h"

#include <QObject>
#include <QStringList>

#include <vector>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace tessera::ui {

class DevicePanel;
class ImageView;
class ProfilerDock;

/// The main window's docks about where and how runs go: Devices (a tab behind the Kernel dock),
/// the Profiler (below the image, hidden until asked for) and View > Show Tiles, which draws the
/// last run's tiles over the image. GUI thread only.
class RunDocks : public QObject {
    Q_OBJECT

public:
    /// Adds the docks to window, the Devices dock tabbed with tabWith; their toggles and Show
    /// Tiles go into viewMenu, Show Tiles right after the action after.
    RunDocks(QMainWindow* window, ImageView* view, QDockWidget* tabWith, QMenu* viewMenu, QAction* after);

    /// The Devices dock (View > Devices) and the panel in it.
    QDockWidget* deviceDock() const { return deviceDock_; }
    DevicePanel* devicePanel() const { return devicePanel_; }
    /// Keys of the devices the Devices dock allows for previews ("gpu:N", "cpu").
    QStringList enabledDevices() const;
    /// The Profiler dock (View > Profiler): the last run's timeline and per-kernel table.
    ProfilerDock* profilerDock() const { return profilerDock_; }
    /// View > Show Tiles.
    QAction* showTilesAction() const { return showTiles_; }

    /// Shows snapshot's devices in the Devices dock and names them in the Profiler.
    void setDevices(const tessera::values::DeviceSnapshot& snapshot);
    /// Shows a run's timing records in the Profiler (unless frozen) and its tiles over the image;
    /// title names the run (e.g. "Gaussian · 4096 × 4096").
    void setTimingRecords(const std::vector<tessera::values::TimingRecord>& records, const QString& title);

private:
    void createDeviceDock(QDockWidget* tabWith, QMenu* viewMenu);
    void createProfilerDock(QMenu* viewMenu, QAction* after);

    QMainWindow* window_;
    ImageView* view_;
    QDockWidget* deviceDock_ = nullptr;
    DevicePanel* devicePanel_ = nullptr;
    ProfilerDock* profilerDock_ = nullptr;
    QAction* showTiles_ = nullptr;
    bool profilerSawDevices_ = false;  ///< setDevices() has passed a snapshot to the profiler
};

}  // namespace tessera::ui
