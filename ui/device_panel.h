#pragma once

#include "gpu/device_info.h"

#include <QStringList>
#include <QWidget>

class QCheckBox;
class QLabel;
class QVBoxLayout;

namespace tessera::ui {

/// The Devices dock's contents: one section per CUDA device of a snapshot (name, compute
/// capability, SMs, clocks, memory, L2, shared memory, PCI bus id, peers) and one for the CPU,
/// each with a check box that allows or forbids previews on it. Device keys are those of
/// Preferences ("gpu:N", "cpu"); the disabled ones are kept in QSettings. At least one device
/// stays enabled: the last checked box cannot be unchecked. Reads nothing itself; Refresh asks
/// app/ for a new snapshot. GUI thread only.
class DevicePanel : public QWidget {
    Q_OBJECT

public:
    /// An empty panel listing the CPU only, until setSnapshot().
    explicit DevicePanel(QWidget* parent = nullptr);

    /// Keys of the enabled devices shown, GPUs in snapshot order, then "cpu".
    QStringList enabledDevices() const;
    /// The device keys disabled in QSettings (devices not present now included).
    static QStringList storedDisabled();

public slots:
    /// Shows snapshot's devices and versions, or why there is no GPU; check boxes follow the
    /// settings.
    void setSnapshot(const tessera::gpu::DeviceSnapshot& snapshot);

signals:
    /// The user checked or unchecked a device (already stored); keys as enabledDevices().
    void enabledDevicesChanged(const QStringList& keys);
    /// The user pressed Refresh: app/ should read the devices again (free memory changes).
    void refreshRequested();

private:
    void rebuild(const gpu::DeviceSnapshot& snapshot);
    QWidget* gpuSection(const gpu::DeviceInfo& device, const gpu::DeviceSnapshot& snapshot);
    QWidget* cpuSection(bool hasGpu);
    QCheckBox* deviceCheck(const QString& key, QWidget* parent);
    void deviceToggled(const QString& key, bool enabled);
    void lockLastDevice();

    QLabel* versions_ = nullptr;
    QVBoxLayout* sections_ = nullptr;
    QWidget* content_ = nullptr;
    std::vector<std::pair<QString, QCheckBox*>> checks_;  ///< in the order shown
};

}  // namespace tessera::ui
