// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QString>

#include <functional>

namespace tessera::ui {
class MainWindow;
}  // namespace tessera::ui

namespace tessera::app {

class GuiController;

/// The pictures the user guide shows (docs/user-guide.md), taken by the app itself once the first
/// preview is in: the window with the preview, the same with the tile overlay, with the Profiler
/// dock, with the Devices dock, and the device comparison after a run (Tools > Compare Devices).
/// Each lands in a folder as a PNG; the application quits when the last one is saved (exit code 1
/// when one could not be saved or the comparison failed).
class ScreenshotTour : public QObject {
    Q_OBJECT

public:
    ScreenshotTour(ui::MainWindow& window, GuiController& controller, QString folder, QObject* parent = nullptr);

    /// Starts after the controller's next shown preview.
    void start();

private:
    void shoot(const QString& name);
    void step(int index);
    /// Step 2: the profiler shot, then the Devices dock floating on its own while every device
    /// is measured; next runs once all are.
    void measureDevices(const std::function<void()>& next);
    /// Step 3: the devices shot, then the comparison run; step 4 once it finishes (or step 5
    /// when it cannot open or does not finish in time).
    void runComparison();

    ui::MainWindow& window_;
    GuiController& controller_;
    QString folder_;
    bool failed_ = false;
    bool started_ = false;
    int previews_ = 0;
};

}  // namespace tessera::app
