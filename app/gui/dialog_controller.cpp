// SPDX-License-Identifier: Apache-2.0
#include "app/gui/dialog_controller.h"

#include "values/device_label.h"
#include "app/gui/batch_controller.h"
#include "app/gui/calibration_controller.h"
#include "app/gui/compare_controller.h"
#include "app/compare/compare_runner.h"
#include "app/document/document.h"
#include "app/engine/engine.h"
#include "app/gui/preview_controller.h"
#include "tessera/gpu/device_info.h"
#include "values/device_selection.h"
#include "ui/batch_dialog.h"
#include "ui/compare_dialog.h"
#include "ui/main_window.h"
#include "ui/window_menus.h"
#include "ui/run_docks.h"

#include <algorithm>
#include <exception>
#include <string>
#include <vector>

namespace tessera::app::gui {

DialogController::DialogController(ui::MainWindow& window, document::Document& document,
                                   const PreviewController& previews, CalibrationController& calibration,
                                   QObject* parent)
    : QObject(parent), window_(window), document_(document), previews_(previews), calibration_(calibration)
{
    connect(window_.menus(), &ui::WindowMenus::batchRequested, this, &DialogController::openBatch);
    connect(window_.menus(), &ui::WindowMenus::compareRequested, this, &DialogController::openCompare);
}

DialogController::~DialogController() = default;

void DialogController::openBatch()
{
    if (batchDialog_ == nullptr) {
        batchDialog_ = new ui::BatchDialog(&window_);
        batch_ = new BatchController(
            *batchDialog_, previews_.engine().scheduler(),
            [this] {
                try {
                    return previews_.stackChain();
                } catch (const std::exception&) {
                    return filters::FilterChain{};  // a filter refusing its values: offer presets only
                }
            },
            this);
    } else if (!batch_->isRunning()) {
        batch_->refresh();
    }
    batchDialog_->show();
    batchDialog_->raise();
    batchDialog_->activateWindow();
}

void DialogController::openCompare()
{
    if (compareDialog_ == nullptr) {
        compareDialog_ = new ui::CompareDialog(&window_);
        // The devices the Devices dock allows, each alone and together, with the measured speeds.
        auto setup = [this] {
            CompareSetup s;
            s.snapshot = gpu::enumerateDevices();
            s.calibrations = calibration_.known();
            const QStringList enabled = window_.runDocks()->enabledDevices();
            values::DeviceSnapshot allowed = s.snapshot;
            std::erase_if(allowed.devices, [&](const values::DeviceInfo& d) {
                const values::DeviceSelection alone = values::DeviceSelection::gpu(d.id);
                return !enabled.contains(QString::fromStdString(values::toString(alone)));
            });
            std::vector<values::DeviceCalibration> byId;
            for (const auto& d : s.snapshot.devices) {
                const auto at = static_cast<std::size_t>(d.id.value());
                byId.resize(std::max<std::size_t>(byId.size(), at + 1));
                if (auto it = s.calibrations.find(values::deviceLabel(d.id, nullptr, values::LabelForm::Key));
                    it != s.calibrations.end()) {
                    byId[at] = it->second;
                }
            }
            s.targets = defaultTargets(allowed, byId);
            return s;
        };
        compare_ = new CompareController(
            *compareDialog_, previews_.engine().scheduler(), [this] { return document_.image(); },
            [this] { return previews_.stackChain(); }, setup, this);
    } else if (!compare_->isRunning()) {
        compare_->refresh();
    }
    compareDialog_->show();
    compareDialog_->raise();
    compareDialog_->activateWindow();
}

}  // namespace tessera::app::gui
