// SPDX-License-Identifier: Apache-2.0
// MainWindow, the profiling part: the Profiler dock and View > Show Tiles, kept apart so that
// main_window.cpp stays about the window's frame.

#include "ui/image_view.h"
#include "ui/main_window.h"
#include "ui/make_action.h"
#include "ui/profiler_dock.h"

#include <QMenu>

#include <algorithm>

namespace tessera::ui {

void MainWindow::createProfilerDock()
{
    showTilesAction_ = makeAction(this, tr("Show &Tiles"), QStringLiteral("actionShowTiles"), QKeySequence(Qt::CTRL | Qt::Key_T),
                                  tr("Outline the tiles of the last run, tinted by the device that computed each"));
    showTilesAction_->setCheckable(true);
    connect(showTilesAction_, &QAction::toggled, view_, &ImageView::setTileOverlayVisible);
    // Next to Compare: both change what is drawn over the image.
    const QList<QAction*> actions = viewMenu_->actions();
    const qsizetype compare = actions.indexOf(compareAction_);
    viewMenu_->insertAction(compare >= 0 && compare + 1 < actions.size() ? actions[compare + 1] : nullptr, showTilesAction_);

    profilerDock_ = new ProfilerDock(this);
    // The timeline wants width: below the image, out of the way until asked for. The right-hand
    // docks keep the window's full height, so the profiler never covers the parameters.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, profilerDock_);
    profilerDock_->hide();
    // Opened for the first time, a modest height: a third of the window at most.
    connect(profilerDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && !profilerDock_->isFloating() && profilerDock_->height() > height() / 3) {
            resizeDocks({profilerDock_}, {std::max(180, height() / 3)}, Qt::Vertical);
        }
    });
    profilerDock_->toggleViewAction()->setObjectName(QStringLiteral("actionShowProfiler"));
    viewMenu_->addAction(profilerDock_->toggleViewAction());
}

void MainWindow::setTimingRecords(const std::vector<values::TimingRecord>& records, const QString& title)
{
    profilerDock_->setRecords(records, title);
    view_->setTileOverlay(records);
}

}  // namespace tessera::ui
