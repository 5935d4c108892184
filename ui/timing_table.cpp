// SPDX-License-Identifier: Apache-2.0
#include "ui/timing_table.h"

#include "ui/timing_format.h"

#include <QHeaderView>

#include <limits>

namespace tessera::ui {

namespace {

/// A cell that shows formatted text and sorts by the exact number behind it.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(double value, const QString& text) : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }

    bool operator<(const QTableWidgetItem& other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

QString microseconds(double us)
{
    return QString::number(us, 'f', us >= 1000.0 ? 0 : us >= 10.0 ? 1 : 2);
}

}  // namespace

TimingTable::TimingTable(QWidget* parent) : QTableWidget(0, ColumnCount, parent)
{
    setObjectName(QStringLiteral("timingTable"));
    setHorizontalHeaderLabels({tr("Device"), tr("Phase"), tr("Method / label"), tr("Count"), tr("Min (\u00b5s)"),
                               tr("Median (\u00b5s)"), tr("Max (\u00b5s)"), tr("Mpixel/s"), tr("GB/s"),
                               tr("% of peak BW")});
    horizontalHeaderItem(PeakShare)->setToolTip(tr("GB/s as a share of the device's theoretical DRAM bandwidth"));
    horizontalHeaderItem(MPixels)->setToolTip(tr("Tile pixels per second over the summed durations"));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    setSortingEnabled(true);
    verticalHeader()->setVisible(false);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(Label, QHeaderView::Stretch);
}

void TimingTable::setStats(const std::vector<values::TimingStats>& stats, const values::DeviceSnapshot& devices)
{
    // Sorting while filling would move rows under the loop.
    setSortingEnabled(false);
    clearContents();
    setRowCount(static_cast<int>(stats.size()));
    for (int row = 0; row < rowCount(); ++row) {
        const values::TimingStats& s = stats[static_cast<std::size_t>(row)];
        auto* device = new QTableWidgetItem(QString::fromStdString(values::deviceTitle(s.device, devices)));
        device->setData(Qt::DecorationRole, deviceColor(s.device));
        setItem(row, Device, device);
        auto* phase = new QTableWidgetItem(phaseTitle(s.phase));
        phase->setData(Qt::DecorationRole, phaseColor(s.phase));
        setItem(row, Phase, phase);
        setItem(row, Label, new QTableWidgetItem(QString::fromStdString(s.label)));
        setItem(row, Count, new NumberItem(s.count, QString::number(s.count)));
        setItem(row, Min, new NumberItem(s.minUs, microseconds(s.minUs)));
        setItem(row, Median, new NumberItem(s.medianUs, microseconds(s.medianUs)));
        setItem(row, Max, new NumberItem(s.maxUs, microseconds(s.maxUs)));
        setItem(row, MPixels,
                s.pixels > 0 ? new NumberItem(s.mpixelsPerS, QString::number(s.mpixelsPerS, 'f', 0))
                             : new NumberItem(-1.0, QString()));
        setItem(row, GBs,
                s.bytes > 0 ? new NumberItem(s.gbPerS, QString::number(s.gbPerS, 'f', 1))
                            : new NumberItem(-1.0, QString()));
        setItem(row, PeakShare,
                s.percentOfPeak
                    ? new NumberItem(*s.percentOfPeak, QStringLiteral("%1 %").arg(*s.percentOfPeak, 0, 'f', 1))
                    : new NumberItem(-1.0, QString()));
    }
    // No sort column: the given order stays until the user clicks a header.
    horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    setSortingEnabled(true);
}

double TimingTable::value(int row, Column column) const
{
    const QTableWidgetItem* cell = item(row, column);
    if (cell == nullptr || cell->text().isEmpty() || !cell->data(Qt::UserRole).isValid()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return cell->data(Qt::UserRole).toDouble();
}

}  // namespace tessera::ui
