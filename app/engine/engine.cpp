// SPDX-License-Identifier: Apache-2.0
#include "app/engine/engine.h"
#include "app/engine/reduced_preview.h"

#include "values/device_label.h"

#include "app/devices/device_scheduler.h"
#include "app/engine/display_mapping.h"
#include "tessera/gpu/engine.h"

#include <QPromise>
#include <QThread>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>

namespace tessera::app {

namespace {

/// From the first CPU tile's start to the last one's end, ms; 0 without CPU tiles.
double cpuFilteringMs(const values::RunReport& report)
{
    double first = 0.0;
    double last = 0.0;
    bool any = false;
    for (const values::TimingRecord& r : report.records) {
        if (r.device.isCpu() && r.tile >= 0) {
            first = any ? std::min(first, r.beginUs) : r.beginUs;
            last = any ? std::max(last, r.endUs) : r.endUs;
            any = true;
        }
    }
    return any ? (last - first) / 1000.0 : 0.0;
}

}  // namespace

/// The futures resultOf() handed out, fulfilled by the worker as requests finish. Shared by the
/// Engine and its worker; one mutex.
class PreviewPromises {
public:
    QFuture<PreviewResult> add(quint64 id)
    {
        auto promise = std::make_shared<QPromise<PreviewResult>>();
        promise->start();
        QFuture<PreviewResult> future = promise->future();
        std::lock_guard lock(mutex_);
        if (last_.id >= id) {
            // The worker was quicker than the caller: the answer is already here.
            promise->addResult(last_);
            promise->finish();
        } else {
            pending_.emplace_back(id, std::move(promise));
        }
        return future;
    }

    // Every promise of request id or of an older one gets result.
    void fulfil(const PreviewResult& result)
    {
        std::lock_guard lock(mutex_);
        last_ = result;
        std::erase_if(pending_, [&result](auto& entry) {
            if (entry.first > result.id) {
                return false;
            }
            entry.second->addResult(result);
            entry.second->finish();
            return true;
        });
    }

    // The Engine goes away: nobody waits for ever.
    void abandon()
    {
        PreviewResult gone;
        gone.id = ~quint64{0};
        gone.error = QStringLiteral("the engine stopped");
        fulfil(gone);
    }

private:
    std::mutex mutex_;
    std::vector<std::pair<quint64, std::shared_ptr<QPromise<PreviewResult>>>> pending_;
    PreviewResult last_;  // the newest result delivered (id 0 before the first)
};

/// Lives on the Engine's thread; every GPU call happens here.
class EngineWorker : public QObject {
public:
    using Notice = std::function<void(const QString&)>;

    EngineWorker(bool useGpu, std::shared_ptr<std::atomic<quint64>> latest, DeviceScheduler& scheduler, Notice waiting)
        : useGpu_(useGpu), latest_(std::move(latest)), scheduler_(scheduler), waiting_(std::move(waiting))
    {
    }

    void setImage(const cv::Mat& image)
    {
        image_ = image;
        if (pipeline_) {
            pipeline_->forgetImage();  // the resident copy is made again at the next request
        }
    }

