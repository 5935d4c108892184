// SPDX-License-Identifier: Apache-2.0
#include "ui/device_panel.h"

#include "values/device_label.h"
#include "values/device_selection.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QGridLayout>
#include <QSysInfo>
#include <QTimer>
#include <QSignalBlocker>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::ui {

namespace {

const QString kDisabledKey = QStringLiteral("devices/disabled");

/// "gpu0" for "gpu:0": object names without punctuation.
QString nameOf(const QString& key)
{
    return QString(key).remove(QLatin1Char(':'));
}

/// CUDA's 13000 as "13.0"; 0 (not installed) as "none".
QString cudaVersion(int version)
{
    return version <= 0 ? DevicePanel::tr("none")
                        : QStringLiteral("%1.%2").arg(version / 1000).arg((version % 1000) / 10);
}

QString bytes(std::uint64_t count)
{
    return QLocale().formattedDataSize(static_cast<qint64>(count), 1);
}

QString gigahertz(int kiloHertz)
{
    return kiloHertz <= 0 ? DevicePanel::tr("unknown") : DevicePanel::tr("%1 GHz").arg(kiloHertz / 1e6, 0, 'f', 2);
}

/// The GPUs device can read from, e.g. "GPU 1, GPU 3", or "none".
QString peers(const values::DeviceInfo& device, const values::DeviceSnapshot& snapshot)
{
    QStringList names;
    for (std::size_t j = 0; j < device.peerAccess.size(); ++j) {
        const values::DeviceId id =
            j < snapshot.devices.size() ? snapshot.devices[j].id : values::DeviceId{static_cast<int>(j)};
        if (device.peerAccess[j] && id != device.id) {
            names << QString::fromStdString(values::deviceLabel(id));
        }
    }
    return names.isEmpty() ? DevicePanel::tr("none") : names.join(QStringLiteral(", "));
}

/// A selectable value label named prefix_field, added to form under title.
QLabel* addValue(QFormLayout* form, const QString& prefix, const char* field, const QString& title,
                 const QString& value)
{
    auto* label = new QLabel(value);
    label->setObjectName(QStringLiteral("%1_%2").arg(prefix, QLatin1String(field)));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    form->addRow(title, label);
    return label;
}

/// "copy 3,900 GB/s · FMA 60,000 GFLOP/s · filter 9,000 Mpixel/s", or "not measured".
QString calibrationText(const values::DeviceCalibration& c)
{
    if (!c.measured()) {
        return DevicePanel::tr("not measured");
    }
    const QLocale locale;
    return DevicePanel::tr("copy %1 GB/s\nFMA %2 GFLOP/s\nfilter %3 Mpixel/s")
        .arg(locale.toString(c.copyGBs, 'f', 0), locale.toString(c.fmaGflops, 'f', 0),
             locale.toString(c.filterMpixS, 'f', 0));
}

}  // namespace

DevicePanel::DevicePanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("devicePanel"));
    versions_ = new QLabel(this);
    versions_->setObjectName(QStringLiteral("deviceVersions"));
    versions_->setWordWrap(true);
    auto* refresh = new QPushButton(tr("Refresh"), this);
    refresh->setObjectName(QStringLiteral("deviceRefresh"));
    refresh->setToolTip(tr("Read the devices again (free memory changes as work runs)"));
    connect(refresh, &QPushButton::clicked, this, &DevicePanel::refreshRequested);
    auto* top = new QHBoxLayout;
    top->addWidget(versions_, 1);
    top->addWidget(refresh);

    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("deviceScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    content_ = new QWidget;
    sections_ = new QVBoxLayout(content_);
    scroll->setWidget(content_);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(scroll, 1);
    // Free memory moves as work runs: while the panel is on screen, ask for it every second.
    timer_ = new QTimer(this);
    timer_->setObjectName(QStringLiteral("deviceRefreshTimer"));
    connect(timer_, &QTimer::timeout, this, &DevicePanel::refreshRequested);
    cpuName_ = QSysInfo::currentCpuArchitecture();
    rebuild(values::DeviceSnapshot{});
}

int DevicePanel::refreshInterval() const
{
    return interval_;
}

void DevicePanel::setRefreshInterval(int milliseconds)
{
    interval_ = std::max(milliseconds, 0);
    timer_->stop();
    if (interval_ > 0 && isVisible()) {
        timer_->start(interval_);
    }
}

void DevicePanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (interval_ > 0) {
        timer_->start(interval_);
    }
}

void DevicePanel::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    timer_->stop();
}

QStringList DevicePanel::storedDisabled()
{
    return QSettings().value(kDisabledKey).toStringList();
}

QStringList DevicePanel::enabledDevices() const
{
    QStringList keys;
    for (const auto& [key, check] : checks_) {
        if (check->isChecked()) {
            keys << key;
        }
    }
    return keys;
}

void DevicePanel::setSnapshot(const values::DeviceSnapshot& snapshot)
{
    if (sameDevices(snapshot)) {
        updateValues(snapshot);
    } else {
        rebuild(snapshot);
    }
    shown_ = snapshot;
}

bool DevicePanel::sameDevices(const values::DeviceSnapshot& snapshot) const
{
    if (snapshot.devices.size() != shown_.devices.size() || snapshot.reason != shown_.reason ||
        snapshot.driverVersion != shown_.driverVersion || snapshot.fft != shown_.fft || checks_.empty()) {
        return false;
    }
    for (std::size_t i = 0; i < snapshot.devices.size(); ++i) {
        const auto& a = snapshot.devices[i];
        const auto& b = shown_.devices[i];
        if (a.id != b.id || a.name != b.name || a.pciBusId != b.pciBusId || a.peerAccess != b.peerAccess) {
            return false;
        }
    }
    return true;
}

void DevicePanel::updateValues(const values::DeviceSnapshot& snapshot)
{
    for (const values::DeviceInfo& device : snapshot.devices) {
        auto* memory = content_->findChild<QLabel*>(QStringLiteral("gpu%1_memory").arg(device.id.value()));
        if (memory != nullptr) {
            memory->setText(tr("%1 free of %2").arg(bytes(device.memoryFree), bytes(device.memoryTotal)));
        }
        auto* clocks = content_->findChild<QLabel*>(QStringLiteral("gpu%1_clocks").arg(device.id.value()));
        if (clocks != nullptr) {
            clocks->setText(tr("SM %1, memory %2").arg(gigahertz(device.clockKHz), gigahertz(device.memoryClockKHz)));
        }
    }
}

void DevicePanel::setCalibration(const QString& key, const values::DeviceCalibration& calibration)
{
    calibrations_[key] = calibration;
    calibrationErrors_.remove(key);
    showCalibration(key);
}

void DevicePanel::setMeasuring(const QString& key, bool measuring, const QString& error)
{
    measuring_.removeAll(key);
    if (measuring) {
        measuring_ << key;
    }
    if (!error.isEmpty()) {
        calibrationErrors_[key] = error;
    }
    showCalibration(key);
}

void DevicePanel::setCpuName(const QString& name)
{
    cpuName_ = name;
    if (auto* label = content_->findChild<QLabel*>(QStringLiteral("cpu_model"))) {
        label->setText(name);
    }
}

void DevicePanel::showCalibration(const QString& key)
{
    const QString prefix = nameOf(key);
    auto* label = content_->findChild<QLabel*>(QStringLiteral("%1_calibration").arg(prefix));
    auto* button = content_->findChild<QPushButton*>(QStringLiteral("%1_measure").arg(prefix));
    if (label == nullptr || button == nullptr) {
        return;
    }
    const bool busy = measuring_.contains(key);
    QString text = busy ? tr("measuring\u2026") : calibrationText(calibrations_.value(key));
    if (!busy && calibrationErrors_.contains(key)) {
        text = tr("measurement failed: %1").arg(calibrationErrors_.value(key));
    }
    label->setText(text);
    label->setToolTip(QString::fromStdString(calibrations_.value(key).method));
    button->setEnabled(!busy);
    button->setText(calibrations_.value(key).measured() ? tr("Measure again") : tr("Measure"));
}

