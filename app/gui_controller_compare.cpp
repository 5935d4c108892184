#include "app/calibration_controller.h"
#include "app/compare_controller.h"
#include "app/compare_runner.h"
#include "app/engine.h"
#include "app/gui_controller.h"
#include "gpu/device_info.h"
#include "gpu/device_selection.h"
#include "ui/compare_dialog.h"
#include "ui/main_window.h"

namespace tessera::app {

void GuiController::openCompare()
{
    if (compareDialog_ == nullptr) {
        compareDialog_ = new ui::CompareDialog(&window_);
        // The devices the Devices dock allows, each alone and together, with the measured speeds.
        auto setup = [this] {
            CompareSetup s;
            s.snapshot = gpu::enumerateDevices();
            s.calibrations = calibration_->known();
            const QStringList enabled = window_.enabledDevices();
            gpu::DeviceSnapshot allowed = s.snapshot;
            std::erase_if(allowed.devices, [&](const gpu::DeviceInfo& d) {
                const gpu::DeviceSelection alone = gpu::DeviceSelection::gpu(gpu::DeviceId{d.id});
                return !enabled.contains(QString::fromStdString(gpu::toString(alone)));
            });
            std::vector<gpu::DeviceCalibration> byId;
            for (const auto& d : s.snapshot.devices) {
                byId.resize(std::max<std::size_t>(byId.size(), static_cast<std::size_t>(d.id) + 1));
                if (auto it = s.calibrations.find("gpu:" + std::to_string(d.id)); it != s.calibrations.end()) {
                    byId[static_cast<std::size_t>(d.id)] = it->second;
                }
            }
            s.targets = defaultTargets(allowed, byId);
            return s;
        };
        compare_ = new CompareController(
            *compareDialog_, engine_->scheduler(), [this] { return source_; }, [this] { return stackChain(); }, setup, this);
    } else if (!compare_->isRunning()) {
        compare_->refresh();
    }
    compareDialog_->show();
    compareDialog_->raise();
    compareDialog_->activateWindow();
}

}  // namespace tessera::app
