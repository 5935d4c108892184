// SPDX-License-Identifier: Apache-2.0
#include "ui/timing_format.h"
#include "values/device_label.h"

#include <QCoreApplication>

#include <array>
#include <cmath>

namespace tessera::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("tessera::ui::TimingFormat", text);
}

/// Digits after the point so that about three significant digits show.
int decimalsFor(double value)
{
    return value >= 100.0 ? 0 : value >= 10.0 ? 1 : 2;
}

}  // namespace

QColor phaseColor(values::Phase phase)
{
    // Copies in cool colours, compute in a warm one: the eye finds the kernels first.
    switch (phase) {
    case values::Phase::Upload: return QColor(0x4e, 0x79, 0xa7);
    case values::Phase::Kernel: return QColor(0xe8, 0x74, 0x3b);
    case values::Phase::Download: return QColor(0x3f, 0x9e, 0x6f);
    case values::Phase::Host: return QColor(0x93, 0x93, 0x93);
    }
    return QColor(0x93, 0x93, 0x93);
}

QColor deviceColor(values::DeviceId device)
{
    // A palette that stays apart for the common colour-vision deficiencies.
    static const std::array<QColor, 8> palette{
        QColor(0x17, 0xbe, 0xcf), QColor(0xff, 0xb0, 0x00), QColor(0xdc, 0x26, 0x7f), QColor(0x78, 0x5e, 0xf0),
        QColor(0x59, 0xa1, 0x4f), QColor(0xfe, 0x61, 0x00), QColor(0x64, 0x8f, 0xff), QColor(0x9c, 0x75, 0x5f)};
    if (device.isCpu()) {
        return QColor(0xa0, 0xa0, 0xa0);
    }
    return palette[static_cast<std::size_t>(device.value()) % palette.size()];
}

QString phaseTitle(values::Phase phase)
{
    switch (phase) {
    case values::Phase::Upload: return tr("Upload");
    case values::Phase::Kernel: return tr("Kernel");
    case values::Phase::Download: return tr("Download");
    case values::Phase::Host: return tr("Host");
    }
    return tr("Host");
}

QString formatDuration(double us)
{
    const double a = std::abs(us);
    if (a < 1.0) {
        return QStringLiteral("%1 ns").arg(us * 1e3, 0, 'f', 0);
    }
    if (a < 1e3) {
        return QStringLiteral("%1 \u00b5s").arg(us, 0, 'f', decimalsFor(a));
    }
    if (a < 1e6) {
        return QStringLiteral("%1 ms").arg(us / 1e3, 0, 'f', decimalsFor(a / 1e3));
    }
    return QStringLiteral("%1 s").arg(us / 1e6, 0, 'f', 2);
}

QString formatBytes(std::uint64_t bytes)
{
    const double b = static_cast<double>(bytes);
    if (bytes < 1024) {
        return QStringLiteral("%1 B").arg(bytes);
    }
    if (b < 1024.0 * 1024.0) {
        return QStringLiteral("%1 KiB").arg(b / 1024.0, 0, 'f', 1);
    }
    if (b < 1024.0 * 1024.0 * 1024.0) {
        return QStringLiteral("%1 MiB").arg(b / (1024.0 * 1024.0), 0, 'f', 1);
    }
    return QStringLiteral("%1 GiB").arg(b / (1024.0 * 1024.0 * 1024.0), 0, 'f', 2);
}

double niceTickStep(double minUs)
{
    const double decade = std::pow(10.0, std::floor(std::log10(minUs)));
    for (const double m : {1.0, 2.0, 5.0}) {
        if (m * decade >= minUs * (1.0 - 1e-12)) {
            return m * decade;
        }
    }
    return 10.0 * decade;
}

QString formatTick(double us, double stepUs)
{
    // The unit follows the step, not the value, so that every label of a ruler has the same unit.
    const bool ms = stepUs >= 100.0;
    const double value = ms ? us / 1e3 : us;
    const double step = ms ? stepUs / 1e3 : stepUs;
    const int decimals = step >= 1.0 ? 0 : std::min(6, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
    return QStringLiteral("%1 %2")
        .arg(value, 0, 'f', decimals)
        .arg(ms ? QStringLiteral("ms") : QStringLiteral("\u00b5s"));
}

QString describeRecord(const values::TimingRecord& r, const QString& deviceTitle)
{
    QStringList lines;
    const QString what =
        r.label.empty()
            ? phaseTitle(r.phase)
            : QStringLiteral("%1 \u2014 %2").arg(QString::fromStdString(r.label), phaseTitle(r.phase).toLower());
    lines << QStringLiteral("<b>%1</b>").arg(what.toHtmlEscaped());
    QString where = QStringLiteral("%1 \u00b7 %2 %3")
                        .arg(deviceTitle.toHtmlEscaped(), r.device.isCpu() ? tr("thread") : tr("stream"))
                        .arg(r.stream);
    if (r.tile >= 0) {
        where += tr(" \u00b7 tile %1").arg(r.tile);
    }
    lines << where;
    if (r.width > 0 && r.height > 0) {
        lines << tr("Tile x %1, y %2, %3 \u00d7 %4 px").arg(r.x).arg(r.y).arg(r.width).arg(r.height);
    }
    lines << tr("%1 (from %2 to %3)")
                 .arg(formatDuration(r.durationUs()), formatDuration(r.beginUs), formatDuration(r.endUs));
    if (r.bytes > 0) {
        QString moved = formatBytes(r.bytes);
        if (r.durationUs() > 0.0) {
            moved += tr(" \u00b7 %1 GB/s").arg(static_cast<double>(r.bytes) / r.durationUs() / 1e3, 0, 'f', 1);
        }
        lines << moved;
    }
    return lines.join(QStringLiteral("<br>"));
}

QString laneTitle(const values::TimingLane& lane)
{
    // U+00B7 MIDDLE DOT between the device and its stream.
    const QString device = QString::fromStdString(values::deviceLabel(lane.device));
    return lane.device.isCpu() ? tr("%1 \u00b7 thread %2").arg(device).arg(lane.stream)
                               : tr("%1 \u00b7 stream %2").arg(device).arg(lane.stream);
}

}  // namespace tessera::ui
