#pragma once

#include <opencv2/core/mat.hpp>

#include <QObject>
#include <QString>

namespace tessera::ui {
class MainWindow;
}

namespace tessera::app {

/// Connects the main window to image I/O and device information. Loads images synchronously
/// on the GUI thread for now; owns no GPU state. The window must outlive the controller.
class GuiController : public QObject {
    Q_OBJECT

public:
    /// Connects to window's requests; call refreshDeviceInfo() to fill About and the status bar.
    explicit GuiController(ui::MainWindow& window, QObject* parent = nullptr);

    /// The image as read from the last file that opened (empty before the first one).
    const cv::Mat& sourceImage() const { return source_; }

public slots:
    /// Reads path and shows it, or shows the error; never throws.
    void openImage(const QString& path);
    /// Enumerates CUDA devices and passes versions, device lines and the compute summary to the window.
    void refreshDeviceInfo();

private:
    ui::MainWindow& window_;
    cv::Mat source_;
};

}  // namespace tessera::app