    /// Empty when the request was superseded while it waited for its devices.
    std::optional<PreviewResult> run(quint64 id, const filters::FilterChain& chain, const values::Rect& requested,
                                     int reduce)
    {
        PreviewResult r;
        r.id = id;
        if (image_.empty()) {
            r.error = QStringLiteral("no image is open");
            return r;
        }
        const values::Rect whole = values::imageRect(image_.cols, image_.rows);
        r.region = requested.empty() ? whole : requested.intersected(whole);
        if (r.region.empty()) {
            r.error = QStringLiteral("the preview region lies outside the image");
            return r;
        }
        // The pipeline speaks OpenCV: the one conversion on this path.
        const cv::Rect region(r.region.x, r.region.y, r.region.width, r.region.height);
        try {
            ensurePipeline();
            DeviceLease lease = leaseFor(id, region);
            if (!lease) {
                return std::nullopt;
            }
            // One run for every case: the GPUs' bands, or the CPU slot when there is no GPU or the
            // user chose the CPU; what fell back is the pipeline's to decide and to report.
            values::RunReport report;
            r.reduce = region.area() == static_cast<int>(image_.total()) ? std::max(1, reduce) : 1;
            if (r.reduce > 1 && (!onGpu_ || fellBack_) && runReduced(chain, r)) {
                lease.release();
                std::string shown;
                r.image = toDisplayImage(r.data, mapping_, &shown);
                r.mapping = mapping_;
                r.shownRange = QString::fromStdString(shown);
                return r;
            }
            // On the GPUs the blocks are summed there and only they come back; a CPU run (or a
            // fallback) gives every pixel, reduced here.
            gpu::RunControl control;
            control.reduce = r.reduce;
            pipeline_->run(image_, chain, r.data, control, &report, region);
            if (r.reduce > 1 && r.data.size() == image_.size()) {
                r.data = reduceByBlocks(r.data, r.reduce);
            }
            if (!report.devicesUsed().empty()) {
                r.device = gpuLabel(report);
                r.methods = kernelLabel(report);
                r.milliseconds = report.kernelMs();
            } else {
                r.device = QString::fromStdString(values::deviceLabel(values::DeviceId::cpu()));
                // The filtering is the span of the CPU's tiles; what the run spent besides (its
                // first use starts threads and allocates) is set-up, said apart from it.
                const double filtering = cpuFilteringMs(report);
                r.milliseconds = filtering > 0.0 ? filtering : report.wallMs;
                r.setupMs = std::max(0.0, report.wallMs - r.milliseconds);
            }
            if (report.fellBack.happened()) {
                r.note = QStringLiteral("GPU failed: %1; using the CPU").arg(QString::fromStdString(report.fallback));
            } else if (!onGpu_ && useGpu_ && !gpuReason_.empty()) {
                r.note = QString::fromStdString(gpuReason_);
            }
            // After a fallback the pipeline keeps to the CPU path: so do the leases.
            fellBack_ = report.fellBack.happened();
            r.timings = report.records;
            r.report = std::move(report);
            // The display conversion is host work: the devices are free for others meanwhile.
            lease.release();
            if (lease.waitedMs() >= 1.0) {
                const QString waited = QStringLiteral("waited %1 ms for the device").arg(lease.waitedMs(), 0, 'f', 0);
                r.note = r.note.isEmpty() ? waited : r.note + QStringLiteral("; ") + waited;
            }
            std::string shown;
            r.image = toDisplayImage(r.data, mapping_, &shown);
            r.mapping = mapping_;
            r.shownRange = QString::fromStdString(shown);
        } catch (const std::exception& e) {
            r.error = QString::fromUtf8(e.what());
            r.image = QImage();
        }
        return r;
    }

    bool superseded(quint64 id) const { return latest_->load() > id; }

    void setDisplayMapping(const DisplayMapping& mapping) { mapping_ = mapping; }

    void setDevicePreference(const values::DeviceSelection& preference, const values::DeviceSpeeds& autoGpus,
                             std::size_t memoryLimit)
    {
        memoryLimit_ = memoryLimit;
        // The next request probes again for the devices now preferred.
        preference_ = preference;
        autoGpus_ = autoGpus;
        gpuName_.clear();
        pipeline_.reset();
        onGpu_ = false;
        fellBack_ = false;
        gpuReason_.clear();
    }

private:
    // The CPU's fit-zoom preview of one step, computed for the shown blocks alone; false when
    // the chain does not allow it (the caller filters the whole image and reduces it).
    bool runReduced(const filters::FilterChain& chain, PreviewResult& r) const
    {
        const auto start = std::chrono::steady_clock::now();
        std::optional<cv::Mat> reduced = reducedCorrelation(image_, chain, r.reduce);
        if (!reduced) {
            return false;
        }
        r.data = std::move(*reduced);
        r.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        r.device = QString::fromStdString(values::deviceLabel(values::DeviceId::cpu()));
        if (useGpu_ && !gpuReason_.empty()) {
            r.note = QString::fromStdString(gpuReason_);
        }
        return true;
    }

