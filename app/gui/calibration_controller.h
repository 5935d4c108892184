// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/gui/background_job.h"
#include "app/compare/calibration_cache.h"
#include "values/device_calibration.h"
#include "values/device_info.h"

#include <QObject>
#include <QStringList>

#include <atomic>
#include <functional>
#include <map>
#include <string>

namespace tessera::ui {
class DevicePanel;
}  // namespace tessera::ui

namespace tessera::app {

class DeviceScheduler;

/// Connects the Devices dock's Measure buttons to the calibration: measures one device at a
/// time as a BackgroundJob (the GUI never waits) under an exclusive lease of the scheduler, so
/// no preview, batch or comparison spoils its timings; remembers results in CalibrationCache
/// and shows them in the panel. Destroying it gives up a measurement still waiting for its
/// device and waits for one in progress. The panel and the scheduler must outlive it.
class CalibrationController : public QObject {
    Q_OBJECT

public:
    /// Measures a device key ("gpu:N", "cpu"); throws on failure. Runs on the worker thread.
    using Measure = std::function<values::DeviceCalibration(const QString& key)>;

    /// measure defaults to gpu::calibrateDevice / calibrateCpu (app/compare/cpu_calibration.h). Throws only std::bad_alloc.
    CalibrationController(ui::DevicePanel& panel, DeviceScheduler& scheduler, Measure measure = {},
                          QObject* parent = nullptr);
    ~CalibrationController() override;

    /// New devices: shows the cached calibration of each (and of the CPU) in the panel.
    void setSnapshot(const values::DeviceSnapshot& snapshot);
    /// Measures key (queued behind one in progress), ignoring what the cache holds.
    void measure(const QString& key);
    /// The calibrations known now, by device key.
    std::map<std::string, values::DeviceCalibration> known() const;
    /// True while a measurement runs or waits.
    bool isBusy() const { return job_.isRunning() || !queue_.isEmpty(); }
    /// The cache key of a device key under the current snapshot (empty when unknown).
    QString cacheKey(const QString& key) const;

signals:
    /// A measurement finished (ok or not) and the panel shows it.
    void measured(const QString& key);
    /// The measurement of key waits for its device; why says for what ("waiting for GPU 0
    /// (batch running)").
    void waiting(const QString& key, const QString& why);

private:
    /// What one measurement gave.
    struct Outcome {
        QString key;
        values::DeviceCalibration result;
        QString error;
    };

    void startNext();
    void finish(const Outcome& outcome);

    ui::DevicePanel& panel_;
    DeviceScheduler& scheduler_;
    Measure measure_;
    CalibrationCache cache_;
    values::DeviceSnapshot snapshot_;
    std::map<std::string, values::DeviceCalibration> known_;
    QStringList queue_;
    std::atomic<bool> stopping_{false};
    BackgroundJob<Outcome> job_;  // last: it waits for the work, which uses the members above
};

}  // namespace tessera::app
