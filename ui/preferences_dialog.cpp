// SPDX-License-Identifier: Apache-2.0
#include "ui/preferences_dialog.h"

#include "ui/encode_options_widget.h"
#include "values/device_selection.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::ui {

namespace {

const QString kDeviceKey = QStringLiteral("engine/device");
const QString kRestoreStacksKey = QStringLiteral("stacks/restore");
const QString kExportFormatKey = QStringLiteral("output/exportFormat");
const QString kGpuMemoryKey = QStringLiteral("engine/gpuMemoryMiB");
constexpr std::size_t kMiB = std::size_t{1} << 20;

QString keyOf(const values::DeviceSelection& selection)
{
    return QString::fromStdString(values::toString(selection));
}

}  // namespace

std::vector<DeviceOption> PreferencesDialog::basicDeviceOptions()
{
    return {{keyOf(values::DeviceSelection::automatic()), tr("Auto (every GPU, else the CPU)")},
            {keyOf(values::DeviceSelection::cpu()), tr("CPU only")}};
}

QString PreferencesDialog::storedDevice()
{
    const QString key = QSettings().value(kDeviceKey).toString();
    return key.isEmpty() ? keyOf(values::DeviceSelection::automatic()) : key;
}

void PreferencesDialog::storeDevice(const QString& key)
{
    QSettings().setValue(kDeviceKey, key);
}

bool PreferencesDialog::restoresStacks()
{
    return QSettings().value(kRestoreStacksKey, true).toBool();
}

void PreferencesDialog::storeRestoresStacks(bool on)
{
    QSettings().setValue(kRestoreStacksKey, on);
}

QString PreferencesDialog::exportFormat()
{
    return QSettings().value(kExportFormatKey).toString();
}

void PreferencesDialog::storeExportFormat(const QString& extension)
{
    QSettings().setValue(kExportFormatKey, extension);
}

std::size_t PreferencesDialog::gpuMemoryLimit()
{
    return static_cast<std::size_t>(std::max(0, QSettings().value(kGpuMemoryKey, 0).toInt())) * kMiB;
}

void PreferencesDialog::storeGpuMemoryLimit(std::size_t bytes)
{
    QSettings().setValue(kGpuMemoryKey, static_cast<int>(bytes / kMiB));
}

PreferencesDialog::PreferencesDialog(const std::vector<DeviceOption>& options, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("preferencesDialog"));
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Preferences"));
    deviceCombo_ = new QComboBox(this);
    deviceCombo_->setObjectName(QStringLiteral("deviceCombo"));
    deviceCombo_->setToolTip(tr("Where previews of the filter stack run"));
    for (const DeviceOption& option : options) {
        deviceCombo_->addItem(option.label, option.key);
    }
    const QString stored = storedDevice();
    if (deviceCombo_->findData(stored) < 0) {
        deviceCombo_->addItem(tr("%1 (not present)").arg(stored), stored);
    }
    deviceCombo_->setCurrentIndex(deviceCombo_->findData(stored));

    auto* note =
        new QLabel(tr("A GPU that is missing or fails falls back to the CPU, and the status bar says so."), this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    restoreStacks_ = new QCheckBox(tr("Open each image with the filter stack it was left with"), this);
    restoreStacks_->setObjectName(QStringLiteral("restoreStacksCheck"));
    restoreStacks_->setToolTip(tr("Off: every image opens with an empty stack (Edit > Paste Stack still carries one "
                                  "over)"));
    restoreStacks_->setChecked(restoresStacks());
    gpuMemory_ = new QSpinBox(this);
    gpuMemory_->setObjectName(QStringLiteral("gpuMemorySpin"));
    gpuMemory_->setRange(0, 1 << 20);
    gpuMemory_->setSingleStep(256);
    gpuMemory_->setSuffix(tr(" MiB"));
    gpuMemory_->setSpecialValueText(tr("Automatic (from free memory)"));
    gpuMemory_->setToolTip(tr("The most memory each GPU may use for previews and batches; larger images go "
                              "through in tiles"));
    gpuMemory_->setValue(static_cast<int>(gpuMemoryLimit() / kMiB));
    exportFormat_ = new QComboBox(this);
    exportFormat_->setObjectName(QStringLiteral("exportFormatCombo"));
    exportFormat_->addItem(tr("Same as the image"), QString());
    for (const char* ext : {"png", "tif", "jpg", "webp"}) {
        exportFormat_->addItem(QString::fromLatin1(ext).toUpper(), QString::fromLatin1(ext));
    }
    exportFormat_->setCurrentIndex(std::max(0, exportFormat_->findData(exportFormat())));
    encode_ = new EncodeOptionsWidget(this);
    encode_->setObjectName(QStringLiteral("preferencesEncoding"));
    encode_->setCompact(true);
    encode_->setOptions(rememberedEncodeOptions());
    connect(this, &QDialog::accepted, this, [this] {
        storeRestoresStacks(restoreStacks_->isChecked());
        storeExportFormat(exportFormat_->currentData().toString());
        rememberEncodeOptions(encode_->options());
        const std::size_t memory = static_cast<std::size_t>(gpuMemory_->value()) * kMiB;
        if (memory != gpuMemoryLimit()) {
            storeGpuMemoryLimit(memory);
            emit gpuMemoryLimitChanged();
        }
        if (device() != storedDevice()) {
            storeDevice(device());
            emit deviceChanged(device());
        }
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout;
    form->addRow(tr("Preview device:"), deviceCombo_);
    form->addRow(tr("GPU memory:"), gpuMemory_);
    form->addRow(tr("Stacks:"), restoreStacks_);
    form->addRow(tr("Export format:"), exportFormat_);
    form->addRow(tr("Quality:"), encode_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
}

QString PreferencesDialog::device() const
{
    return deviceCombo_->currentData().toString();
}

}  // namespace tessera::ui
