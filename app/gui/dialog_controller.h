// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>

namespace tessera::ui {
class BatchDialog;
class CompareDialog;
class MainWindow;
}  // namespace tessera::ui

namespace tessera::app {
class BatchController;
class CalibrationController;
class CompareController;
}  // namespace tessera::app

namespace tessera::app::document {
class Document;
}  // namespace tessera::app::document

namespace tessera::app::gui {

class PreviewController;

/// The batch and device comparison dialogs, made on first use and offered the document's image
/// and stack. Everything passed in must outlive it. GUI thread only.
class DialogController : public QObject {
    Q_OBJECT

public:
    /// Opens the dialogs when the window asks for them.
    DialogController(ui::MainWindow& window, document::Document& document, const PreviewController& previews,
                     CalibrationController& calibration, QObject* parent = nullptr);
    ~DialogController() override;

    /// The comparison behind Tools > Compare Devices; null before the first openCompare().
    CompareController* compareController() const { return compare_; }

public slots:
    /// Shows the batch dialog (made on first use), offering the current stack and the devices.
    void openBatch();
    /// Shows the device comparison (made on first use) for the open image and the stack, on the
    /// devices the Devices dock allows.
    void openCompare();

private:
    ui::MainWindow& window_;
    document::Document& document_;
    const PreviewController& previews_;
    CalibrationController& calibration_;
    ui::BatchDialog* batchDialog_ = nullptr;      ///< child of the window, made by openBatch()
    BatchController* batch_ = nullptr;            ///< child of this controller
    ui::CompareDialog* compareDialog_ = nullptr;  ///< child of the window, made by openCompare()
    CompareController* compare_ = nullptr;        ///< child of this controller
};

}  // namespace tessera::app::gui
