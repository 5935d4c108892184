// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_info.h"
#include "values/device_selection.h"

#include <QObject>

#include <optional>
#include <vector>

namespace tessera::ui {
class MainWindow;
}  // namespace tessera::ui

namespace tessera::app {
class CalibrationController;
class Engine;
}  // namespace tessera::app

namespace tessera::app::gui {

/// The devices: what is present (About, the status bar, the Devices dock, Preferences), their
/// calibrations, and which of them the Engine uses for previews, from Preferences and the
/// Devices dock's check boxes. The window and the Engine must outlive it. GUI thread only.
class DeviceController : public QObject {
    Q_OBJECT

public:
    /// Follows the window's device settings and gives the Engine its first preference.
    DeviceController(ui::MainWindow& window, Engine& engine, QObject* parent = nullptr);
    ~DeviceController() override;

    /// The Devices dock's calibrations (Measure buttons, cache).
    CalibrationController& calibration() const { return *calibration_; }

public slots:
    /// Enumerates CUDA devices and passes versions, device lines, the compute summary and the
    /// Devices dock's snapshot to the window (again on the dock's Refresh: free memory changes).
    void refreshDeviceInfo();

signals:
    /// The Engine was given other devices: previews should be computed again.
    void devicesChanged();

private:
    void applyDevicePreference();
    /// Relative speeds of gpus from their cached calibrations (all 1 until each is measured).
    values::DeviceSpeeds gpuSpeeds(const std::vector<values::DeviceId>& gpus) const;

    ui::MainWindow& window_;
    Engine& engine_;
    CalibrationController* calibration_ = nullptr;  ///< the Devices dock's Measure buttons
    std::vector<values::DeviceId> presentGpus_;     ///< GPU ids of the last device snapshot
    values::DeviceSnapshot snapshot_;               ///< the last device snapshot
    /// What the Engine was last given.
    struct AppliedDevices {
        values::DeviceSelection preference;
        values::DeviceSpeeds speeds;
        std::size_t memoryLimit = 0;
    };
    std::optional<AppliedDevices> applied_;  ///< none before the first preference
};

}  // namespace tessera::app::gui
