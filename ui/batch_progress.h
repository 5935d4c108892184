// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QString>
#include <QWidget>

class QLabel;
class QProgressBar;
class QTableWidget;

namespace tessera::ui {

/// One row of the results table.
struct BatchResultRow {
    QString file;
    QString status;  ///< "ok", "skipped", "failed", "cancelled", "refused" (before the run)
    QString device;
    double milliseconds = 0.0;
    QString output;
    QString error;
    QString decoder;  ///< which library read the input (shown in the device cell's tooltip)
};

/// The lower half of the batch dialog: progress of the run and of the current file, elapsed time
/// with an estimate of what is left, the summary line, and the results table (a row per file).
class BatchProgress : public QWidget {
    Q_OBJECT

public:
    explicit BatchProgress(QWidget* parent = nullptr);

    /// A run starts: empties the table and the bars and starts the clock.
    void begin();
    /// Empties the table, the bars and the texts, with no clock running (a refused run).
    void reset();
    /// The run ended: the file bar full, the current file cleared.
    void end();
    /// done of total files finished; fileFraction (0..1) of the current one.
    void setProgress(int done, int total, const QString& currentFile, double fileFraction);
    /// Appends a file's row.
    void addResult(const BatchResultRow& row);
    /// The summary under the bars; after a run also the total time.
    void setSummary(const QString& text, bool running);
    int resultCount() const;

private:
    QProgressBar* overall_ = nullptr;
    QProgressBar* file_ = nullptr;
    QLabel* current_ = nullptr;
    QLabel* timing_ = nullptr;
    QLabel* summary_ = nullptr;
    QTableWidget* results_ = nullptr;
    QElapsedTimer clock_;
};

}  // namespace tessera::ui
