// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/gui/background_job.h"
#include "app/compare/compare_json.h"
#include "app/compare/compare_runner.h"
#include "filters/filter_spec.h"
#include "ui/compare_results.h"

#include <opencv2/core/mat.hpp>

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <map>

namespace tessera::ui {
class CompareDialog;
}  // namespace tessera::ui

namespace tessera::app {

/// What a comparison runs on: the devices, their calibrations by key ("gpu:N", "cpu"), and the
/// targets with the functions that run them (the real paths, or fakes in tests).
struct CompareSetup {
    values::DeviceSnapshot snapshot;
    std::map<std::string, values::DeviceCalibration> calibrations;
    std::vector<CompareTarget> targets;
};

/// Connects a CompareDialog to the comparison runner: offers the targets, runs the ticked ones
/// on the current image and chain as a BackgroundJob (the window stays responsive), each target
/// under an exclusive lease of the scheduler (the status says when it waits for a device),
/// passes progress and results back through queued calls, and saves and loads results as JSON.
/// Destroying it cancels a run and waits for it. The dialog and the scheduler must outlive the
/// controller.
class CompareController : public QObject {
    Q_OBJECT

public:
    /// image and chain give the main window's image and enabled filters when a run starts;
    /// setup gives the devices and targets (read again at every refresh()). Throws what setup
    /// throws.
    CompareController(ui::CompareDialog& dialog, DeviceScheduler& scheduler, std::function<cv::Mat()> image,
                      std::function<filters::FilterChain()> chain, std::function<CompareSetup()> setup,
                      QObject* parent = nullptr);
    ~CompareController() override;

    /// Reads the setup again and offers its targets in the dialog.
    void refresh();
    /// True from Run until the results are in the dialog.
    bool isRunning() const { return job_.isRunning(); }
    /// The last finished comparison.
    const CompareReport& lastReport() const { return report_; }
    /// Writes the last comparison with the devices and calibrations to path; the dialog's status
    /// says how it went. Never throws.
    void save(const QString& path);
    /// Reads a saved comparison and shows it beside the current one. Never throws.
    void load(const QString& path);

    /// The dialog's view of report: heat maps as images, roofline per device model with the
    /// ceilings of calibrations; title names the results (bar set, legend).
    static ui::CompareResults toResults(const CompareReport& report, const values::DeviceSnapshot& snapshot,
                                        const std::map<std::string, values::DeviceCalibration>& calibrations,
                                        const QString& title);

signals:
    /// A run finished (completely, cancelled or refused) and the dialog shows it.
    void finished();

private:
    void start(const QStringList& keys, int warmup, int repeats);
    void done(CompareReport report);

    ui::CompareDialog& dialog_;
    DeviceScheduler& scheduler_;
    std::function<cv::Mat()> image_;
    std::function<filters::FilterChain()> chain_;
    std::function<CompareSetup()> setupSource_;
    CompareSetup setup_;
    std::atomic<bool> cancel_{false};
    CompareReport report_;
    BackgroundJob<CompareReport> job_;  // last: it waits for the work, which uses the members above
};

}  // namespace tessera::app
