// SPDX-License-Identifier: Apache-2.0
#include "app/gui/batch_controller.h"

#include "values/device_label.h"
#include "app/batch/batch_inputs.h"
#include "app/batch/batch_naming.h"
#include "app/batch/batch_plan.h"
#include "app/batch/batch_report.h"
#include "app/batch/batch_run.h"
#include "filters/preset_io.h"
#include "filters/registry.h"
#include "tessera/gpu/device_info.h"
#include "values/device_selection.h"
#include "ui/batch_dialog.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QMetaObject>

#include <exception>

namespace tessera::app {

namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

ui::BatchResultRow rowFor(const FileResult& r)
{
    return {qs(r.input), qs(toString(r.status)), qs(r.device), r.computeMs, qs(r.output), qs(r.error), qs(r.decoder)};
}

QString summaryText(const BatchSummary& s)
{
    QString devices;
    for (const std::string& d : s.devices) {
        devices += (devices.isEmpty() ? QString() : QStringLiteral(", ")) + qs(d);
    }
    QString text = QObject::tr("%1 files: %2 written, %3 skipped, %4 failed, %5 cancelled")
                       .arg(s.files.size())
                       .arg(s.ok)
                       .arg(s.skipped)
                       .arg(s.failed)
                       .arg(s.cancelled);
    if (!devices.isEmpty()) {
        text += QObject::tr(" on %1").arg(devices);
    }
    if (!s.note.empty()) {
        text += QStringLiteral(" (") + qs(s.note) + QStringLiteral(")");
    }
    return text;
}

}  // namespace

BatchController::BatchController(ui::BatchDialog& dialog, DeviceScheduler& scheduler,
                                 std::function<filters::FilterChain()> currentChain, QObject* parent)
    : QObject(parent), dialog_(dialog), scheduler_(scheduler), currentChain_(std::move(currentChain))
{
    connect(&dialog_, &ui::BatchDialog::startRequested, this, &BatchController::start);
    connect(&dialog_, &ui::BatchDialog::cancelRequested, this, [this] { cancel_ = true; });
    connect(&dialog_, &ui::BatchDialog::requestChanged, this, &BatchController::showExample);
    connect(&dialog_, &ui::BatchDialog::saveCsvRequested, this, &BatchController::saveCsv);
    refresh();
}

BatchController::~BatchController()
{
    cancel_ = true;
    job_.wait();
}

void BatchController::refresh()
{
    const values::DeviceSnapshot snapshot = gpu::enumerateDevices();
    // The keys are the selections' own spelling, as `tessera-cli batch --device` takes them.
    const auto key = [](const values::DeviceSelection& selection) { return qs(values::toString(selection)); };
    // The same words for Auto and the CPU as Preferences uses.
    std::vector<ui::DeviceOption> options = ui::PreferencesDialog::basicDeviceOptions();
    for (const values::DeviceInfo& d : snapshot.devices) {
        options.push_back({key(values::DeviceSelection::gpu(d.id)),
                           qs(values::deviceLabel(d.id, &snapshot, values::LabelForm::Listing))});
    }
    if (snapshot.devices.size() > 1) {
        options.push_back({key(values::DeviceSelection::all()), tr("All %1 GPUs").arg(snapshot.devices.size())});
    }
    dialog_.setDeviceOptions(options);
    const filters::FilterChain chain = currentChain_ ? currentChain_() : filters::FilterChain{};
    dialog_.setCurrentStackText(chain.steps.empty() ? tr("empty") : qs(filterLabel(chain)), !chain.steps.empty());
    showExample(dialog_.request());
}

