// GuiController, second part: files (open, save, export, presets) and devices (the About box,
// the Devices dock, Preferences and the device the Engine uses).

#include "app/batch_controller.h"
#include "app/calibration_cache.h"
#include "app/calibration_controller.h"
#include "app/device_preference.h"
#include "app/engine.h"
#include "app/gui_controller.h"
#include "app/gui_text.h"
#include "app/image_io.h"
#include "app/stack_chain.h"
#include "app/version_info.h"
#include "filters/preset_io.h"
#include "filters/registry.h"
#include "gpu/device_info.h"
#include "ui/batch_dialog.h"
#include "ui/image_view.h"
#include "ui/main_window.h"

#include <QFileInfo>
#include <QImage>

#include <exception>
#include <utility>

namespace tessera::app {

void GuiController::saveImage(const QString& path)
{
    if (source_.empty()) {
        return;
    }
    try {
        writeImage(path.toStdString(), source_);
        savedData_ = source_.data;
        if (QFileInfo(path).absoluteFilePath() != QFileInfo(window_.currentPath()).absoluteFilePath()) {
            window_.setDocumentPath(QFileInfo(path).absoluteFilePath());
        }
        window_.setDocumentModified(false);
        window_.showMessage(tr("Saved %1").arg(path));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot save image"), QString::fromUtf8(e.what()));
    }
}

void GuiController::exportImage(const QString& path)
{
    if (source_.empty()) {
        return;
    }
    try {
        const cv::Mat result = currentResult();
        // writeImage() refuses a format that cannot hold the depth or the alpha channel and names
        // the formats that can; nothing is converted behind the user's back.
        writeImage(path.toStdString(), result);
        window_.showMessage(tr("Exported %1 (%2)").arg(path, qs(describeFormat(result))));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot export image"), tr("%1. Nothing was written.").arg(namingFile(path, e)));
    }
}

void GuiController::loadPreset(const QString& path)
{
    try {
        const filters::Preset preset = filters::loadPreset(path.toStdString(), filters::builtinRegistry());
        const QString name = preset.name.empty() ? QFileInfo(path).completeBaseName() : qs(preset.name);
        window_.filterStack()->replaceEntries(entriesFromPreset(preset), tr("Load preset %1").arg(name));
        window_.showMessage(tr("Loaded preset %1").arg(path));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot load preset"), namingFile(path, e));
    }
}

void GuiController::savePreset(const QString& path)
{
    try {
        const filters::Preset preset = presetFromStack(window_.filterStack()->state(),
                                                       QFileInfo(path).completeBaseName().toStdString(),
                                                       filters::builtinRegistry());
        filters::savePreset(preset, path.toStdString());
        window_.showMessage(tr("Saved preset %1 (%2 filters)").arg(path).arg(preset.steps.size()));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot save preset"), namingFile(path, e));
    }
}

void GuiController::openImage(const QString& path)
{
    const QString title = tr("Cannot open image");
    // Absolute, so the title, the recent list and later saves do not depend on the working folder.
    const QString absolute = path.isEmpty() ? path : QFileInfo(path).absoluteFilePath();
    try {
        cv::Mat image = readImage(absolute.toStdString());
        QString shown;
        const QImage display = render(image, &shown);
        const QString description = qs(describeFormat(image));
        source_ = std::move(image);
        savedData_ = source_.data;
        undo_.clear();
        engine_->setImage(source_);
        forgetPreviews();
        window_.showImage(display, absolute, description);
        originalDisplay_ = display;
        originalShown_ = shown;
        window_.imageView()->setOriginal(originalDisplay_);
        window_.setDisplayStatus(originalShown_);
        // The stack stays: it is previewed on the new image.
        if (!window_.filterStack()->state().entries.empty()) {
            previewStack();
        }
    } catch (const ImageError& e) {
        // ImageError's text already starts with the path.
        window_.showError(title, qs(e.what()));
    } catch (const std::exception& e) {
        window_.showError(title, QStringLiteral("%1: %2").arg(absolute, qs(e.what())));
    }
}

void GuiController::refreshDeviceInfo()
{
    const gpu::DeviceSnapshot snapshot = gpu::enumerateDevices();
    const VersionInfo versions = collectVersions(snapshot);
    ui::AboutInfo about;
    about.tessera = qs(versions.tessera);
    about.qt = qs(versions.qt);
    about.opencv = qs(versions.opencv);
    about.cudaRuntime = qs(versions.cudaRuntime);
    about.cudaDriver = qs(versions.cudaDriver);
    about.devices = qs(describeDevices(snapshot));
    window_.setAboutInfo(about);
    window_.setComputeSummary(qs(computeSummary(snapshot)));
    std::vector<ui::DeviceOption> options = ui::PreferencesDialog::basicDeviceOptions();
    for (const gpu::DeviceInfo& device : snapshot.devices) {
        const gpu::DeviceSelection gpu = gpu::DeviceSelection::gpu(gpu::DeviceId{device.id});
        options.push_back({qs(gpu::toString(gpu)), tr("GPU %1: %2").arg(device.id).arg(qs(device.name))});
    }
    window_.setDeviceOptions(options);
    window_.setDevices(snapshot);
    calibration_->setSnapshot(snapshot);
    presentGpus_.clear();
    for (const gpu::DeviceInfo& device : snapshot.devices) {
        presentGpus_.emplace_back(device.id);
    }
    snapshot_ = snapshot;
    applyDevicePreference();
}

gpu::DeviceSpeeds GuiController::gpuSpeeds(const std::vector<gpu::DeviceId>& gpus) const
{
    // Band heights follow the measured speeds once every GPU in use has been measured.
    std::vector<gpu::DeviceCalibration> calibrations;
    const CalibrationCache cache;
    for (const gpu::DeviceId id : gpus) {
        gpu::DeviceCalibration c;
        for (const gpu::DeviceInfo& device : snapshot_.devices) {
            if (gpu::DeviceId{device.id} == id) {
                c = cache.cached(CalibrationCache::keyFor(device, snapshot_.driverVersion)).value_or(c);
            }
        }
        calibrations.push_back(c);
    }
    const std::vector<double> relative = gpu::relativeSpeeds(calibrations);
    gpu::DeviceSpeeds speeds;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        speeds.emplace_back(gpus[i], relative[i]);
    }
    return speeds;
}

