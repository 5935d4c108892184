#pragma once

#include "app/display_mapping.h"
#include "app/document.h"
#include "filters/filter_spec.h"

#include <opencv2/core/mat.hpp>

#include <QImage>
#include "gpu/device_info.h"
#include "gpu/device_selection.h"

#include <QObject>
#include <QPoint>
#include <QRect>
#include <QString>
#include <QUndoStack>

#include <map>
#include <string>
#include <vector>

namespace tessera::ui {
class BatchDialog;
class CompareDialog;
class MainWindow;
}

namespace tessera::app {

class BatchController;
class CalibrationController;
class CompareController;
class DocumentController;
class Engine;
class ViewRegions;
struct PreviewResult;

/// Connects the main window to image I/O, device information and the Engine that computes
/// previews of the filter stack on its own thread (GPU when present). A large image is previewed
/// only where the view shows it (plus a margin), again whenever the view moves off that part.
/// Loads and writes images synchronously on the GUI thread. The window must outlive the controller.
class GuiController : public QObject {
    Q_OBJECT

public:
    /// Connects to window's requests; call refreshDeviceInfo() to fill About and the status bar.
    explicit GuiController(ui::MainWindow& window, QObject* parent = nullptr);
    ~GuiController() override;

    /// The display mapping in use.
    const DisplayMapping& displayMapping() const { return mapping_; }
    /// The Devices dock's calibrations (Measure buttons, cache).
    CalibrationController& calibration() const { return *calibration_; }
    /// The comparison behind Tools > Compare Devices; null before the first openCompare().
    CompareController* compareController() const { return compare_; }
    /// The open image (with applied filters); empty before the first file opens.
    const cv::Mat& sourceImage() const { return document_.image(); }
    /// The document: image, filter stack and edit history.
    Document& document() { return document_; }
    /// Id of the last preview shown in the window (0 before the first).
    quint64 shownPreview() const { return shownPreview_; }
    /// The last preview's pixels in their own depth, covering previewRegion(); empty while no
    /// filter is enabled.
    const cv::Mat& previewData() const { return preview_; }
    /// The part of the image the last preview covers (image pixels): all of a small image, the
    /// view and its margin for a large one; empty while no preview is shown.
    QRect previewRegion() const { return previewRegion_; }
    /// Sets the pixel count above which previews cover only the view (by default
    /// ViewRegions::kDefaultThreshold; tests lower it). Takes effect at the next request.
    void setRegionPreviewThreshold(qint64 pixels);
    /// True while a requested preview has not reached the window yet.
    bool isPreviewPending() const { return !requested_.empty(); }
    /// Edit history: stack edits and applies.
    QUndoStack& undoStack() { return document_.undoStack(); }
    /// The whole image with the enabled filters of the stack applied: the preview when it is of
    /// the current stack and covers the whole image, else computed by the Engine while this
    /// waits (busy cursor; user input waits too), or on the CPU path if the Engine fails. Throws
    /// std::invalid_argument when a filter refuses its parameters.
    cv::Mat currentResult();

public slots:
    /// Asks for a preview of the stack's enabled filters, or shows the image itself when none
    /// is enabled. A filter that refuses its parameters is reported as a notice.
    void previewStack();
    /// Reads path and shows it with the current stack previewed, or shows the error; never throws.
    void openImage(const QString& path);
    /// Enumerates CUDA devices and passes versions, device lines, the compute summary and the
    /// Devices dock's snapshot to the window (again on the dock's Refresh: free memory changes).
    void refreshDeviceInfo();
    /// Writes the open image (with applied filters) to path through a temporary file; reports
    /// errors in the window. Never throws.
    void saveImage(const QString& path);
    /// Writes currentResult() to path through a temporary file, leaving the document's path and
    /// modified state alone; refuses (with the reason) a format that cannot hold the result's
    /// depth or channels. Never throws.
    void exportImage(const QString& path);
    /// Replaces the stack by the preset in path (undoable); errors name the file. Never throws.
    void loadPreset(const QString& path);
    /// Writes the stack's enabled filters as a preset to path; errors name the file. Never throws.
    void savePreset(const QString& path);
    /// Text for the pixel at pos of the shown image (preview if any, else the image): position
    /// and channel values in the image's own depth, RGB(A) order; the original's values with a
    /// note where a preview covers only part of the image and not pos; empty outside the image.
    QString describePixel(const QPoint& pos) const;
    /// Makes the stack's result the image and empties the stack, as one undo step; a notice
    /// when no filter is enabled.
    void applyPreview();
    /// Asks the Engine for a preview of chain on the open image (of what the view shows, when the
    /// image is large); the newest request wins.
    void requestPreview(const tessera::filters::FilterChain& chain);
    /// Shows 16-bit and float images (the open one, the preview, later previews) through mapping;
    /// the data is not changed.
    void setDisplayMapping(const tessera::app::DisplayMapping& mapping);
    /// Shows the batch dialog (made on first use), offering the current stack and the devices.
    void openBatch();
    /// Shows the device comparison (made on first use) for the open image and the stack, on the
    /// devices the Devices dock allows.
    void openCompare();

signals:
    /// A preview reached the window.
    void previewShown(quint64 id);

private:
    /// A request on its way: the chain and the image pixels it covers.
    struct Request {
        filters::FilterChain chain;
        QRect region;
    };