    // A preview lease on the devices this request runs on: the chosen GPUs, each holding its
    // band of the source and of the result, or the CPU path. Given up when a newer request
    // comes while it waits.
    DeviceLease leaseFor(quint64 id, const cv::Rect& region)
    {
        LeaseRequest request;
        request.kind = LeaseKind::Preview;
        request.holder = "preview";
        if (onGpu_ && !fellBack_) {
            request.devices = chosen_;
            const std::uint64_t bytes = static_cast<std::uint64_t>(image_.total()) * image_.elemSize() +
                                        static_cast<std::uint64_t>(region.area()) * image_.elemSize();
            request.bytes = bytes / std::max<std::size_t>(chosen_.size(), 1);
        } else {
            request.devices = {values::DeviceId::cpu()};
        }
        return scheduler_.acquire(
            request, [this, id] { return superseded(id); },
            [this](const std::string& why) { waiting_(QString::fromStdString(why)); });
    }

    // "GPU 0 (NVIDIA H200)" for one band, "GPUs 0, 1 (2 x NVIDIA H200)" when the preview
    // crossed several.
    // The methods of the first band's kernels, e.g. "separable, direct".
    static QString kernelLabel(const values::RunReport& report)
    {
        for (const auto& rec : report.records) {
            if (rec.phase == values::Phase::Kernel) {
                return QString::fromStdString(rec.label);
            }
        }
        return {};
    }

    QString gpuLabel(const values::RunReport& report) const
    {
        const std::vector<values::DeviceId> used = report.devicesUsed();
        const std::string ids = used.empty() ? std::string("GPU ?") : values::gpusLabel(used, ", ");
        const std::string model = used.size() <= 1 ? gpuName_ : std::to_string(used.size()) + " x " + gpuName_;
        return QString::fromStdString(ids + " (" + model + ")");
    }

    // The pipeline of the preferred devices, made at the first request after a change: resident
    // on the chosen GPUs, else resident on the CPU slot (gpuReason_ says why).
    void ensurePipeline()
    {
        if (pipeline_) {
            return;
        }
        if (useGpu_) {
            ensureGpu();
        }
        if (!pipeline_) {
            gpu::RunOptions options;
            options.placement = values::Placement::Resident;
            options.deviceSlots = gpu::cpuSlots();
            pipeline_ = std::make_unique<gpu::Pipeline>(std::move(options));
        }
    }

    void ensureGpu()
    {
        if (preference_.kind() == values::DeviceSelection::Kind::Cpu) {
            gpuReason_ = "the CPU is chosen in Preferences";
            return;
        }
        const auto snap = gpu::enumerateDevices();
        scheduler_.adoptDevices(snap);
        std::vector<values::DeviceId> chosen;
        std::string note;
        try {
            chosen = values::resolve(preference_, snap, note, values::kPreviewPreference);
        } catch (const values::DeviceUnavailableError& e) {
            gpuReason_ = e.what();
            return;
        }
        if (preference_.kind() == values::DeviceSelection::Kind::Auto) {
            // Auto runs on the GPUs the Devices panel leaves enabled (all when it names none).
            std::erase_if(chosen, [&](values::DeviceId id) {
                return !autoGpus_.empty() &&
                       std::ranges::find(autoGpus_, id, &values::DeviceSpeeds::value_type::first) == autoGpus_.end();
            });
            if (chosen.empty()) {
                gpuReason_ = snap.hasGpu() ? "every GPU is disabled in the Devices panel" : note;
                return;
            }
        }
        if (const auto d = std::ranges::find(snap.devices, chosen.front(), &values::DeviceInfo::id);
            d != snap.devices.end()) {
            gpuName_ = d->name;
        }
        gpu::RunOptions options;
        options.placement = values::Placement::Resident;
        // Measured speeds size the bands of Auto; a GPU chosen alone has one band.
        options.deviceSlots = gpu::slotsFor(chosen, autoGpus_, memoryLimit_);
        pipeline_ = std::make_unique<gpu::Pipeline>(std::move(options));
        onGpu_ = true;
        chosen_ = std::move(chosen);
    }

