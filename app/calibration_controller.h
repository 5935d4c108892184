#pragma once

#include "app/calibration_cache.h"
#include "gpu/device_calibration.h"
#include "gpu/device_info.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace tessera::ui {
class DevicePanel;
}

namespace tessera::app {

/// Connects the Devices dock's Measure buttons to the calibration: measures one device at a
/// time on a thread of its own (the GUI never waits), remembers results in CalibrationCache and
/// shows them in the panel. Destroying it waits for a measurement in progress.
class CalibrationController : public QObject {
    Q_OBJECT

public:
    /// Measures a device key ("gpu:N", "cpu"); throws on failure. Runs on the worker thread.
    using Measure = std::function<gpu::DeviceCalibration(const QString& key)>;

    /// measure defaults to gpu::calibrateDevice / gpu::calibrateCpu.
    explicit CalibrationController(ui::DevicePanel& panel, Measure measure = {}, QObject* parent = nullptr);
    ~CalibrationController() override;

    /// New devices: shows the cached calibration of each (and of the CPU) in the panel.
    void setSnapshot(const gpu::DeviceSnapshot& snapshot);
    /// Measures key (queued behind one in progress), ignoring what the cache holds.
    void measure(const QString& key);
    /// The calibrations known now, by device key.
    std::map<std::string, gpu::DeviceCalibration> known() const;
    /// True while a measurement runs or waits.
    bool isBusy() const { return worker_.joinable() || !queue_.isEmpty(); }
    /// The cache key of a device key under the current snapshot (empty when unknown).
    QString cacheKey(const QString& key) const;

signals:
    /// A measurement finished (ok or not) and the panel shows it.
    void measured(const QString& key);

private:
    void startNext();
    void finish(const QString& key, const gpu::DeviceCalibration& result, const QString& error);

    ui::DevicePanel& panel_;
    Measure measure_;
    CalibrationCache cache_;
    gpu::DeviceSnapshot snapshot_;
    std::map<std::string, gpu::DeviceCalibration> known_;
    QStringList queue_;
    std::thread worker_;
};

}  // namespace tessera::app
