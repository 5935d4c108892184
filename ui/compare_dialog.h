// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "ui/compare_results.h"

#include <QDialog>
#include <QStringList>

class QFormLayout;
class QGroupBox;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace tessera::ui {

class RooflineChart;
class ThroughputChart;

/// Tools > Compare Devices: the user ticks targets (each GPU, all GPUs, the CPU path), sets
/// warm-up and repeat counts and runs; results show as a table, a throughput bar chart, the
/// selected target's error map against the CPU path and a roofline per device. A saved run
/// can be loaded to show beside the current one. Runs nothing and reads no file itself: it
/// emits requests that app/ answers through the setters. GUI thread only.
class CompareDialog : public QDialog {
    Q_OBJECT

public:
    /// An empty dialog; setTargets() offers what can run.
    explicit CompareDialog(QWidget* parent = nullptr);

    /// Offers targets, ticked as given (a target ticked before stays ticked).
    void setTargets(const QVector<tessera::ui::CompareTargetOption>& targets);
    /// Keys of the ticked targets, in the order shown.
    QStringList checkedTargets() const;
    /// Untimed runs per target.
    int warmup() const;
    /// Timed runs per target.
    int repeats() const;
    /// Switches between running (Cancel and progress enabled) and idle.
    void setRunning(bool running);
    /// Progress of a run: done of total runs, target running now.
    void setProgress(int done, int total, const QString& target);
    /// Shows results (table, charts, error map), with loaded beside them when present.
    void setResults(const tessera::ui::CompareResults& results);
    /// Shows loaded results (from a file) beside the current ones; empty results hide them.
    void setLoadedResults(const tessera::ui::CompareResults& loaded);
    /// A line under the controls: why a run stopped, what was saved.
    void setStatus(const QString& text);
    /// The results shown now.
    const CompareResults& results() const { return results_; }
    /// The loaded results shown beside them.
    const CompareResults& loadedResults() const { return loaded_; }

signals:
    /// Run pressed with at least one target ticked.
    void runRequested(const QStringList& keys, int warmup, int repeats);
    /// Cancel pressed during a run.
    void cancelRequested();
    /// Save chose path: app/ writes the current results there.
    void saveRequested(const QString& path);
    /// Load chose path: app/ reads it and answers with setLoadedResults().
    void loadRequested(const QString& path);

private:
    QFormLayout* createCounts();
    void createRunButtons();
    void createFileButtons();
    QGroupBox* createHeatBox();
    QWidget* createControls();
    QWidget* createResults();
    void fillTable();
    /// True when the results hold the CPU path alone (no GPU here), the reference of the rest.
    bool cpuAlone() const;
    void showHeatMap();
    void redrawCharts();
    void updateButtons();

    QListWidget* targets_ = nullptr;
    QSpinBox* warmup_ = nullptr;
    QSpinBox* repeats_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* save_ = nullptr;
    QPushButton* load_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* heatMap_ = nullptr;
    QLabel* heatCaption_ = nullptr;
    ThroughputChart* throughput_ = nullptr;
    RooflineChart* roofline_ = nullptr;
    CompareResults results_;
    CompareResults loaded_;
    bool running_ = false;
};

}  // namespace tessera::ui
