// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDialog>
#include <QString>

#include <vector>

class QCheckBox;
class QComboBox;

namespace tessera::ui {

/// One place previews can run, as offered in Preferences and the batch dialog: key is the
/// values::DeviceSelection's spelling (values::toString: "auto", "cpu", "gpu:0", "all"), which the
/// settings store; label is what the user reads.
struct DeviceOption {
    QString key;
    QString label;
    bool operator==(const DeviceOption&) const = default;
};

/// Edit > Preferences: where previews run, and whether an image opens with the stack it was left
/// with. Both are kept in QSettings; a stored device key that is not offered any more (a GPU
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

    /// Offers options with storedDevice() selected. When accepted with another device, stores
    /// it and emits deviceChanged(). Deletes itself when closed.
    PreferencesDialog(const std::vector<DeviceOption>& options, QWidget* parent = nullptr);

    /// The key selected now.
    QString device() const;

signals:
    /// The user accepted another device than the stored one (already stored).
    void deviceChanged(const QString& key);

private:
    QComboBox* deviceCombo_ = nullptr;
    QCheckBox* restoreStacks_ = nullptr;
};

}  // namespace tessera::ui