void DevicePanel::addCalibrationRow(QFormLayout* form, const QString& key, QWidget* parent)
{
    const QString prefix = nameOf(key);
    // Three short lines, held open from the start: the form keeps a row's first height when
    // its label's text grows later (a measurement), which clipped the figures.
    QLabel* figures = addValue(form, prefix, "calibration", tr("Measured:"), QString());
    figures->setWordWrap(false);
    figures->setMinimumHeight(3 * figures->fontMetrics().lineSpacing() + 2);
    auto* measure = new QPushButton(tr("Measure"), parent);
    measure->setObjectName(QStringLiteral("%1_measure").arg(prefix));
    measure->setToolTip(tr("Time a copy, an FMA loop and a 15 \u00d7 15 Gaussian on this device (under a second)"));
    connect(measure, &QPushButton::clicked, this, [this, key] { emit measureRequested(key); });
    form->addRow(QString(), measure);
}

QWidget* DevicePanel::peerSection(const values::DeviceSnapshot& snapshot)
{
    auto* box = new QGroupBox(tr("Peer access (row reads column)"), content_);
    box->setObjectName(QStringLiteral("devicePeers"));
    auto* grid = new QGridLayout(box);
    grid->setHorizontalSpacing(12);
    const auto& devices = snapshot.devices;
    for (std::size_t j = 0; j < devices.size(); ++j) {
        auto* head = new QLabel(QString::fromStdString(values::deviceLabel(devices[j].id)), box);
        head->setAlignment(Qt::AlignCenter);
        grid->addWidget(head, 0, static_cast<int>(j) + 1);
    }
    for (std::size_t i = 0; i < devices.size(); ++i) {
        grid->addWidget(new QLabel(QString::fromStdString(values::deviceLabel(devices[i].id)), box),
                        static_cast<int>(i) + 1, 0);
        for (std::size_t j = 0; j < devices.size(); ++j) {
            const bool self = i == j;
            const bool peer = j < devices[i].peerAccess.size() && devices[i].peerAccess[j];
            auto* mark = new QLabel(self   ? QStringLiteral("\u00b7")
                                    : peer ? QStringLiteral("\u2713")
                                           : QStringLiteral("\u2013"),
                                    box);
            mark->setObjectName(QStringLiteral("peer_%1_%2").arg(devices[i].id.value()).arg(devices[j].id.value()));
            mark->setAlignment(Qt::AlignCenter);
            mark->setToolTip(self   ? tr("the same GPU")
                             : peer ? tr("%1 can read %2's memory directly")
                                          .arg(QString::fromStdString(values::deviceLabel(devices[i].id)),
                                               QString::fromStdString(values::deviceLabel(devices[j].id)))
                                    : tr("copies between %1 and %2 go through the host")
                                          .arg(QString::fromStdString(values::deviceLabel(devices[i].id)),
                                               QString::fromStdString(values::deviceLabel(devices[j].id))));
            grid->addWidget(mark, static_cast<int>(i) + 1, static_cast<int>(j) + 1);
        }
    }
    grid->setColumnStretch(static_cast<int>(devices.size()) + 1, 1);
    return box;
}

