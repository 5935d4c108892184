#pragma once

#include "filters/filter_spec.h"
#include "ui/filter_panel.h"

#include <opencv2/core/mat.hpp>

#include <QImage>
#include <QObject>
#include <QPoint>
#include <QString>
#include <QUndoStack>

namespace tessera::ui {
class MainWindow;
}

namespace tessera::app {

class Engine;
struct PreviewResult;

/// Connects the main window to image I/O, device information and the Engine that computes
/// previews on its own thread (GPU when present). Loads images synchronously on the GUI thread
/// for now. The window must outlive the controller.
class GuiController : public QObject {
    Q_OBJECT

public:
    /// Connects to window's requests; call refreshDeviceInfo() to fill About and the status bar.
    explicit GuiController(ui::MainWindow& window, QObject* parent = nullptr);
    ~GuiController() override;

    /// The image as read from the last file that opened (empty before the first one).
    const cv::Mat& sourceImage() const { return source_; }

public slots:
    /// Builds the Filter panel's current choice and asks for its preview.
    void previewPanelChoice();
    /// Reads path and shows it, or shows the error; never throws.
    void openImage(const QString& path);
    /// Enumerates CUDA devices and passes versions, device lines and the compute summary to the window.
    void refreshDeviceInfo();
    /// Writes the open image (with applied filters) to path through a temporary file; reports
    /// errors in the window. Never throws.
    void saveImage(const QString& path);
    /// Text for the pixel at pos of the shown image (preview if any, else the image): position
    /// and channel values in the image's own depth, RGB(A) order; empty outside the image.
    QString describePixel(const QPoint& pos) const;
    /// Makes the shown preview the image (undoable); a notice when there is no preview.
    void applyPreview();
    /// Asks the Engine for a preview of chain on the open image; the newest request wins.
    void requestPreview(const tessera::filters::FilterChain& chain);
    /// Id of the last preview shown in the window (0 before the first).
    quint64 shownPreview() const { return shownPreview_; }
    /// The last preview's pixels in their own depth (empty before the first).
    const cv::Mat& previewData() const { return preview_; }
    /// Edit history: panel changes and applies.
    QUndoStack& undoStack() { return undo_; }

signals:
    /// A preview reached the window.
    void previewShown(quint64 id);

private:
    void showPreview(const PreviewResult& result);
    void panelChanged();
    void restoreChoice(const ui::FilterChoice& choice);
    void installImage(const cv::Mat& image);

    ui::MainWindow& window_;
    cv::Mat source_;
    cv::Mat preview_;
    Engine* engine_ = nullptr;
    quint64 shownPreview_ = 0;
    quint64 firstPreviewOfImage_ = 0;
    QUndoStack undo_;
    ui::FilterChoice lastChoice_;
    const void* savedData_ = nullptr;  ///< pixels of the image as last opened or saved
    QImage originalDisplay_;           ///< the open image as displayed, the "before" of the split
};

}  // namespace tessera::app