BatchJob BatchController::jobFor(const ui::BatchRequest& request, bool forExample) const
{
    BatchJob job;
    for (const QString& input : request.inputs) {
        job.inputs.push_back(input.toStdString());
    }
    job.recursive = request.recursive;
    job.outputDir = request.outputDir.toStdString();
    job.nameTemplate = request.nameTemplate.toStdString();
    job.format = request.format.toStdString();
    job.depth = filters::parseOutputDepth(request.depth == QLatin1String("keep") ? std::string("same")
                                                                                 : request.depth.toStdString());
    job.policy = parseOverwritePolicy(request.policy.toStdString());
    job.manifest = request.manifest;
    job.encode = request.encode;
    if (!request.presetPath.isEmpty()) {
        job.filterName = QFileInfo(request.presetPath).completeBaseName().toStdString();
        job.chain = forExample
                        ? filters::FilterChain{}
                        : filters::loadPreset(request.presetPath.toStdString(), filters::builtinRegistry()).chain();
    } else if (currentChain_) {
        job.chain = currentChain_();
    }
    return job;
}

void BatchController::showExample(const ui::BatchRequest& request)
{
    try {
        const BatchJob job = jobFor(request, true);
        // Folders and patterns are expanded so the example names a real first file.
        const std::vector<BatchInput> inputs = expandInputs(job.inputs, job.recursive, job.outputDir);
        const std::string first = inputs.empty() ? std::string("photo.png") : inputs.front().path;
        dialog_.setExample(qs(outputNameFor(job, first, 1, std::max<int>(1, static_cast<int>(inputs.size())))), true);
    } catch (const std::exception& e) {
        dialog_.setExample(qs(e.what()), false);
    }
}

void BatchController::start(const ui::BatchRequest& request)
{
    if (job_.isRunning()) {
        return;
    }
    std::shared_ptr<BatchRun> batch;
    try {
        BatchRunOptions options;
        options.device = request.device.toStdString();
        options.gpuMemoryLimit = ui::PreferencesDialog::gpuMemoryLimit();
        options.jpegOnGpu = request.jpegOnGpu;
        // The dialog's progress line says when a file waits for its device.
        options.waiting = [this](const std::string& why) {
            QMetaObject::invokeMethod(
                this, [this, text = qs(why)] { dialog_.setSummary(text); }, Qt::QueuedConnection);
        };
        batch = std::make_shared<BatchRun>(jobFor(request, false), std::move(options), scheduler_);
    } catch (const std::exception& e) {
        dialog_.showRefusal(qs(e.what()));
        emit finished();
        return;
    }
    cancel_ = false;
    dialog_.setRunning(true);
    dialog_.setProgress(0, static_cast<int>(batch->fileCount()), QString(), 0.0);
    job_.start(
        [this, batch] {
            QElapsedTimer sincePost;
            sincePost.start();
            const auto progress = [this, &sincePost](const BatchProgress& p) {
                // Finished files always go through; stage updates at most every 30 ms so that a
                // large batch of small files does not flood the GUI thread.
                if (p.finished == nullptr && sincePost.elapsed() < 30) {
                    return;
                }
                sincePost.restart();
                const QString current = qs(p.currentFile);
                const bool hasRow = p.finished != nullptr;
                const ui::BatchResultRow row = hasRow ? rowFor(*p.finished) : ui::BatchResultRow{};
                QMetaObject::invokeMethod(
                    this,
                    [this, done = p.done, total = p.total, current, fraction = p.fileFraction, hasRow, row] {
                        dialog_.setProgress(done, total, current, fraction);
                        if (hasRow) {
                            dialog_.addResult(row);
                        }
                    },
                    Qt::QueuedConnection);
            };
            BatchSummary summary;
            try {
                summary = batch->run(cancel_, progress);
            } catch (const std::exception& e) {
                summary.note = e.what();
            }
            return summary;
        },
        [this](BatchSummary summary) { done(std::move(summary)); });
}

void BatchController::done(BatchSummary summary)
{
    summary_ = std::move(summary);
    dialog_.setRunning(false);
    dialog_.setSummary(summaryText(summary_));
    emit finished();
}

void BatchController::saveCsv(const QString& path)
{
    try {
        saveTextFile(path.toStdString(), resultsCsv(summary_.files));
        dialog_.setSummary(summaryText(summary_) + tr(". Results saved to %1").arg(path));
    } catch (const std::exception& e) {
        dialog_.setSummary(tr("Cannot save the results: %1").arg(qs(e.what())));
    }
}

}  // namespace tessera::app