    void showPreview(const PreviewResult& result);
    quint64 requestRegion(const filters::FilterChain& chain, const QRect& region);
    void followView();
    cv::Mat computeWhole(const filters::FilterChain& chain);
    QRect wholeImage() const;
    void showUnfiltered();
    void showDocumentImage();
    void forgetPreviews();
    filters::FilterChain stackChain() const;
    QImage render(const cv::Mat& data, QString* shown) const;
    void showOriginalRendering();
    void applyDevicePreference();
    /// Relative speeds of gpus from their cached calibrations (all 1 until each is measured).
    gpu::DeviceSpeeds gpuSpeeds(const std::vector<gpu::DeviceId>& gpus) const;

    ui::MainWindow& window_;
    Document document_;
    DocumentController* documentController_ = nullptr;  ///< child of this controller
    cv::Mat preview_;
    filters::FilterChain previewChain_;  ///< what preview_ is the result of
    QRect previewRegion_;                ///< the image pixels preview_ covers
    filters::FilterChain wantedChain_;   ///< the chain last asked for; empty when none is enabled
    std::map<quint64, Request> requested_;  ///< requests not yet shown, by id
    bool waitingForWhole_ = false;   ///< currentResult() waits for the whole image
    bool filteredBase_ = false;      ///< the view's image is a whole preview, not the original
    Engine* engine_ = nullptr;
    std::vector<gpu::DeviceId> presentGpus_;  ///< GPU ids of the last device snapshot
    gpu::DeviceSnapshot snapshot_;   ///< the last device snapshot
    std::string appliedDevice_;      ///< the preference the Engine has, as toString()
    ViewRegions* regions_ = nullptr;  ///< which part of the image previews cover
    quint64 shownPreview_ = 0;
    quint64 acceptFrom_ = 0;  ///< results of older requests belong to a previous image or stack
    DisplayMapping mapping_;
    const void* savedData_ = nullptr;  ///< pixels of the image as last opened or saved
    QImage originalDisplay_;           ///< the open image as displayed, the "before" of the split
    QString originalShown_;            ///< what black and white stand for in originalDisplay_
    ui::BatchDialog* batchDialog_ = nullptr;  ///< child of the window, made by openBatch()
    BatchController* batch_ = nullptr;        ///< child of this controller
    ui::CompareDialog* compareDialog_ = nullptr;      ///< child of the window, made by openCompare()
    CompareController* compare_ = nullptr;            ///< child of this controller
    CalibrationController* calibration_ = nullptr;    ///< the Devices dock's Measure buttons
};

}  // namespace tessera::app
