// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_calibration.h"
#include "values/device_info.h"

#include <QMap>
#include <QStringList>
#include <QWidget>

class QCheckBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QTimer;
class QVBoxLayout;

namespace tessera::ui {

/// The Devices dock's contents: one section per CUDA device of a snapshot (name, compute
/// capability, SMs, clocks, memory, L2, shared memory, PCI bus id, peers) and one for the CPU,
/// each with a check box that allows or forbids previews on it. Device keys are those of
/// Preferences ("gpu:N", "cpu"); the disabled ones are kept in QSettings. At least one device
/// stays enabled: the last checked box cannot be unchecked. Reads nothing itself; Refresh, and a
/// timer every second while the panel is visible, ask app/ for a new snapshot (a snapshot of
/// the same devices only updates the values, so nothing jumps). Each device shows its measured
/// calibration, or a Measure button that asks app/ to measure it. GUI thread only.
class DevicePanel : public QWidget {
    Q_OBJECT

public:
    /// An empty panel listing the CPU only, until setSnapshot().
    explicit DevicePanel(QWidget* parent = nullptr);

    /// Keys of the enabled devices shown, GPUs in snapshot order, then "cpu".
    QStringList enabledDevices() const;
    /// The device keys disabled in QSettings (devices not present now included).
    static QStringList storedDisabled();
    /// The snapshot shown now.
    const values::DeviceSnapshot& snapshot() const { return shown_; }
    /// The live refresh interval while visible, in milliseconds (0: off).
    int refreshInterval() const;
    /// Changes the live refresh interval (tests turn it off); 0 stops it.
    void setRefreshInterval(int milliseconds);

public slots:
    /// Shows snapshot's devices and versions, or why there is no GPU; check boxes follow the
    /// settings.
    void setSnapshot(const tessera::values::DeviceSnapshot& snapshot);
    /// Shows the measured calibration of a device (key "gpu:N" or "cpu"); kept across snapshots.
    void setCalibration(const QString& key, const tessera::values::DeviceCalibration& calibration);
    /// Shows that a device is being measured (Measure disabled) or not any more; error, when not
    /// empty, says why a measurement failed.
    void setMeasuring(const QString& key, bool measuring, const QString& error = {});
    /// Names the CPU (e.g. the model name from /proc/cpuinfo).
    void setCpuName(const QString& name);

signals:
    /// The user checked or unchecked a device (already stored); keys as enabledDevices().
    void enabledDevicesChanged(const QStringList& keys);
    /// The user pressed Refresh: app/ should read the devices again (free memory changes).
    void refreshRequested();
    /// The user pressed Measure for a device (key as setCalibration()); app/ measures it off
    /// the GUI thread and answers with setCalibration() and setMeasuring(key, false).
    void measureRequested(const QString& key);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void rebuild(const values::DeviceSnapshot& snapshot);
    QWidget* gpuSection(const values::DeviceInfo& device, const values::DeviceSnapshot& snapshot);
    QWidget* cpuSection(bool hasGpu);
    QWidget* peerSection(const values::DeviceSnapshot& snapshot);
    void addCalibrationRow(QFormLayout* form, const QString& key, QWidget* parent);
    void showCalibration(const QString& key);
    bool sameDevices(const values::DeviceSnapshot& snapshot) const;
    void updateValues(const values::DeviceSnapshot& snapshot);
    QCheckBox* deviceCheck(const QString& key, QWidget* parent);
    void deviceToggled(const QString& key, bool enabled);
    void lockLastDevice();

    QLabel* versions_ = nullptr;
    QVBoxLayout* sections_ = nullptr;
    QWidget* content_ = nullptr;
    std::vector<std::pair<QString, QCheckBox*>> checks_;     ///< in the order shown
    QMap<QString, values::DeviceCalibration> calibrations_;  ///< measured so far, by device key
    QMap<QString, QString> calibrationErrors_;               ///< the last failure, by device key
    QStringList measuring_;                                  ///< keys being measured now
    values::DeviceSnapshot shown_;                           ///< the snapshot on screen
    QString cpuName_;
    QTimer* timer_ = nullptr;
    int interval_ = 1000;
};

}  // namespace tessera::ui
