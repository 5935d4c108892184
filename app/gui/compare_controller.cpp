// SPDX-License-Identifier: Apache-2.0
#include "app/gui/compare_controller.h"

#include "app/compare/cpu_calibration.h"
#include "tessera/gpu/engine.h"
#include "ui/compare_dialog.h"
#include "values/device_label.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QSysInfo>

#include <algorithm>
#include <set>

namespace tessera::app {

namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

QImage toImage(const cv::Mat& bgr)
{
    if (bgr.empty() || bgr.type() != CV_8UC3) {
        return {};
    }
    return QImage(bgr.data, bgr.cols, bgr.rows, static_cast<qsizetype>(bgr.step), QImage::Format_BGR888).copy();
}

std::string deviceKey(values::DeviceId device)
{
    return values::deviceLabel(device, nullptr, values::LabelForm::Key);
}

std::string deviceModel(const values::DeviceSnapshot& snapshot, values::DeviceId device)
{
    return values::deviceLabel(device, &snapshot, values::LabelForm::Model);
}

}  // namespace

CompareController::CompareController(ui::CompareDialog& dialog, DeviceScheduler& scheduler,
                                     std::function<cv::Mat()> image, std::function<filters::FilterChain()> chain,
                                     std::function<CompareSetup()> setup, QObject* parent)
    : QObject(parent), dialog_(dialog), scheduler_(scheduler), image_(std::move(image)), chain_(std::move(chain)),
      setupSource_(std::move(setup))
{
    connect(&dialog_, &ui::CompareDialog::runRequested, this, &CompareController::start);
    connect(&dialog_, &ui::CompareDialog::cancelRequested, this, [this] { cancel_ = true; });
    connect(&dialog_, &ui::CompareDialog::saveRequested, this, &CompareController::save);
    connect(&dialog_, &ui::CompareDialog::loadRequested, this, &CompareController::load);
    refresh();
}

CompareController::~CompareController()
{
    cancel_ = true;
    job_.wait();
}

void CompareController::refresh()
{
    setup_ = setupSource_();
    QVector<ui::CompareTargetOption> options;
    for (const CompareTarget& t : setup_.targets) {
        options.push_back({qs(t.key), qs(t.label), true});
    }
    dialog_.setTargets(options);
}

void CompareController::start(const QStringList& keys, int warmup, int repeats)
{
    if (job_.isRunning()) {
        return;
    }
    const cv::Mat image = image_();
    filters::FilterChain chain;
    try {
        chain = chain_();
    } catch (const std::exception& e) {
        dialog_.setStatus(tr("Not started: %1").arg(qs(e.what())));
        emit finished();
        return;
    }
    if (image.empty() || chain.steps.empty()) {
        dialog_.setStatus(image.empty() ? tr("Not started: open an image first.")
                                        : tr("Not started: enable a filter in the stack first."));
        emit finished();
        return;
    }
    // Fresh targets for every run: a GPU target keeps its executor (streams, pinned buffers)
    // only while the worker holds it, so nothing stays allocated between comparisons.
    CompareSetup fresh = setupSource_();
    std::vector<CompareTarget> chosen;
    for (CompareTarget& t : fresh.targets) {
        if (keys.contains(qs(t.key))) {
            chosen.push_back(std::move(t));
        }
    }
    setup_.snapshot = std::move(fresh.snapshot);
    setup_.calibrations = std::move(fresh.calibrations);
    cancel_ = false;
    dialog_.setRunning(true);
    dialog_.setProgress(0, (std::max(warmup, 0) + std::max(repeats, 1)) * static_cast<int>(chosen.size()), QString());
    job_.start(
        [this, image, chain = std::move(chain), chosen = std::move(chosen), warmup, repeats] {
            CompareOptions options;
            options.warmup = warmup;
            options.repeats = repeats;
            options.cancel = &cancel_;
            options.scheduler = &scheduler_;
            options.waiting = [this](const std::string& why) {
                QMetaObject::invokeMethod(
                    this, [this, text = qs(why)] { dialog_.setStatus(text); }, Qt::QueuedConnection);
            };
            options.progress = [this](int done, int total, const std::string& target) {
                QMetaObject::invokeMethod(
                    this, [this, done, total, t = qs(target)] { dialog_.setProgress(done, total, t); },
                    Qt::QueuedConnection);
            };
            CompareReport report;
            try {
                report = runComparison(image, chain, chosen, options);
            } catch (const std::exception& e) {
                TargetResult failed;
                failed.key = "error";
                failed.label = "comparison";
                failed.error = e.what();
                report.results.push_back(failed);
            }
            return report;
        },
        [this](CompareReport report) { done(std::move(report)); });
}

