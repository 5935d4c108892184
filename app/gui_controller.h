#pragma once

#include "filters/filter_spec.h"

#include <opencv2/core/mat.hpp>

#include <QObject>
#include <QString>

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
    /// Asks the Engine for a preview of chain on the open image; the newest request wins.
    void requestPreview(const tessera::filters::FilterChain& chain);
    /// Id of the last preview shown in the window (0 before the first).
    quint64 shownPreview() const { return shownPreview_; }
    /// The last preview's pixels in their own depth (empty before the first).
    const cv::Mat& previewData() const { return preview_; }

signals:
    /// A preview reached the window.
    void previewShown(quint64 id);

private:
    void showPreview(const PreviewResult& result);

    ui::MainWindow& window_;
    cv::Mat source_;
    cv::Mat preview_;
    Engine* engine_ = nullptr;
    quint64 shownPreview_ = 0;
    quint64 firstPreviewOfImage_ = 0;
};

}  // namespace tessera::app