void GuiController::applyDevicePreference()
{
    // Preferences says where previews should run; the Devices dock's check boxes say which
    // devices they may use. The Engine gets the first device that satisfies both.
    AllowedDevices allowed{presentGpus_, {}, false};
    for (const QString& key : window_.enabledDevices()) {
        // The dock's keys are one device each ("gpu:N", "cpu"), spelled as the setting is; one
        // that is neither reads as auto and allows nothing.
        const gpu::DeviceSelection device = readPreviewPreference(key.toStdString());
        if (device.kind() == gpu::DeviceSelection::Kind::Gpus) {
            allowed.gpus.insert(allowed.gpus.end(), device.ids().begin(), device.ids().end());
        }
        allowed.cpu = allowed.cpu || device.kind() == gpu::DeviceSelection::Kind::Cpu;
    }
    const gpu::DeviceSelection preference =
        restrictPreference(readPreviewPreference(window_.preferredDevice().toStdString()), allowed);
    // Auto spreads previews over every enabled GPU, so the set of GPUs matters too.
    std::string applied = gpu::toString(preference);
    const gpu::DeviceSpeeds speeds = gpuSpeeds(allowed.gpus);
    for (const auto& [id, speed] : speeds) {
        applied += "," + std::to_string(id.value()) + "@" + std::to_string(speed);
    }
    if (applied == appliedDevice_) {
        return;
    }
    const bool first = appliedDevice_.empty();
    appliedDevice_ = applied;
    engine_->setDevicePreference(preference, speeds);
    if (!first) {
        previewStack();
    }
}

void GuiController::openBatch()
{
    if (batchDialog_ == nullptr) {
        batchDialog_ = new ui::BatchDialog(&window_);
        batch_ = new BatchController(
            *batchDialog_, engine_->scheduler(),
            [this] {
                try {
                    return stackChain();
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

}  // namespace tessera::app
