// SPDX-License-Identifier: Apache-2.0
#include "ui/compare_dialog.h"
#include "ui/screen_fit.h"
#include "ui/file_dialogs.h"

#include "ui/roofline_chart.h"
#include "ui/throughput_chart.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tessera::ui {

namespace {

enum Column { Target, Median, Range, Rate, Speedup, Efficiency, MaxError, Psnr, ColumnCount };

QString number(double v, int decimals)
{
    return QLocale().toString(v, 'f', decimals);
}

/// Milliseconds with three significant digits where runs are short: 0.125, 2.05, 154.3.
QString milliseconds(double v)
{
    return number(v, v < 1.0 ? 3 : v < 10.0 ? 2 : 1);
}

QTableWidgetItem* cell(const QString& text, bool right = true)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (right) {
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    return item;
}

}  // namespace

CompareDialog::CompareDialog(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("compareDialog"));
    setWindowTitle(tr("Compare Devices"));

    QWidget* left = createControls();
    QWidget* right = createResults();

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(left);
    layout->addWidget(right, 1);
    resize(fittedSize(QSize(1280, 800), availableArea(parentWidget())));
    redrawCharts();
    setRunning(false);
}

QFormLayout* CompareDialog::createCounts()
{
    targets_ = new QListWidget(this);
    targets_->setObjectName(QStringLiteral("compareTargets"));
    targets_->setToolTip(tr("Each GPU alone, all GPUs together, and the CPU path"));
    connect(targets_, &QListWidget::itemChanged, this, &CompareDialog::updateButtons);
    warmup_ = new QSpinBox(this);
    warmup_->setObjectName(QStringLiteral("compareWarmup"));
    warmup_->setRange(0, 100);
    warmup_->setValue(1);
    warmup_->setToolTip(tr("Untimed runs first: device start-up, plan and buffer set-up"));
    repeats_ = new QSpinBox(this);
    repeats_->setObjectName(QStringLiteral("compareRepeats"));
    repeats_->setRange(1, 1000);
    repeats_->setValue(5);
    auto* counts = new QFormLayout;
    counts->addRow(tr("Warm-up runs:"), warmup_);
    counts->addRow(tr("Timed runs:"), repeats_);
    return counts;
}

void CompareDialog::createRunButtons()
{
    run_ = new QPushButton(tr("Run"), this);
    run_->setObjectName(QStringLiteral("compareRun"));
    run_->setDefault(true);
    connect(run_, &QPushButton::clicked, this, [this] {
        if (!checkedTargets().isEmpty()) {
            emit runRequested(checkedTargets(), warmup(), repeats());
        }
    });
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("compareCancel"));
    connect(cancel_, &QPushButton::clicked, this, &CompareDialog::cancelRequested);
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("compareProgress"));
    progress_->setRange(0, 1);
    progress_->setValue(0);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("compareStatus"));
    status_->setWordWrap(true);
}

void CompareDialog::createFileButtons()
{
    save_ = new QPushButton(tr("Save\u2026"), this);
    save_->setObjectName(QStringLiteral("compareSave"));
    save_->setToolTip(tr("Write these results, the devices and their calibration as JSON"));
    connect(save_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save Comparison"), suggestedSavePath(QStringLiteral("comparison.json")), tr("JSON (*.json)"));
        if (!path.isEmpty()) {
            rememberFolder(FolderRole::Save, path);
            emit saveRequested(path);
        }
    });
    load_ = new QPushButton(tr("Load\u2026"), this);
    load_->setObjectName(QStringLiteral("compareLoad"));
    load_->setToolTip(tr("Show a saved comparison (from this or another machine) beside these results"));
    connect(load_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Load Comparison"), lastFolder(FolderRole::Save),
                                                          tr("JSON (*.json)"));
        if (!path.isEmpty()) {
            emit loadRequested(path);
        }
    });
}

QGroupBox* CompareDialog::createHeatBox()
{
    heatMap_ = new QLabel(this);
    heatMap_->setObjectName(QStringLiteral("compareHeatMap"));
    heatMap_->setAlignment(Qt::AlignCenter);
    heatMap_->setMinimumSize(220, 160);
    heatMap_->setFrameShape(QFrame::StyledPanel);
    heatCaption_ = new QLabel(tr("Select a target in the table to see where it differs from the CPU path."), this);
    heatCaption_->setObjectName(QStringLiteral("compareHeatCaption"));
    heatCaption_->setWordWrap(true);
    auto* heatBox = new QGroupBox(tr("Difference from the CPU path"), this);
    auto* heatLayout = new QVBoxLayout(heatBox);
    heatLayout->addWidget(heatMap_, 1);
    heatLayout->addWidget(heatCaption_);
    return heatBox;
}

