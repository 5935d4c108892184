// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/gui/background_job.h"
#include "app/batch/batch_job.h"
#include "filters/filter_spec.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>

namespace tessera::ui {
class BatchDialog;
struct BatchRequest;
}  // namespace tessera::ui

namespace tessera::app {

class DeviceScheduler;

/// Connects a BatchDialog to the batch runner: turns the dialog's request into a job, plans it
/// on the GUI thread (refusals show at once), runs it as a BackgroundJob with its files under
/// batch leases of the scheduler (the dialog says when a file waits for a device), and passes
/// progress and results back to the dialog through queued calls. Destroying it cancels a run
/// and waits for it. The dialog and the scheduler must outlive the controller.
class BatchController : public QObject {
    Q_OBJECT

public:
    /// currentChain gives the main window's enabled filters when a run starts. Throws only
    /// std::bad_alloc.
    BatchController(ui::BatchDialog& dialog, DeviceScheduler& scheduler,
                    std::function<filters::FilterChain()> currentChain, QObject* parent = nullptr);
    ~BatchController() override;

    /// Reads the devices and offers them in the dialog; describes the current stack.
    void refresh();
    /// True from Start until the run's results are in the dialog.
    bool isRunning() const { return job_.isRunning(); }
    /// The results of the last finished run.
    const BatchSummary& lastSummary() const { return summary_; }

signals:
    /// A run finished (completely, cancelled or refused); the dialog shows the results.
    void finished();

private:
    void start(const ui::BatchRequest& request);
    void showExample(const ui::BatchRequest& request);
    void saveCsv(const QString& path);
    void done(BatchSummary summary);
    BatchJob jobFor(const ui::BatchRequest& request, bool forExample) const;

    ui::BatchDialog& dialog_;
    DeviceScheduler& scheduler_;
    std::function<filters::FilterChain()> currentChain_;
    std::atomic<bool> cancel_{false};
    BatchSummary summary_;
    BackgroundJob<BatchSummary> job_;  // last: it waits for the work, which uses the members above
};

}  // namespace tessera::app
