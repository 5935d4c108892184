// SPDX-License-Identifier: Apache-2.0
#include "app/gui/calibration_controller.h"

#include "app/compare/cpu_calibration.h"
#include "values/device_label.h"
#include "app/devices/device_scheduler.h"
#include "tessera/gpu/engine.h"
#include "ui/device_panel.h"

#include <exception>

namespace tessera::app {

namespace {

values::DeviceCalibration measureReal(const QString& key)
{
    if (key == QLatin1String("cpu")) {
        return calibrateCpu();
    }
    return gpu::calibrateDevice(values::DeviceId{key.mid(4).toInt()});
}

// "cpu" or "gpu:N" as the device the measurement leases.
values::DeviceId deviceOf(const QString& key)
{
    return key == QLatin1String("cpu") ? values::DeviceId::cpu() : values::DeviceId{key.mid(4).toInt()};
}

}  // namespace

CalibrationController::CalibrationController(ui::DevicePanel& panel, DeviceScheduler& scheduler, Measure measure,
                                             QObject* parent)
    : QObject(parent), panel_(panel), scheduler_(scheduler),
      measure_(measure ? std::move(measure) : Measure(measureReal))
{
    connect(&panel_, &ui::DevicePanel::measureRequested, this, &CalibrationController::measure);
    panel_.setCpuName(QString::fromStdString(cpuModelName()));
    setSnapshot({});
}

CalibrationController::~CalibrationController()
{
    queue_.clear();
    stopping_ = true;
    job_.wait();
}

QString CalibrationController::cacheKey(const QString& key) const
{
    if (key == QLatin1String("cpu")) {
        return CalibrationCache::cpuKey();
    }
    for (const auto& d : snapshot_.devices) {
        if (key == QString::fromStdString(values::deviceLabel(d.id, nullptr, values::LabelForm::Key))) {
            return CalibrationCache::keyFor(d, snapshot_.driverVersion);
        }
    }
    return {};
}

void CalibrationController::setSnapshot(const values::DeviceSnapshot& snapshot)
{
    snapshot_ = snapshot;
    QStringList keys{
        QString::fromStdString(values::deviceLabel(values::DeviceId::cpu(), nullptr, values::LabelForm::Key))};
    for (const auto& d : snapshot.devices) {
        keys << QString::fromStdString(values::deviceLabel(d.id, nullptr, values::LabelForm::Key));
    }
    for (const QString& key : keys) {
        if (auto stored = cache_.cached(cacheKey(key))) {
            known_[key.toStdString()] = *stored;
            panel_.setCalibration(key, *stored);
        }
    }
}

std::map<std::string, values::DeviceCalibration> CalibrationController::known() const
{
    return known_;
}

void CalibrationController::measure(const QString& key)
{
    if (!queue_.contains(key)) {
        queue_ << key;
        panel_.setMeasuring(key, true);
    }
    if (!job_.isRunning()) {
        startNext();
    }
}

void CalibrationController::startNext()
{
    if (queue_.isEmpty()) {
        return;
    }
    const QString key = queue_.front();
    job_.start(
        [this, key] {
            Outcome outcome{key, {}, {}};
            try {
                const DeviceLease lease = scheduler_.acquire(
                    {{deviceOf(key)}, LeaseKind::Exclusive, 0, "calibration"}, [this] { return stopping_.load(); },
                    [this, key](const std::string& why) {
                        QMetaObject::invokeMethod(
                            this, [this, key, text = QString::fromStdString(why)] { emit waiting(key, text); },
                            Qt::QueuedConnection);
                    });
                if (!lease) {
                    outcome.error = tr("not measured: the window closed while it waited");
                    return outcome;
                }
                outcome.result = measure_(key);
            } catch (const std::exception& e) {
                outcome.error = QString::fromUtf8(e.what());
            }
            return outcome;
        },
        [this](const Outcome& outcome) { finish(outcome); });
}

void CalibrationController::finish(const Outcome& outcome)
{
    const QString& key = outcome.key;
    const values::DeviceCalibration& result = outcome.result;
    const QString& error = outcome.error;
    queue_.removeAll(key);
    if (error.isEmpty()) {
        known_[key.toStdString()] = result;
        const QString stored = cacheKey(key);
        if (!stored.isEmpty()) {
            cache_.store(stored, result);
        }
        panel_.setCalibration(key, result);
    }
    panel_.setMeasuring(key, false, error);
    emit measured(key);
    startNext();
}

}  // namespace tessera::app
