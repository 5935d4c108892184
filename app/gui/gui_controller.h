// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/engine/display_mapping.h"
#include "app/document/document.h"
#include "filters/filter_spec.h"
#include "values/geometry.h"

#include <opencv2/core/mat.hpp>

#include <QObject>
#include <functional>
#include <QPoint>
#include <QRect>
#include <QString>
#include <QUndoStack>

namespace tessera::ui {
class MainWindow;
}  // namespace tessera::ui

namespace tessera::app {

namespace gui {
class DeviceController;
class DialogController;
class DocumentController;
class PreviewController;
}  // namespace gui

class CalibrationController;
class CompareController;

/// Connects the main window to the document and the Engine. It owns the document and one
/// controller per concern: the document's views and files (DocumentController), previews
/// (PreviewController), devices (DeviceController) and the batch and comparison dialogs
/// (DialogController); what is here only forwards to them. The window must outlive it.
class GuiController : public QObject {
    Q_OBJECT

public:
    /// Connects to window's requests; call refreshDeviceInfo() to fill About and the status bar.
    explicit GuiController(ui::MainWindow& window, QObject* parent = nullptr);
    ~GuiController() override;

    /// The document: image, filter stack and edit history.
    document::Document& document() { return document_; }
    /// The open image (with applied filters); empty before the first file opens.
    const cv::Mat& sourceImage() const { return document_.image(); }
    /// Edit history: stack edits and applies.
    QUndoStack& undoStack() { return document_.undoStack(); }
    /// The display mapping in use.
    const DisplayMapping& displayMapping() const;
    /// The Devices dock's calibrations (Measure buttons, cache).
    CalibrationController& calibration() const;
    /// The comparison behind Tools > Compare Devices; null before the first openCompare().
    CompareController* compareController() const;
    /// Id of the last preview shown in the window (0 before the first).
    quint64 shownPreview() const;
    /// The last preview's pixels in their own depth, covering previewRegion(); empty while no
    /// filter is enabled.
    const cv::Mat& previewData() const;
    /// The part of the image the last preview covers; empty while no preview is shown.
    values::Rect previewRegion() const;
    /// 1, or the block width of the means previewData() holds (a fit-zoom preview of a large image).
    int previewReduce() const;
    /// Sets the pixel count above which previews cover only the view (by default
    /// ViewRegions::kDefaultThreshold; tests lower it). Takes effect at the next request.
    void setRegionPreviewThreshold(qint64 pixels);
    /// True while a requested preview has not reached the window yet.
    bool isPreviewPending() const;
    /// True while Apply or Export waits for the whole filtered image.
    bool isComputingWhole() const;
    /// Images of this many pixels and more open off the GUI thread (tests lower it).
    void setBackgroundOpenPixels(qint64 pixels);
    /// True while an image is being read in the background.
    bool isOpening() const;
    /// Stops a background opening; the open image stays.
    void cancelOpening();
    /// Hands the whole image with the enabled filters of the stack applied to `done`, or the
    /// reason it cannot to `failed` (see PreviewController::withCurrentResult()): at once when
    /// the preview covers it, else later from the event loop.
    void withCurrentResult(std::function<void(const cv::Mat&)> done, std::function<void(const QString&)> failed);

public slots:
    /// Asks for a preview of the stack's enabled filters, or shows the image itself.
    void previewStack();
    /// Reads path and shows it with the current stack previewed, or shows the error; never throws.
    void openImage(const QString& path);
    /// Enumerates CUDA devices and shows them in the window.
    void refreshDeviceInfo();
    /// Writes the open image to path; reports errors in the window. Never throws.
    void saveImage(const QString& path);
    /// Writes the whole filtered image to path (when it has been computed, if the preview does
    /// not cover it); reports errors in the window. Never throws.
    void exportImage(const QString& path);
    /// Replaces the stack by the preset in path (undoable); errors name the file. Never throws.
    void loadPreset(const QString& path);
    /// Writes the stack's enabled filters as a preset to path; errors name the file. Never throws.
    void savePreset(const QString& path);
    /// Text for the pixel at pos of the shown image; empty outside the image.
    QString describePixel(const QPoint& pos) const;
    /// Makes the stack's result the image and empties the stack, as one undo step.
    void applyPreview();
    /// Asks the Engine for a preview of chain on the open image; the newest request wins.
    void requestPreview(const tessera::filters::FilterChain& chain);
    /// Shows 16-bit and float images through mapping; the data is not changed.
    void setDisplayMapping(const tessera::app::DisplayMapping& mapping);
    /// Shows the batch dialog (made on first use).
    void openBatch();
    /// Shows the device comparison (made on first use).
    void openCompare();

signals:
    /// A preview reached the window.
    void previewShown(quint64 id);

private:
    ui::MainWindow& window_;
    document::Document document_;
    gui::PreviewController* previews_ = nullptr;    ///< child of this controller
    gui::DocumentController* documents_ = nullptr;  ///< child of this controller
    gui::DeviceController* devices_ = nullptr;      ///< child of this controller
    gui::DialogController* dialogs_ = nullptr;      ///< child of this controller
};

}  // namespace tessera::app