QWidget* CompareDialog::createControls()
{
    QFormLayout* counts = createCounts();
    createRunButtons();
    createFileButtons();
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(run_);
    runRow->addWidget(cancel_);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(save_);
    fileRow->addWidget(load_);
    QGroupBox* heatBox = createHeatBox();

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("Targets:"), left));
    leftLayout->addWidget(targets_, 1);
    leftLayout->addLayout(counts);
    leftLayout->addLayout(runRow);
    leftLayout->addWidget(progress_);
    leftLayout->addWidget(status_);
    leftLayout->addLayout(fileRow);
    leftLayout->addWidget(heatBox, 2);
    left->setMinimumWidth(240);
    left->setMaximumWidth(320);
    return left;
}

QWidget* CompareDialog::createResults()
{
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setObjectName(QStringLiteral("compareTable"));
    table_->setHorizontalHeaderLabels({tr("Target"), tr("Median ms"), tr("Min\u2013max ms"), tr("Mpixel/s"),
                                       tr("Speed-up"), tr("Efficiency"), tr("Max error"), tr("PSNR dB")});
    table_->horizontalHeaderItem(Speedup)->setToolTip(
        tr("Against the fastest single GPU (the CPU path when none ran)"));
    table_->horizontalHeaderItem(Efficiency)->setToolTip(tr("Speed-up per GPU: 100 % is perfect scaling"));
    table_->horizontalHeaderItem(MaxError)->setToolTip(tr("Largest difference from the CPU path's output"));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->horizontalHeader()->setSectionResizeMode(Target, QHeaderView::Stretch);
    for (int c = Median; c < ColumnCount; ++c) {
        table_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    }
    connect(table_, &QTableWidget::itemSelectionChanged, this, &CompareDialog::showHeatMap);

    throughput_ = new ThroughputChart(this);
    throughput_->setObjectName(QStringLiteral("compareThroughputChart"));
    roofline_ = new RooflineChart(this);
    roofline_->setObjectName(QStringLiteral("compareRooflineChart"));
    auto* charts = new QSplitter(Qt::Horizontal, this);
    charts->addWidget(throughput_);
    charts->addWidget(roofline_);
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(table_);
    right->addWidget(charts);
    right->setStretchFactor(0, 2);
    right->setStretchFactor(1, 3);
    right->setSizes({230, 520});
    return right;
}

