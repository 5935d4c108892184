// SPDX-License-Identifier: Apache-2.0
#include "app/compare/calibration_cache.h"

#include "app/compare/cpu_calibration.h"
#include "tessera/gpu/engine.h"

#include <QSettings>
#include <QThread>

namespace tessera::app {

namespace {

/// QSettings treats '/' and '\\' as group separators; keys keep them out.
QString settingsKey(const QString& key)
{
    QString safe = key;
    safe.replace(QLatin1Char('/'), QLatin1Char('_')).replace(QLatin1Char('\\'), QLatin1Char('_'));
    return QStringLiteral("calibration/") + safe;
}

}  // namespace

QString CalibrationCache::keyFor(const values::DeviceInfo& device, int driverVersion)
{
    return QStringLiteral("%1|%2|%3")
        .arg(QString::fromStdString(device.name), QString::fromStdString(device.pciBusId))
        .arg(driverVersion);
}

QString CalibrationCache::cpuKey()
{
    return QStringLiteral("cpu|%1|%2").arg(QString::fromStdString(cpuModelName())).arg(QThread::idealThreadCount());
}

std::optional<values::DeviceCalibration> CalibrationCache::cached(const QString& key) const
{
    QSettings settings;
    settings.beginGroup(settingsKey(key));
    if (!settings.contains(QStringLiteral("filterMpixS"))) {
        return std::nullopt;
    }
    values::DeviceCalibration c;
    c.copyGBs = settings.value(QStringLiteral("copyGBs")).toDouble();
    c.fmaGflops = settings.value(QStringLiteral("fmaGflops")).toDouble();
    c.filterMpixS = settings.value(QStringLiteral("filterMpixS")).toDouble();
    c.method = settings.value(QStringLiteral("method")).toString().toStdString();
    return c;
}

void CalibrationCache::store(const QString& key, const values::DeviceCalibration& calibration)
{
    QSettings settings;
    settings.beginGroup(settingsKey(key));
    settings.setValue(QStringLiteral("copyGBs"), calibration.copyGBs);
    settings.setValue(QStringLiteral("fmaGflops"), calibration.fmaGflops);
    settings.setValue(QStringLiteral("filterMpixS"), calibration.filterMpixS);
    settings.setValue(QStringLiteral("method"), QString::fromStdString(calibration.method));
}

void CalibrationCache::remove(const QString& key)
{
    QSettings().remove(settingsKey(key));
}

values::DeviceCalibration CalibrationCache::measureOrCached(const QString& key,
                                                            const std::function<values::DeviceCalibration()>& measure)
{
    if (auto stored = cached(key)) {
        return *stored;
    }
    values::DeviceCalibration fresh = measure();
    store(key, fresh);
    return fresh;
}

}  // namespace tessera::app
