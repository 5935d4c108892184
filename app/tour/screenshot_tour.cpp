// SPDX-License-Identifier: Apache-2.0
#include "app/tour/screenshot_tour.h"

#include "app/gui/calibration_controller.h"
#include "app/gui/compare_controller.h"
#include "app/gui/gui_controller.h"
#include "ui/compare_dialog.h"
#include "ui/main_window.h"
#include "ui/run_docks.h"
#include "ui/profiler_dock.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QTimer>

#include <cstdio>
#include <memory>

namespace tessera::app {

namespace {

constexpr int kSettleMs = 700;  // lets a change paint before it is grabbed
constexpr int kCompareTimeoutMs = 120000;
constexpr int kFirstPicturesTimeoutMs = 120000;  // the two previews the tour waits for

}  // namespace

ScreenshotTour::ScreenshotTour(ui::MainWindow& window, GuiController& controller, QString folder, QObject* parent)
    : QObject(parent), window_(window), controller_(controller), folder_(std::move(folder))
{
}

void ScreenshotTour::start()
{
    QDir().mkpath(folder_);
    // A preview that never comes (a filter the image refuses, a failing device) ends the tour
    // with an error instead of a wait without end.
    QTimer::singleShot(kFirstPicturesTimeoutMs, this, [this] {
        if (!started_) {
            std::fprintf(stderr, "tessera: --screenshots: no preview within %d s%s%s\n", kFirstPicturesTimeoutMs / 1000,
                         window_.lastError().isEmpty() ? "" : ": ", qPrintable(window_.lastError()));
            QApplication::exit(1);
        }
    });
    // The first preview also loads the GPUs' kernels and lays the bands out; the pictures show
    // the second, as a user sees it once a slider moves.
    connect(&controller_, &GuiController::previewShown, this, [this] {
        if (++previews_ == 1) {
            QTimer::singleShot(kSettleMs, this, [this] { controller_.previewStack(); });
        } else if (!started_) {
            started_ = true;
            QTimer::singleShot(kSettleMs, this, [this] { step(0); });
        }
    });
}

void ScreenshotTour::shoot(const QString& name)
{
    const QString path = QDir(folder_).filePath(name);
    if (!window_.grab().save(path, "PNG")) {
        std::fprintf(stderr, "tessera: could not save %s\n", qPrintable(path));
        failed_ = true;
    } else {
        std::fprintf(stderr, "tessera: saved %s\n", qPrintable(path));
    }
}

void ScreenshotTour::measureDevices(const std::function<void()>& next)
{
    shoot(QStringLiteral("profiler.png"));
    window_.runDocks()->profilerDock()->hide();
    // The Devices dock on its own, tall enough to show every device.
    window_.runDocks()->deviceDock()->show();
    window_.runDocks()->deviceDock()->setFloating(true);
    window_.runDocks()->deviceDock()->resize(560, 1330);
    // Measure every device first, so the panel and the roofline show their ceilings.
    const QStringList keys = window_.runDocks()->enabledDevices();
    auto pending = std::make_shared<int>(static_cast<int>(keys.size()));
    if (*pending == 0) {
        next();
        return;
    }
    connect(&controller_.calibration(), &CalibrationController::measured, this, [this, pending, next] {
        if (--*pending == 0) {
            next();
        }
    });
    for (const QString& key : keys) {
        controller_.calibration().measure(key);
    }
}

void ScreenshotTour::runComparison()
{
    const QString devices = QDir(folder_).filePath(QStringLiteral("devices.png"));
    if (!window_.runDocks()->deviceDock()->grab().save(devices, "PNG")) {
        failed_ = true;
    } else {
        std::fprintf(stderr, "tessera: saved %s\n", qPrintable(devices));
    }
    window_.runDocks()->deviceDock()->setFloating(false);
    controller_.openCompare();
    CompareController* compare = controller_.compareController();
    auto* dialog = window_.findChild<ui::CompareDialog*>();
    auto* run = dialog != nullptr ? dialog->findChild<QAbstractButton*>(QStringLiteral("compareRun")) : nullptr;
    if (compare == nullptr || run == nullptr) {
        std::fprintf(stderr, "tessera: the comparison view did not open\n");
        failed_ = true;
        step(5);
        return;
    }
    connect(
        compare, &CompareController::finished, this,
        [this] { QTimer::singleShot(kSettleMs, this, [this] { step(4); }); }, Qt::SingleShotConnection);
    QTimer::singleShot(kCompareTimeoutMs, this, [this] {
        std::fprintf(stderr, "tessera: the comparison did not finish in time\n");
        failed_ = true;
        step(5);
    });
    run->click();
}

void ScreenshotTour::step(int index)
{
    const auto next = [this, index] { QTimer::singleShot(kSettleMs, this, [this, index] { step(index + 1); }); };
    switch (index) {
    case 0:
        shoot(QStringLiteral("preview.png"));
        window_.runDocks()->showTilesAction()->setChecked(true);
        next();
        return;
    case 1:
        shoot(QStringLiteral("tiles.png"));
        window_.runDocks()->showTilesAction()->setChecked(false);
        window_.runDocks()->profilerDock()->show();
        window_.runDocks()->profilerDock()->raise();
        next();
        return;
    case 2: measureDevices(next); return;
    case 3: runComparison(); return;
    case 4: {
        auto* dialog = window_.findChild<ui::CompareDialog*>();
        const QString path = QDir(folder_).filePath(QStringLiteral("compare.png"));
        if (dialog == nullptr || !dialog->grab().save(path, "PNG")) {
            failed_ = true;
        } else {
            std::fprintf(stderr, "tessera: saved %s\n", qPrintable(path));
        }
        step(5);
        return;
    }
    default: QApplication::exit(failed_ ? 1 : 0); return;
    }
}

}  // namespace tessera::app
