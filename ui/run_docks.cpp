// SPDX-License-Identifier: Apache-2.0
#include "ui/run_docks.h"

#include "ui/device_panel.h"
#include "ui/image_view.h"
#include "ui/make_action.h"
#include "ui/profiler_dock.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

#include <algorithm>
#include <string>
#include <utility>

namespace tessera::ui {

RunDocks::RunDocks(QMainWindow* window, ImageView* view, QDockWidget* tabWith, QMenu* viewMenu, QAction* after)
    : QObject(window), window_(window), view_(view)
{
    createDeviceDock(tabWith, viewMenu);
    createProfilerDock(viewMenu, after);
}

void RunDocks::createDeviceDock(QDockWidget* tabWith, QMenu* viewMenu)
{
    deviceDock_ = new QDockWidget(tr("Devices"), window_);
    deviceDock_->setObjectName(QStringLiteral("deviceDock"));
    devicePanel_ = new DevicePanel(deviceDock_);
    deviceDock_->setWidget(devicePanel_);
    // A tab behind the kernel editor, so the default window keeps its room for the image.
    window_->tabifyDockWidget(tabWith, deviceDock_);
    tabWith->raise();
    deviceDock_->toggleViewAction()->setObjectName(QStringLiteral("actionShowDevices"));
    viewMenu->addAction(deviceDock_->toggleViewAction());
}

void RunDocks::createProfilerDock(QMenu* viewMenu, QAction* after)
{
    showTiles_ =
        makeAction(window_, tr("Show &Tiles"), QStringLiteral("actionShowTiles"), QKeySequence(Qt::CTRL | Qt::Key_T),
                   tr("Outline the tiles of the last run, tinted by the device that computed each"));
    showTiles_->setCheckable(true);
    connect(showTiles_, &QAction::toggled, view_, &ImageView::setTileOverlayVisible);
    // Next to Compare: both change what is drawn over the image.
    const QList<QAction*> actions = viewMenu->actions();
    const qsizetype at = actions.indexOf(after);
    viewMenu->insertAction(at >= 0 && at + 1 < actions.size() ? actions[at + 1] : nullptr, showTiles_);

    profilerDock_ = new ProfilerDock(window_);
    // The timeline wants width: below the image, out of the way until asked for. The right-hand
    // docks keep the window's full height, so the profiler never covers the parameters.
    window_->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    window_->addDockWidget(Qt::BottomDockWidgetArea, profilerDock_);
    profilerDock_->hide();
    // Opened for the first time, a modest height: a third of the window at most.
    connect(profilerDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        const int height = window_->height();
        if (visible && !profilerDock_->isFloating() && profilerDock_->height() > height / 3) {
            window_->resizeDocks({profilerDock_}, {std::max(180, height / 3)}, Qt::Vertical);
        }
    });
    profilerDock_->toggleViewAction()->setObjectName(QStringLiteral("actionShowProfiler"));
    viewMenu->addAction(profilerDock_->toggleViewAction());
}

QStringList RunDocks::enabledDevices() const
{
    return devicePanel_->enabledDevices();
}

void RunDocks::setDevices(const values::DeviceSnapshot& snapshot)
{
    // The Devices dock asks for a snapshot every second (free memory moves); the profiler needs
    // one only when the devices themselves change, so its views are not redrawn each time.
    const auto ids = [](const values::DeviceSnapshot& s) {
        std::vector<std::pair<values::DeviceId, std::string>> out;
        for (const values::DeviceInfo& d : s.devices) {
            out.emplace_back(d.id, d.name);
        }
        return out;
    };
    const bool changed = ids(devicePanel_->snapshot()) != ids(snapshot) || !profilerSawDevices_;
    devicePanel_->setSnapshot(snapshot);
    if (changed) {
        profilerDock_->setDevices(snapshot);
        profilerSawDevices_ = true;
    }
}

void RunDocks::setTimingRecords(const std::vector<values::TimingRecord>& records, const QString& title)
{
    profilerDock_->setRecords(records, title);
    view_->setTileOverlay(records);
}

}  // namespace tessera::ui
