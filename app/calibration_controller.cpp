#include "app/calibration_controller.h"

#include "gpu/engine.h"
#include "ui/device_panel.h"

#include <exception>

namespace tessera::app {

namespace {

gpu::DeviceCalibration measureReal(const QString& key)
{
    if (key == QLatin1String("cpu")) {
        return gpu::calibrateCpu();
    }
    return gpu::calibrateDevice(gpu::DeviceId{key.mid(4).toInt()});
}

}  // namespace

CalibrationController::CalibrationController(ui::DevicePanel& panel, Measure measure, QObject* parent)
    : QObject(parent), panel_(panel), measure_(measure ? std::move(measure) : Measure(measureReal))
{
    connect(&panel_, &ui::DevicePanel::measureRequested, this, &CalibrationController::measure);
    panel_.setCpuName(QString::fromStdString(gpu::cpuModelName()));
    setSnapshot({});
}

CalibrationController::~CalibrationController()
{
    queue_.clear();
    if (worker_.joinable()) {
        worker_.join();
    }
}

QString CalibrationController::cacheKey(const QString& key) const
{
    if (key == QLatin1String("cpu")) {
        return CalibrationCache::cpuKey();
    }
    for (const auto& d : snapshot_.devices) {
        if (key == QStringLiteral("gpu:%1").arg(d.id.value())) {
            return CalibrationCache::keyFor(d, snapshot_.driverVersion);
        }
    }
    return {};
}

void CalibrationController::setSnapshot(const gpu::DeviceSnapshot& snapshot)
{
    snapshot_ = snapshot;
    QStringList keys{QStringLiteral("cpu")};
    for (const auto& d : snapshot.devices) {
        keys << QStringLiteral("gpu:%1").arg(d.id.value());
    }
    for (const QString& key : keys) {
        if (auto stored = cache_.cached(cacheKey(key))) {
            known_[key.toStdString()] = *stored;
            panel_.setCalibration(key, *stored);
        }
    }
}

std::map<std::string, gpu::DeviceCalibration> CalibrationController::known() const
{
    return known_;
}

void CalibrationController::measure(const QString& key)
{
    if (!queue_.contains(key)) {
        queue_ << key;
        panel_.setMeasuring(key, true);
    }
    if (!worker_.joinable()) {
        startNext();
    }
}

void CalibrationController::startNext()
{
    if (queue_.isEmpty()) {
        return;
    }
    const QString key = queue_.front();
    worker_ = std::thread([this, key] {
        gpu::DeviceCalibration result;
        QString error;
        try {
            result = measure_(key);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(this, [this, key, result, error] { finish(key, result, error); }, Qt::QueuedConnection);
    });
}

void CalibrationController::finish(const QString& key, const gpu::DeviceCalibration& result, const QString& error)
{
    worker_.join();
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
