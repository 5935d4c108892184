// SPDX-License-Identifier: Apache-2.0
#include "ui/batch_progress.h"

#include "values/batch_rate.h"

#include <QColor>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::ui {

namespace {

QString duration(qint64 ms)
{
    const qint64 s = ms / 1000;
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

BatchProgress::BatchProgress(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* box = new QGroupBox(tr("Progress"), this);
    auto* form = new QFormLayout(box);
    overall_ = new QProgressBar(box);
    overall_->setObjectName(QStringLiteral("batchOverallProgress"));
    overall_->setFormat(tr("%v of %m files"));
    overall_->setValue(0);
    file_ = new QProgressBar(box);
    file_->setObjectName(QStringLiteral("batchFileProgress"));
    file_->setRange(0, 100);
    file_->setValue(0);
    current_ = new QLabel(box);
    current_->setObjectName(QStringLiteral("batchCurrentFile"));
    timing_ = new QLabel(box);
    timing_->setObjectName(QStringLiteral("batchTiming"));
    summary_ = new QLabel(box);
    summary_->setObjectName(QStringLiteral("batchSummary"));
    summary_->setWordWrap(true);
    form->addRow(tr("All files:"), overall_);
    form->addRow(tr("Current file:"), file_);
    form->addRow(QString(), current_);
    form->addRow(tr("Time:"), timing_);
    form->addRow(QString(), summary_);
    layout->addWidget(box);

    results_ = new QTableWidget(0, 6, this);
    results_->setObjectName(QStringLiteral("batchResults"));
    results_->setHorizontalHeaderLabels({tr("File"), tr("Status"), tr("Device"), tr("ms"), tr("Output"), tr("Error")});
    results_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    results_->setSelectionBehavior(QAbstractItemView::SelectRows);
    results_->verticalHeader()->hide();
    results_->verticalHeader()->setDefaultSectionSize(results_->fontMetrics().height() + 6);
    results_->setWordWrap(false);
    results_->horizontalHeader()->setStretchLastSection(true);
    results_->setColumnWidth(0, 160);
    results_->setColumnWidth(1, 70);
    results_->setColumnWidth(2, 70);
    results_->setColumnWidth(3, 60);
    results_->setColumnWidth(4, 180);
    layout->addWidget(results_, 2);
}

void BatchProgress::begin()
{
    reset();
    clock_.start();
}

void BatchProgress::reset()
{
    results_->setRowCount(0);
    overall_->setValue(0);
    file_->setValue(0);
    current_->clear();
    summary_->clear();
    timing_->clear();
    clock_.invalidate();
}

void BatchProgress::end()
{
    file_->setValue(file_->maximum());
    current_->clear();
}

void BatchProgress::setProgress(int done, int total, const QString& currentFile, double fileFraction)
{
    overall_->setRange(0, std::max(total, 1));
    overall_->setValue(done);
    file_->setValue(static_cast<int>(fileFraction * 100.0));
    current_->setText(currentFile);
    const qint64 elapsed = clock_.isValid() ? clock_.elapsed() : 0;
    QString text = tr("%1 elapsed").arg(duration(elapsed));
    const double seconds = static_cast<double>(elapsed) / 1000.0;
    if (const double rate = values::filesPerSecond(done, seconds); rate > 0) {
        text += tr(", %1 files/s").arg(QLocale().toString(rate, 'f', rate < 10 ? 2 : 1));
    }
    if (const std::optional<double> left = values::secondsLeft(done, total, seconds)) {
        text += tr(", about %1 left").arg(duration(static_cast<qint64>(*left * 1000.0)));
    }
    timing_->setText(text);
}

void BatchProgress::addResult(const BatchResultRow& row)
{
    const int r = results_->rowCount();
    results_->insertRow(r);
    // Only an output that exists is shown: a failed file's planned name would mislead.
    const bool written = row.status == QLatin1String("ok") || row.status == QLatin1String("skipped");
    // Names keep the table readable; the full paths are in the tooltips and the CSV.
    const QStringList cells{QFileInfo(row.file).fileName(),
                            row.status,
                            row.device,
                            row.status == QLatin1String("ok") ? QString::number(row.milliseconds, 'f', 2) : QString(),
                            written ? QFileInfo(row.output).fileName() : QString(),
                            row.error};
    const QString deviceTip = row.decoder.isEmpty() ? row.device : tr("%1; read by %2").arg(row.device, row.decoder);
    const QStringList tips{row.file, row.status, deviceTip, cells[3], row.output, row.error};
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        item->setToolTip(tips[c]);
        item->setData(Qt::UserRole, tips[c]);
        if (c == 1 && (row.status == QLatin1String("failed") || row.status == QLatin1String("refused"))) {
            item->setForeground(QColor(0xb0, 0x00, 0x20));
        }
        results_->setItem(r, c, item);
    }
    results_->scrollToBottom();
}

void BatchProgress::setSummary(const QString& text, bool running)
{
    summary_->setText(text);
    if (!running && clock_.isValid()) {
        timing_->setText(tr("%1 in all").arg(duration(clock_.elapsed())));
    }
}

int BatchProgress::resultCount() const
{
    return results_->rowCount();
}

}  // namespace tessera::ui