void DevicePanel::rebuild(const values::DeviceSnapshot& snapshot)
{
    checks_.clear();
    while (QLayoutItem* item = sections_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    versions_->setText(tr("CUDA driver %1, runtime %2")
                           .arg(cudaVersion(snapshot.driverVersion), cudaVersion(snapshot.runtimeVersion)));
    if (!snapshot.hasGpu()) {
        QString reason =
            snapshot.reason.empty() ? tr("no CUDA device was read yet") : QString::fromStdString(snapshot.reason);
        if (reason.endsWith(QLatin1Char('.'))) {
            reason.chop(1);
        }
        auto* label = new QLabel(tr("No GPU: %1. Previews run on the CPU path.").arg(reason), content_);
        label->setObjectName(QStringLiteral("deviceReason"));
        label->setWordWrap(true);
        sections_->addWidget(label);
    }
    if (!snapshot.fft.empty()) {
        auto* fft = new QLabel(QString::fromStdString(snapshot.fft), content_);
        fft->setObjectName(QStringLiteral("deviceFft"));
        fft->setWordWrap(true);
        fft->setTextInteractionFlags(Qt::TextSelectableByMouse);
        sections_->addWidget(fft);
    }
    for (const values::DeviceInfo& device : snapshot.devices) {
        sections_->addWidget(gpuSection(device, snapshot));
    }
    if (snapshot.devices.size() > 1) {
        sections_->addWidget(peerSection(snapshot));
    }
    sections_->addWidget(cpuSection(snapshot.hasGpu()));
    for (const auto& [key, check] : checks_) {
        showCalibration(key);
    }
    sections_->addStretch(1);
    // A device list with none enabled would leave previews nowhere to run.
    if (enabledDevices().isEmpty() && !checks_.empty()) {
        const QSignalBlocker block(checks_.back().second);
        checks_.back().second->setChecked(true);
    }
    lockLastDevice();
}

QCheckBox* DevicePanel::deviceCheck(const QString& key, QWidget* parent)
{
    auto* check = new QCheckBox(tr("Use for previews"), parent);
    check->setObjectName(QStringLiteral("deviceCheck_%1").arg(nameOf(key)));
    check->setChecked(!storedDisabled().contains(key));
    connect(check, &QCheckBox::toggled, this, [this, key](bool on) { deviceToggled(key, on); });
    checks_.emplace_back(key, check);
    return check;
}

QWidget* DevicePanel::gpuSection(const values::DeviceInfo& device, const values::DeviceSnapshot& snapshot)
{
    // A device's key is its selection's spelling, as Preferences and the settings write it.
    const QString key = QString::fromStdString(values::toString(values::DeviceSelection::gpu(device.id)));
    const QString prefix = nameOf(key);
    auto* box =
        new QGroupBox(QString::fromStdString(values::deviceLabel(device, values::LabelForm::Listing)), content_);
    box->setObjectName(QStringLiteral("deviceSection_%1").arg(prefix));
    auto* form = new QFormLayout(box);
    form->addRow(deviceCheck(key, box));
    addValue(form, prefix, "capability", tr("Compute capability:"),
             QStringLiteral("%1.%2").arg(device.ccMajor).arg(device.ccMinor));
    addValue(form, prefix, "sms", tr("SMs:"), QString::number(device.smCount));
    addValue(form, prefix, "clocks", tr("Clocks:"),
             tr("SM %1, memory %2").arg(gigahertz(device.clockKHz), gigahertz(device.memoryClockKHz)));
    addValue(form, prefix, "memory", tr("Memory:"),
             tr("%1 free of %2").arg(bytes(device.memoryFree), bytes(device.memoryTotal)));
    addValue(form, prefix, "l2", tr("L2 cache:"), bytes(static_cast<std::uint64_t>(std::max(device.l2CacheBytes, 0))));
    addValue(form, prefix, "shared", tr("Shared memory:"),
             tr("%1 per block (%2 opt-in)").arg(bytes(device.sharedMemPerBlock), bytes(device.sharedMemPerBlockOptin)));
    addValue(form, prefix, "pci", tr("PCI bus:"), QString::fromStdString(device.pciBusId));
    addValue(form, prefix, "peers", tr("Peer access:"), peers(device, snapshot));
    addCalibrationRow(form, key, box);
    return box;
}

QWidget* DevicePanel::cpuSection(bool hasGpu)
{
    const QString key = QString::fromStdString(values::toString(values::DeviceSelection::cpu()));
    auto* box = new QGroupBox(QString::fromStdString(values::deviceLabel(values::DeviceId::cpu())), content_);
    box->setObjectName(QStringLiteral("deviceSection_cpu"));
    auto* form = new QFormLayout(box);
    form->addRow(deviceCheck(key, box));
    addValue(form, key, "path", tr("Path:"),
             hasGpu ? tr("OpenCV CPU path (where no enabled GPU is left, or a GPU fails)")
                    : tr("OpenCV CPU path (in use)"));
    addValue(form, key, "model", tr("Model:"), cpuName_);
    addValue(form, key, "threads", tr("Threads:"), QString::number(QThread::idealThreadCount()));
    addCalibrationRow(form, key, box);
    return box;
}

void DevicePanel::deviceToggled(const QString& key, bool enabled)
{
    QStringList disabled = storedDisabled();
    disabled.removeAll(key);
    if (!enabled) {
        disabled << key;
    }
    QSettings().setValue(kDisabledKey, disabled);
    lockLastDevice();
    emit enabledDevicesChanged(enabledDevices());
}

void DevicePanel::lockLastDevice()
{
    const bool last = enabledDevices().size() == 1;
    for (const auto& [key, check] : checks_) {
        const bool locked = last && check->isChecked();
        check->setEnabled(!locked);
        check->setToolTip(locked ? tr("The last enabled device stays enabled") : tr("Allow previews on this device"));
    }
}

}  // namespace tessera::ui