void CompareController::done(CompareReport report)
{
    dialog_.setRunning(false);
    if (report.cancelled) {
        dialog_.setStatus(tr("Cancelled; the results shown are from the run before."));
    } else {
        report_ = std::move(report);
        dialog_.setResults(toResults(report_, setup_.snapshot, setup_.calibrations, tr("This machine")));
        dialog_.setStatus(tr("%1 \u00d7 %2 %3, chain %4")
                              .arg(report_.width)
                              .arg(report_.height)
                              .arg(qs(report_.format), qs(report_.chain)));
    }
    emit finished();
}

void CompareController::save(const QString& path)
{
    try {
        const SavedComparison saved{report_, setup_.snapshot, setup_.calibrations,
                                    QSysInfo::machineHostName().toStdString(), cpuModelName()};
        saveComparison(path.toStdString(), saved);
        dialog_.setStatus(tr("Saved %1").arg(QFileInfo(path).fileName()));
    } catch (const std::exception& e) {
        dialog_.setStatus(tr("Not saved: %1").arg(qs(e.what())));
    }
}

void CompareController::load(const QString& path)
{
    try {
        const SavedComparison saved = loadComparison(path.toStdString());
        const QString title = saved.host.empty() ? QFileInfo(path).completeBaseName() : qs(saved.host);
        dialog_.setLoadedResults(toResults(saved.report, saved.snapshot, saved.calibrations, title));
        dialog_.setStatus(tr("Loaded %1 (%2)").arg(QFileInfo(path).fileName(), title));
    } catch (const std::exception& e) {
        dialog_.setStatus(tr("Not loaded: %1").arg(qs(e.what())));
    }
}

ui::CompareResults CompareController::toResults(const CompareReport& report, const values::DeviceSnapshot& snapshot,
                                                const std::map<std::string, values::DeviceCalibration>& calibrations,
                                                const QString& title)
{
    ui::CompareResults out;
    out.title = title;
    out.cancelled = report.cancelled;
    for (const TargetResult& r : report.results) {
        ui::CompareRow row;
        row.key = qs(r.key);
        row.label = qs(r.label);
        row.gpuCount = static_cast<int>(r.gpus.size());
        row.minMs = r.minMs;
        row.medianMs = r.medianMs;
        row.maxMs = r.maxMs;
        row.mpixS = r.mpixS;
        row.mpixMin = r.mpixMin;
        row.mpixMax = r.mpixMax;
        row.speedup = r.speedup;
        row.efficiency = r.efficiency;
        row.maxError = r.maxAbsError;
        row.psnr = r.psnr;
        row.error = qs(r.error);
        row.heatMap = toImage(r.heatMap);
        out.rows.push_back(row);
    }
    // Identical GPUs share one roof: four H200s make one line, not four on top of each other.
    std::vector<std::pair<std::string, std::vector<values::DeviceId>>> models;
    std::set<values::DeviceId> seen;
    for (const TargetResult& r : report.results) {
        for (const RooflinePoint& p : r.roofline) {
            if (!seen.insert(p.device).second) {
                continue;
            }
            const std::string model = deviceModel(snapshot, p.device);
            auto it = std::find_if(models.begin(), models.end(), [&](const auto& m) { return m.first == model; });
            if (it == models.end()) {
                models.push_back({model, {p.device}});
            } else {
                it->second.push_back(p.device);
            }
        }
    }
    for (const auto& [model, devices] : models) {
        ui::RooflineDevice d;
        std::vector<values::DeviceId> gpus;
        for (const values::DeviceId id : devices) {
            if (!id.isCpu()) {
                gpus.push_back(id);
            }
            if (auto it = calibrations.find(deviceKey(id)); it != calibrations.end()) {
                d.bandwidthGBs = std::max(d.bandwidthGBs, it->second.copyGBs);
                d.peakGflops = std::max(d.peakGflops, it->second.fmaGflops);
            }
        }
        // "GPU 0-3" for a run of ids, "GPUs 0,2" otherwise: short enough for a chart legend.
        const bool run =
            gpus.size() > 1 && gpus.back().value() - gpus.front().value() == static_cast<int>(gpus.size()) - 1;
        d.name = gpus.empty() ? qs(values::deviceLabel(values::DeviceId::cpu()))
                 : run        ? qs(values::deviceLabel(gpus.front()) + "\u2013" + std::to_string(gpus.back().value()))
                              : qs(values::gpusLabel(gpus));
        for (const TargetResult& r : report.results) {
            for (const RooflinePoint& p : r.roofline) {
                if (std::find(devices.begin(), devices.end(), p.device) != devices.end()) {
                    d.marks.push_back({qs(p.method), p.intensity, p.gflops});
                }
            }
        }
        out.roofline.push_back(d);
    }
    return out;
}

}  // namespace tessera::app
