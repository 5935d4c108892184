#pragma once

#include "app/batch_job.h"
#include "filters/filter_spec.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <thread>

namespace tessera::ui {
class BatchDialog;
struct BatchRequest;
}

namespace tessera::app {

/// Connects a BatchDialog to the batch runner: turns the dialog's request into a job, plans it
/// on the GUI thread (refusals show at once), runs it on a thread of its own and passes progress
/// and results back to the dialog through queued calls. Destroying it cancels a run and waits
/// for it. The dialog must outlive the controller.
class BatchController : public QObject {
    Q_OBJECT

public:
    /// currentChain gives the main window's enabled filters when a run starts.
    BatchController(ui::BatchDialog& dialog, std::function<filters::FilterChain()> currentChain,
                    QObject* parent = nullptr);
    ~BatchController() override;

    /// Reads the devices and offers them in the dialog; describes the current stack.
    void refresh();
    /// True from Start until the run's results are in the dialog.
    bool isRunning() const { return worker_.joinable(); }
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
    std::function<filters::FilterChain()> currentChain_;
    std::thread worker_;
    std::atomic<bool> cancel_{false};
    BatchSummary summary_;
};

}  // namespace tessera::app
