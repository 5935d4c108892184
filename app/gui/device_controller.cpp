// SPDX-License-Identifier: Apache-2.0
#include "app/gui/device_controller.h"

#include "values/device_label.h"
#include "app/compare/calibration_cache.h"
#include "app/gui/calibration_controller.h"
#include "app/devices/device_preference.h"
#include "app/engine/engine.h"
#include "app/document/qt_text.h"
#include "app/version_info.h"
#include "tessera/gpu/device_info.h"
#include "ui/help_menu.h"
#include "ui/main_window.h"
#include "ui/window_menus.h"
#include "ui/run_docks.h"
#include "ui/device_panel.h"
#include "ui/preferences_dialog.h"

namespace tessera::app::gui {

DeviceController::DeviceController(ui::MainWindow& window, Engine& engine, QObject* parent)
    : QObject(parent), window_(window), engine_(engine)
{
    calibration_ = new CalibrationController(*window_.runDocks()->devicePanel(), engine_.scheduler(), {}, this);
    connect(calibration_, &CalibrationController::waiting, this,
            [this](const QString&, const QString& why) { window_.showMessage(why); });
    // A new measurement changes how the bands are shared out.
    connect(calibration_, &CalibrationController::measured, this, &DeviceController::applyDevicePreference);
    applyDevicePreference();
    connect(window_.menus(), &ui::WindowMenus::preferredDeviceChanged, this, &DeviceController::applyDevicePreference);
    connect(window_.menus(), &ui::WindowMenus::gpuMemoryLimitChanged, this, &DeviceController::applyDevicePreference);
    connect(window_.runDocks()->devicePanel(), &ui::DevicePanel::enabledDevicesChanged, this,
            &DeviceController::applyDevicePreference);
    connect(window_.runDocks()->devicePanel(), &ui::DevicePanel::refreshRequested, this, [this] {
        gpu::rescanDevices();  // the user asked: read the devices again, for every front end
        refreshDeviceInfo();
    });
}

DeviceController::~DeviceController() = default;

void DeviceController::refreshDeviceInfo()
{
    const values::DeviceSnapshot snapshot = gpu::enumerateDevices();
    const VersionInfo versions = collectVersions(snapshot);
    ui::AboutInfo about;
    about.tessera = qs(versions.tessera);
    about.qt = qs(versions.qt);
    about.opencv = qs(versions.opencv);
    about.cudaRuntime = qs(versions.cudaRuntime);
    about.cudaDriver = qs(versions.cudaDriver);
    about.cufft = qs(versions.cufft);
    about.devices = qs(describeDevices(snapshot));
    window_.help()->setAboutInfo(about);
    window_.setComputeSummary(qs(computeSummary(snapshot)));
    std::vector<ui::DeviceOption> options = ui::PreferencesDialog::basicDeviceOptions();
    for (const values::DeviceInfo& device : snapshot.devices) {
        const values::DeviceSelection gpu = values::DeviceSelection::gpu(device.id);
        options.push_back(
            {qs(values::toString(gpu)), qs(values::deviceLabel(device.id, &snapshot, values::LabelForm::Listing))});
    }
    window_.menus()->setDeviceOptions(options);
    window_.runDocks()->setDevices(snapshot);
    calibration_->setSnapshot(snapshot);
    presentGpus_.clear();
    for (const values::DeviceInfo& device : snapshot.devices) {
        presentGpus_.push_back(device.id);
    }
    snapshot_ = snapshot;
    applyDevicePreference();
}

values::DeviceSpeeds DeviceController::gpuSpeeds(const std::vector<values::DeviceId>& gpus) const
{
    // Band heights follow the measured speeds once every GPU in use has been measured.
    std::vector<values::DeviceCalibration> calibrations;
    const CalibrationCache cache;
    for (const values::DeviceId id : gpus) {
        values::DeviceCalibration c;
        for (const values::DeviceInfo& device : snapshot_.devices) {
            if (device.id == id) {
                c = cache.cached(CalibrationCache::keyFor(device, snapshot_.driverVersion)).value_or(c);
            }
        }
        calibrations.push_back(c);
    }
    const std::vector<double> relative = values::relativeSpeeds(calibrations);
    values::DeviceSpeeds speeds;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        speeds.emplace_back(gpus[i], relative[i]);
    }
    return speeds;
}

void DeviceController::applyDevicePreference()
{
    // Preferences says where previews should run; the Devices dock's check boxes say which
    // devices they may use. The Engine gets the first device that satisfies both.
    AllowedDevices allowed{presentGpus_, {}, false};
    for (const QString& key : window_.runDocks()->enabledDevices()) {
        // The dock's keys are one device each ("gpu:N", "cpu"), spelled as the setting is; one
        // that is neither reads as auto and allows nothing.
        const values::DeviceSelection device = readPreviewPreference(key.toStdString());
        if (device.kind() == values::DeviceSelection::Kind::Gpus) {
            allowed.gpus.insert(allowed.gpus.end(), device.ids().begin(), device.ids().end());
        }
        allowed.cpu = allowed.cpu || device.kind() == values::DeviceSelection::Kind::Cpu;
    }
    const values::DeviceSelection preference =
        restrictPreference(readPreviewPreference(window_.menus()->preferredDevice().toStdString()), allowed);
    // Auto spreads previews over every enabled GPU, so the set of GPUs and their speeds matter
    // too. Compared as values: two speeds that differ only past some decimal are still two.
    const values::DeviceSpeeds speeds = gpuSpeeds(allowed.gpus);
    const std::size_t memoryLimit = ui::PreferencesDialog::gpuMemoryLimit();
    if (applied_ && applied_->preference == preference && applied_->speeds == speeds &&
        applied_->memoryLimit == memoryLimit) {
        return;
    }
    const bool first = !applied_.has_value();
    applied_ = AppliedDevices{preference, speeds, memoryLimit};
    engine_.setDevicePreference(preference, speeds, memoryLimit);
    if (!first) {
        emit devicesChanged();
    }
}

}  // namespace tessera::app::gui
