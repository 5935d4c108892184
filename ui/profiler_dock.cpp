// SPDX-License-Identifier: Apache-2.0
#include "ui/profiler_dock.h"
#include "ui/file_dialogs.h"

#include "values/timing_stats.h"
#include "ui/timeline_view.h"
#include "ui/timing_format.h"
#include "ui/timing_table.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

namespace tessera::ui {

namespace {

/// A small square of colour for the legend.
QPixmap swatch(const QColor& colour, int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.fillRect(QRect(0, 0, size, size), colour);
    p.setPen(colour.darker(140));
    p.drawRect(QRect(0, 0, size - 1, size - 1));
    return pixmap;
}

QWidget* makeLegend(QWidget* parent)
{
    auto* legend = new QWidget(parent);
    legend->setObjectName(QStringLiteral("phaseLegend"));
    auto* layout = new QHBoxLayout(legend);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    const int size = legend->fontMetrics().height() - 4;
    for (const auto& entry : values::kPhaseNames) {
        const values::Phase phase = entry.first;
        auto* box = new QLabel(legend);
        box->setPixmap(swatch(phaseColor(phase), size));
        layout->addWidget(box);
        auto* text = new QLabel(phaseTitle(phase), legend);
        layout->addWidget(text);
        layout->addSpacing(8);
    }
    return legend;
}

QToolButton* makeButton(QWidget* parent, const QString& text, const QString& name, const QString& tip)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setObjectName(name);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    return button;
}

}  // namespace

ProfilerDock::ProfilerDock(QWidget* parent) : QDockWidget(tr("Profiler"), parent)
{
    setObjectName(QStringLiteral("profilerDock"));
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 2, 4, 4);
    layout->setSpacing(2);
    layout->addWidget(makeToolBar());
    auto* splitter = new QSplitter(Qt::Vertical, body);
    splitter->setObjectName(QStringLiteral("profilerSplitter"));
    timeline_ = new TimelineView(splitter);
    table_ = new TimingTable(splitter);
    splitter->addWidget(timeline_);
    splitter->addWidget(table_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);
    setWidget(body);
    refresh();
}

QWidget* ProfilerDock::makeToolBar()
{
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    titleLabel_ = new QLabel(bar);
    titleLabel_->setObjectName(QStringLiteral("profilerTitle"));
    titleLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(titleLabel_, 1);
    row->addWidget(makeLegend(bar));
    row->addSpacing(8);

    auto* zoomOut =
        makeButton(bar, QStringLiteral("\u2212"), QStringLiteral("timelineZoomOut"), tr("Zoom out (wheel down)"));
    auto* zoomIn = makeButton(bar, QStringLiteral("+"), QStringLiteral("timelineZoomIn"),
                              tr("Zoom in (wheel up over the timeline)"));
    auto* fit = makeButton(bar, tr("Fit"), QStringLiteral("timelineFit"), tr("Show the whole run"));
    connect(zoomOut, &QToolButton::clicked, this, [this] { timeline_->zoomOut(); });
    connect(zoomIn, &QToolButton::clicked, this, [this] { timeline_->zoomIn(); });
    connect(fit, &QToolButton::clicked, this, [this] { timeline_->fit(); });
    for (QToolButton* b : {zoomOut, zoomIn, fit}) {
        row->addWidget(b);
    }

    freezeButton_ = makeButton(bar, tr("Freeze"), QStringLiteral("freezeButton"),
                               tr("Keep this run on screen; new runs are ignored until you follow the latest again"));
    freezeButton_->setCheckable(true);
    connect(freezeButton_, &QToolButton::toggled, this, &ProfilerDock::setFrozen);
    row->addWidget(freezeButton_);

    exportButton_ =
        makeButton(bar, tr("Export"), QStringLiteral("exportButton"), tr("Write the records shown to a file"));
    exportButton_->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(exportButton_);
    for (const ExportFormat format : {ExportFormat::Csv, ExportFormat::Json, ExportFormat::ChromeTrace}) {
        QAction* action = menu->addAction(tr("%1\u2026").arg(formatTitle(format)));
        connect(action, &QAction::triggered, this, [this, format] { chooseExportPath(format); });
    }
    exportButton_->setMenu(menu);
    row->addWidget(exportButton_);
    row->addSpacing(4);
    return bar;
}

QString ProfilerDock::formatTitle(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Csv: return tr("CSV");
    case ExportFormat::Json: return tr("JSON");
    case ExportFormat::ChromeTrace: return tr("Chrome trace");
    }
    return {};
}

void ProfilerDock::setRecords(const std::vector<values::TimingRecord>& records, const QString& title)
{
    if (frozen_) {
        return;
    }
    records_ = records;
    title_ = title;
    timeline_->setRecords(records_);
    refresh();
}

void ProfilerDock::setDevices(const values::DeviceSnapshot& devices)
{
    devices_ = devices;
    timeline_->setDevices(devices_);
    refresh();
}

void ProfilerDock::setFrozen(bool frozen)
{
    if (frozen == frozen_) {
        return;
    }
    frozen_ = frozen;
    freezeButton_->setChecked(frozen);
    freezeButton_->setText(frozen ? tr("Follow latest") : tr("Freeze"));
    refresh();
    emit frozenChanged(frozen);
}

void ProfilerDock::exportTo(ExportFormat format, const QString& path)
{
    if (!path.isEmpty()) {
        emit exportRequested(format, path);
    }
}

void ProfilerDock::chooseExportPath(ExportFormat format)
{
    const QString filter = format == ExportFormat::Csv    ? tr("CSV files (*.csv)")
                           : format == ExportFormat::Json ? tr("JSON files (*.json)")
                                                          : tr("Chrome trace (*.json)");
    const QString name = format == ExportFormat::Csv    ? QStringLiteral("tessera-timing.csv")
                         : format == ExportFormat::Json ? QStringLiteral("tessera-timing.json")
                                                        : QStringLiteral("tessera-trace.json");
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export %1").arg(formatTitle(format)), suggestedSavePath(name), filter);
    if (!path.isEmpty()) {
        rememberFolder(FolderRole::Save, path);
    }
    exportTo(format, path);
}

void ProfilerDock::refresh()
{
    table_->setStats(values::computeTimingStats(records_, devices_), devices_);
    exportButton_->setEnabled(!records_.empty());
    QString text = title_.isEmpty() ? tr("No run yet") : title_;
    if (!records_.empty()) {
        const auto [begin, end] = values::timeSpan(records_);
        text += records_.size() == 1
                    ? tr(" \u00b7 %1 \u00b7 1 record").arg(formatDuration(end - begin))
                    : tr(" \u00b7 %1 \u00b7 %2 records").arg(formatDuration(end - begin)).arg(records_.size());
    }
    if (frozen_) {
        text += tr(" \u00b7 frozen");
    }
    titleLabel_->setText(text);
}

}  // namespace tessera::ui