    bool useGpu_;
    bool onGpu_ = false;     // pipeline_ runs on chosen_
    bool fellBack_ = false;  // its last run fell back to the CPU path, where it now stays
    std::string gpuReason_;
    std::string gpuName_;
    std::unique_ptr<gpu::Pipeline> pipeline_;  // resident: the image stays on the GPUs between requests
    values::DeviceSpeeds autoGpus_;
    std::size_t memoryLimit_ = 0;  // bytes each GPU may hold; 0: from its free memory
    cv::Mat image_;
    DisplayMapping mapping_;
    values::DeviceSelection preference_;
    std::vector<values::DeviceId> chosen_;  // the GPUs pipeline_ runs on
    std::shared_ptr<std::atomic<quint64>> latest_;
    DeviceScheduler& scheduler_;
    Notice waiting_;
};

Engine::Engine(bool useGpu, QObject* parent, std::shared_ptr<DeviceScheduler> scheduler)
    : QObject(parent), latest_(std::make_shared<std::atomic<quint64>>(0)),
      scheduler_(scheduler ? std::move(scheduler) : std::make_shared<DeviceScheduler>()),
      promises_(std::make_shared<PreviewPromises>())
{
    qRegisterMetaType<tessera::app::PreviewResult>();
    thread_ = new QThread(this);
    thread_->setObjectName(QStringLiteral("tessera-engine"));
    worker_ = new EngineWorker(useGpu, latest_, *scheduler_, [this](const QString& why) {
        QMetaObject::invokeMethod(
            this, [this, why] { emit previewWaiting(why); }, Qt::QueuedConnection);
    });
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_->start();
}

Engine::~Engine()
{
    // Everything queued after this point is superseded.
    latest_->store(~quint64{0});
    thread_->quit();
    thread_->wait();
    promises_->abandon();
}

QFuture<PreviewResult> Engine::resultOf(quint64 id)
{
    return promises_->add(id);
}

void Engine::setImage(const cv::Mat& image)
{
    EngineWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_, [worker, image] { worker->setImage(image); }, Qt::QueuedConnection);
}

void Engine::setDevicePreference(const values::DeviceSelection& preference, const values::DeviceSpeeds& autoGpus,
                                 std::size_t memoryLimit)
{
    EngineWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_,
        [worker, preference, autoGpus, memoryLimit] { worker->setDevicePreference(preference, autoGpus, memoryLimit); },
        Qt::QueuedConnection);
}

void Engine::setDisplayMapping(const DisplayMapping& mapping)
{
    EngineWorker* worker = worker_;
    QMetaObject::invokeMethod(
        worker_, [worker, mapping] { worker->setDisplayMapping(mapping); }, Qt::QueuedConnection);
}

quint64 Engine::requestPreview(const filters::FilterChain& chain, const values::Rect& region, int reduce)
{
    const quint64 id = latest_->fetch_add(1) + 1;
    EngineWorker* worker = worker_;
    std::shared_ptr<PreviewPromises> promises = promises_;
    QMetaObject::invokeMethod(
        worker_,
        [this, worker, promises, id, chain, region, reduce] {
            if (worker->superseded(id)) {
                return;  // a newer request is already queued: skip the work
            }
            // Delivered even if a newer request arrived meanwhile: while a slider is dragged, every
            // finished preview is still the newest the window can show.
            std::optional<PreviewResult> result = worker->run(id, chain, region, reduce);
            if (!result) {
                return;  // superseded while it waited for its devices
            }
            promises->fulfil(*result);
            QMetaObject::invokeMethod(
                this, [this, r = std::move(*result)] { emit previewReady(r); }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    return id;
}

}  // namespace tessera::app
