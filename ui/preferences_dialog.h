// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QString>

#include <cstddef>
#include <vector>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace tessera::ui {

class EncodeOptionsWidget;

/// One place previews can run, as offered in Preferences and the batch dialog: key is the
/// values::DeviceSelection's spelling (values::toString: "auto", "cpu", "gpu:0", "all"), which the
/// settings store; label is what the user reads.
struct DeviceOption {
    QString key;
    QString label;
    bool operator==(const DeviceOption&) const = default;
};

/// Edit > Preferences: where previews run and how much memory each GPU may give them, whether an
/// image opens with the stack it was left with, the format File > Export suggests and the quality
/// and compression files are written with. All are kept in QSettings; a stored device key that is not offered any more (a GPU
/// gone) is still shown, marked as not present. GUI thread.
class PreferencesDialog : public QDialog {
    Q_OBJECT

public:
    /// The options every machine has: Auto and CPU only.
    static std::vector<DeviceOption> basicDeviceOptions();
    /// The device key in QSettings ("auto" when none is stored).
    static QString storedDevice();
    /// Stores key as the preferred device.
    static void storeDevice(const QString& key);
    /// Whether opening an image brings back the stack it was left with (true unless turned off).
    static bool restoresStacks();
    static void storeRestoresStacks(bool on);
    /// The extension File > Export suggests ("png", "tif", "jpg", "webp"); empty: the image's own.
    static QString exportFormat();
    static void storeExportFormat(const QString& extension);
    /// The bytes each GPU may hold for previews and batches; 0 (the default): from its free memory.
    static std::size_t gpuMemoryLimit();
    static void storeGpuMemoryLimit(std::size_t bytes);

    /// Offers options with storedDevice() selected. When accepted with another device, stores
    /// it and emits deviceChanged(). Deletes itself when closed.
    PreferencesDialog(const std::vector<DeviceOption>& options, QWidget* parent = nullptr);

    /// The key selected now.
    QString device() const;

signals:
    /// The user accepted another device than the stored one (already stored).
    void deviceChanged(const QString& key);
    /// The user accepted another GPU memory budget (already stored).
    void gpuMemoryLimitChanged();

private:
    QComboBox* deviceCombo_ = nullptr;
    QCheckBox* restoreStacks_ = nullptr;
    QComboBox* exportFormat_ = nullptr;
    QSpinBox* gpuMemory_ = nullptr;  ///< MiB; 0: automatic
    EncodeOptionsWidget* encode_ = nullptr;
};

}  // namespace tessera::ui
