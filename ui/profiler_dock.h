// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_info.h"
#include "values/timing_record.h"

#include <QDockWidget>
#include <QString>

#include <vector>

class QLabel;
class QToolButton;

namespace tessera::ui {

class TimelineView;
class TimingTable;

/// The Profiler dock: a timeline of the last run's timing records (one lane per device and
/// stream, bars coloured by phase, with a legend), a per-kernel table under it, a Freeze toggle
/// and export of the records. It writes no files: export asks with exportRequested() and app/
/// writes records(). GUI thread only.
class ProfilerDock : public QDockWidget {
    Q_OBJECT

public:
    /// The files the records can be exported as.
    enum class ExportFormat { Csv, Json, ChromeTrace };
    Q_ENUM(ExportFormat)

    /// Builds an empty dock.
    explicit ProfilerDock(QWidget* parent = nullptr);

    /// The records shown (those of the last setRecords() while not frozen).
    const std::vector<values::TimingRecord>& records() const { return records_; }
    /// The devices of the last setDevices().
    const values::DeviceSnapshot& devices() const { return devices_; }
    /// The title of the run shown.
    QString title() const { return title_; }
    /// True while new records are ignored.
    bool isFrozen() const { return frozen_; }
    /// The timeline.
    TimelineView* timeline() const { return timeline_; }
    /// The per-kernel table.
    TimingTable* table() const { return table_; }
    /// "CSV", "JSON", "Chrome trace".
    static QString formatTitle(ExportFormat format);

public slots:
    /// Shows a run's records, titled title (e.g. "Gaussian σ 2.0 · 4096 × 4096"); ignored while frozen.
    void setRecords(const std::vector<tessera::values::TimingRecord>& records, const QString& title);
    /// Names the devices in lanes' tooltips and the table, and gives the bandwidth for "% of peak".
    void setDevices(const tessera::values::DeviceSnapshot& devices);
    /// Freezes (keeps the run shown, ignores new records) or follows the latest run again.
    void setFrozen(bool frozen);
    /// Asks for the records to be written to path in format (empty path: nothing happens).
    void exportTo(tessera::ui::ProfilerDock::ExportFormat format, const QString& path);

signals:
    /// The user asked to write records() to path in format.
    void exportRequested(tessera::ui::ProfilerDock::ExportFormat format, const QString& path);
    /// isFrozen() changed.
    void frozenChanged(bool frozen);

private:
    QWidget* makeToolBar();
    void chooseExportPath(ExportFormat format);
    void refresh();

    TimelineView* timeline_ = nullptr;
    TimingTable* table_ = nullptr;
    QLabel* titleLabel_ = nullptr;
    QToolButton* freezeButton_ = nullptr;
    QToolButton* exportButton_ = nullptr;
    std::vector<values::TimingRecord> records_;
    values::DeviceSnapshot devices_;
    QString title_;
    bool frozen_ = false;
};

}  // namespace tessera::ui