void CompareDialog::setTargets(const QVector<CompareTargetOption>& targets)
{
    const QStringList before = checkedTargets();
    const bool had = targets_->count() > 0;
    const QSignalBlocker block(targets_);
    targets_->clear();
    for (const CompareTargetOption& t : targets) {
        auto* item = new QListWidgetItem(t.label, targets_);
        item->setData(Qt::UserRole, t.key);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        const bool on = had ? before.contains(t.key) : t.checked;
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    updateButtons();
}

QStringList CompareDialog::checkedTargets() const
{
    QStringList keys;
    for (int i = 0; i < targets_->count(); ++i) {
        if (targets_->item(i)->checkState() == Qt::Checked) {
            keys << targets_->item(i)->data(Qt::UserRole).toString();
        }
    }
    return keys;
}

int CompareDialog::warmup() const
{
    return warmup_->value();
}

int CompareDialog::repeats() const
{
    return repeats_->value();
}

void CompareDialog::setRunning(bool running)
{
    running_ = running;
    if (running) {
        progress_->setValue(0);
        status_->clear();
    }
    updateButtons();
}

void CompareDialog::updateButtons()
{
    run_->setEnabled(!running_ && !checkedTargets().isEmpty());
    cancel_->setEnabled(running_);
    targets_->setEnabled(!running_);
    warmup_->setEnabled(!running_);
    repeats_->setEnabled(!running_);
    save_->setEnabled(!running_ && !results_.isEmpty());
    load_->setEnabled(!running_);
}

void CompareDialog::setProgress(int done, int total, const QString& target)
{
    progress_->setRange(0, std::max(total, 1));
    progress_->setValue(done);
    progress_->setFormat(target.isEmpty() ? QStringLiteral("%v / %m") : QStringLiteral("%1: %v / %m").arg(target));
}

void CompareDialog::setStatus(const QString& text)
{
    status_->setText(text);
}

void CompareDialog::setResults(const CompareResults& results)
{
    results_ = results;
    fillTable();
    redrawCharts();
    updateButtons();
    if (table_->rowCount() > 0) {
        table_->selectRow(0);
    }
}

void CompareDialog::setLoadedResults(const CompareResults& loaded)
{
    loaded_ = loaded;
    redrawCharts();
}

bool CompareDialog::cpuAlone() const
{
    return !results_.rows.isEmpty() &&
           std::none_of(results_.rows.begin(), results_.rows.end(), [](const CompareRow& r) { return r.gpuCount > 0; });
}

void CompareDialog::fillTable()
{
    table_->clearContents();
    table_->setRowCount(static_cast<int>(results_.rows.size()));
    for (int i = 0; i < results_.rows.size(); ++i) {
        const CompareRow& r = results_.rows[i];
        table_->setItem(i, Target, cell(r.label, false));
        if (!r.error.isEmpty()) {
            auto* failed = cell(tr("failed: %1").arg(r.error), false);
            failed->setToolTip(r.error);
            table_->setItem(i, Median, failed);
            table_->setSpan(i, Median, 1, ColumnCount - Median);
            continue;
        }
        table_->setItem(i, Median, cell(milliseconds(r.medianMs)));
        table_->setItem(i, Range, cell(QStringLiteral("%1\u2013%2").arg(milliseconds(r.minMs), milliseconds(r.maxMs))));
        table_->setItem(i, Rate, cell(number(r.mpixS, 1)));
        table_->setItem(i, Speedup,
                        cell(r.speedup > 0.0 ? QStringLiteral("%1\u00d7").arg(number(r.speedup, 2)) : tr("\u2013")));
        table_->setItem(
            i, Efficiency,
            cell(r.efficiency > 0.0 ? QStringLiteral("%1 %").arg(number(r.efficiency * 100, 0)) : tr("\u2013")));
        if (cpuAlone()) {
            // The CPU path is the reference itself: against itself it would read 1x and exact.
            table_->setItem(i, Speedup, cell(tr("\u2013")));
            table_->setItem(i, MaxError, cell(tr("reference")));
            table_->setItem(i, Psnr, cell(tr("reference")));
            continue;
        }
        table_->setItem(i, MaxError, cell(number(r.maxError, r.maxError == std::floor(r.maxError) ? 0 : 4)));
        table_->setItem(i, Psnr, cell(std::isfinite(r.psnr) ? number(r.psnr, 1) : tr("exact")));
    }
}

void CompareDialog::showHeatMap()
{
    const auto rows = table_->selectionModel()->selectedRows();
    const int row = rows.isEmpty() ? -1 : rows.front().row();
    if (row < 0 || row >= results_.rows.size()) {
        heatMap_->clear();
        return;
    }
    const CompareRow& r = results_.rows[row];
    if (cpuAlone()) {
        heatMap_->clear();
        heatCaption_->setText(tr("No GPU on this machine: the CPU path was timed alone. It is the reference that "
                                 "GPUs are compared with, so there is no difference or speed-up to show."));
        return;
    }
    if (r.heatMap.isNull()) {
        heatMap_->clear();
        heatCaption_->setText(r.error.isEmpty()
                                  ? tr("%1: no error map (loaded results keep numbers only).").arg(r.label)
                                  : tr("%1 failed: %2").arg(r.label, r.error));
        return;
    }
    heatMap_->setPixmap(QPixmap::fromImage(
        r.heatMap.scaled(heatMap_->size() - QSize(4, 4), Qt::KeepAspectRatio, Qt::SmoothTransformation)));
    heatCaption_->setText(
        r.maxError > 0.0
            ? tr("%1: dark where equal to the CPU path, through green and yellow to red at the largest error, %2.")
                  .arg(r.label, number(r.maxError, r.maxError == std::floor(r.maxError) ? 0 : 4))
            : tr("%1: identical to the CPU path everywhere.").arg(r.label));
}

void CompareDialog::redrawCharts()
{
    throughput_->setResults(results_, loaded_);
    roofline_->setResults(results_);
}

}  // namespace tessera::ui
