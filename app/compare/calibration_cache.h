// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_calibration.h"
#include "values/device_info.h"

#include <QString>

#include <functional>
#include <optional>

namespace tessera::app {

/// Calibrations remembered in QSettings under "calibration/<key>", so that a device is measured
/// once per machine set-up: the key holds the device name, its PCI bus id and the driver
/// version, and a new driver or a moved card is measured again. GUI or worker thread (QSettings
/// is thread-safe), one writer at a time.
class CalibrationCache {
public:
    /// "NVIDIA H200|0000:19:00.0|13010" for a GPU of snapshot.
    static QString keyFor(const values::DeviceInfo& device, int driverVersion);
    /// "cpu|<model name>|<threads>" for the CPU path.
    static QString cpuKey();

    /// The stored calibration for key, or none.
    std::optional<values::DeviceCalibration> cached(const QString& key) const;
    /// Stores calibration under key, replacing what was there.
    void store(const QString& key, const values::DeviceCalibration& calibration);
    /// Forgets key (the panel's Measure measures again even when something is stored).
    void remove(const QString& key);
    /// The stored calibration, or measure()'s result after storing it. Whatever measure throws
    /// (CudaError) goes to the caller and nothing is stored.
    values::DeviceCalibration measureOrCached(const QString& key,
                                              const std::function<values::DeviceCalibration()>& measure);
};

}  // namespace tessera::app
