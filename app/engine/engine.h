// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/engine/display_mapping.h"
#include "filters/filter_spec.h"
#include "values/geometry.h"
#include "values/device_selection.h"
#include "values/run_report.h"
#include "values/timing_record.h"

#include <opencv2/core/mat.hpp>

#include <QFuture>
#include <QImage>
#include <QMetaType>
#include <QObject>
#include <QString>

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

class QThread;

namespace tessera::app {

/// One finished preview, as delivered to the GUI thread.
struct PreviewResult {
    quint64 id = 0;             ///< the id requestPreview() returned
    QImage image;               ///< display image (16-bit and float data mapped for the screen)
    DisplayMapping mapping;     ///< the mapping image was made with
    QString shownRange;         ///< what black and white stand for in image (empty for 8-bit)
    cv::Mat data;               ///< the filtered pixels in their own depth
    QString device;             ///< "GPU 0 (NVIDIA H200)" or "CPU"
    QString methods;            ///< GPU methods per step, e.g. "separable, direct"; empty on the CPU
    double milliseconds = 0.0;  ///< filtering time (GPU: kernels, by CUDA events; CPU: its tiles)
    double setupMs = 0.0;       ///< CPU: the run's time outside the filtering (first run: threads, buffers)
    QString note;               ///< e.g. why the CPU ran although a GPU was present
    QString error;              ///< set when the request failed; image is then empty
    values::Rect region;        ///< the part of the image that image/data show (all of it unless asked)
    /// 1: image/data hold region's pixels; above: the means of reduce x reduce blocks of the
    /// filtered region (a fit-zoom preview: ceil(width / reduce) x ceil(height / reduce) pixels).
    int reduce = 1;
    std::vector<values::TimingRecord> timings;  ///< what each GPU (or the CPU) spent on this preview
    values::RunReport report;                   ///< the pipeline's report of this preview, as every front end reports
};

class DeviceScheduler;
class EngineWorker;
class PreviewPromises;

/// Owns a worker thread that does all filtering: the GPUs (every enabled one, each holding a band
/// of the open image so a parameter change uploads nothing) or the CPU path. Each preview runs
/// under a preview lease of the DeviceScheduler, so it shares its devices with batches (ahead of
/// them) and waits for calibrations and comparisons. The newest
/// request wins: requests that are already superseded when the worker reaches them are dropped
/// unrun. Results arrive through previewReady() on the thread that owns the Engine. Exceptions
/// never leave the worker: they become PreviewResult::error.
class Engine : public QObject {
    Q_OBJECT

public:
    /// Starts the worker thread. useGpu false keeps everything on the CPU path. scheduler is the
    /// process's device owner, shared with the batches, comparisons and calibrations (a new one
    /// when null). Throws only std::bad_alloc.
    explicit Engine(bool useGpu = true, QObject* parent = nullptr, std::shared_ptr<DeviceScheduler> scheduler = {});
    /// Stops the worker after the request in progress; pending ones are dropped.
    ~Engine() override;

    /// Replaces the image later previews filter (the Mat is shared, not copied: do not modify it).
    void setImage(const cv::Mat& image);
    /// Sets where later previews run: auto spreads the image in bands over autoGpus' GPUs, as
    /// high as their speeds (every GPU present, alike, when empty); gpu:N[,M...] runs those GPUs,
    /// cpu the CPU path. A GPU that is not present falls back to the CPU with a note in the result.
    /// memoryLimit: the bytes each GPU may hold for previews (Preferences' GPU memory budget);
    /// 0 takes them from its free memory.
    void setDevicePreference(const values::DeviceSelection& preference, const values::DeviceSpeeds& autoGpus = {},
                             std::size_t memoryLimit = 0);
    /// Sets the display mapping of later previews' images (the data is not affected).
    void setDisplayMapping(const DisplayMapping& mapping);
    /// Queues a preview of chain on the current image and returns its id (increasing). With a
    /// region (clipped to the image), only that part is computed and returned, e.g. what the
    /// view shows; an empty region means the whole image. reduce above 1 (for the whole image
    /// only) asks for what a view at 1 / reduce shows: the means of reduce x reduce blocks of the
    /// filtered image, computed for those blocks alone where the chain allows (one step on the
    /// CPU), else filtered whole and reduced.
    quint64 requestPreview(const filters::FilterChain& chain, const values::Rect& region = {}, int reduce = 1);
    /// Id of the newest request so far (0 before the first).
    quint64 latestRequest() const { return latest_->load(); }
    /// A future of the result of request id or of the first newer one that runs, fulfilled on the
    /// worker thread (so result() may block the GUI thread without a nested event loop; the
    /// caller makes sure no newer request supersedes id, or it gets the newer one's result).
    /// Never throws beyond allocation; any thread.
    QFuture<PreviewResult> resultOf(quint64 id);
    /// The device owner the previews lease from; it outlives the Engine if shared. Never throws.
    DeviceScheduler& scheduler() const { return *scheduler_; }
    /// The same owner, for sharing. Never throws.
    std::shared_ptr<DeviceScheduler> sharedScheduler() const { return scheduler_; }

signals:
    /// A request finished (only requests not superseded before they started are run).
    void previewReady(const tessera::app::PreviewResult& result);
    /// A preview waits for its devices; why says for what, e.g. "waiting for GPU 0 (calibration
    /// running)". Emitted on the Engine's thread.
    void previewWaiting(const QString& why);

private:
    QThread* thread_ = nullptr;
    EngineWorker* worker_ = nullptr;
    std::shared_ptr<std::atomic<quint64>> latest_;
    std::shared_ptr<DeviceScheduler> scheduler_;
    std::shared_ptr<PreviewPromises> promises_;
};

}  // namespace tessera::app

Q_DECLARE_METATYPE(tessera::app::PreviewResult)
