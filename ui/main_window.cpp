// SPDX-License-Identifier: Apache-2.0
#include "ui/main_window.h"

#include "ui/document_actions.h"
#include "ui/filter_dock.h"
#include "ui/filter_stack.h"
#include "ui/help_menu.h"
#include "ui/image_view.h"
#include "ui/kernel_dock.h"
#include "ui/recent_files.h"
#include "ui/run_docks.h"
#include "ui/screen_fit.h"
#include "ui/wheel_guard.h"
#include "ui/window_menus.h"
#include "ui/window_status.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

#include <algorithm>
#include <utility>

namespace tessera::ui {

namespace {

const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), view_(new ImageView(this)), prompts_(std::make_unique<DocumentPrompts>(this))
{
    // Before any dock exists: the guard sees every field as it is first polished.
    new WheelGuard(this);
    setWindowTitle(QStringLiteral("Tessera"));
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    setCentralWidget(view_);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks | QMainWindow::AllowNestedDocks);

    menus_ = new WindowMenus(this, view_, *prompts_);
    connectDocumentActions();
    status_ = new WindowStatus(statusBar());
    createFilterDocks();
    runDocks_ = new RunDocks(this, view_, kernelDock_, menus_->viewMenu(), menus_->compareAction());
    menus_->setImageOpen(false);
    restoreWindowState();
}

MainWindow::~MainWindow() = default;

void MainWindow::connectDocumentActions()
{
    DocumentActions* documents = menus_->documents();
    connect(documents, &DocumentActions::openRequested, this, &MainWindow::openRequested);
    documents->setOpenGate([this] { return mayDiscardDocument(tr("open another image")); });
    connect(documents, &DocumentActions::saveRequested, this, &MainWindow::saveRequested);
    connect(documents, &DocumentActions::exportRequested, this, &MainWindow::exportRequested);
    connect(documents, &DocumentActions::loadPresetRequested, this, &MainWindow::loadPresetRequested);
    connect(documents, &DocumentActions::savePresetRequested, this, &MainWindow::savePresetRequested);
    connect(menus_->recent(), &RecentFiles::fileChosen, this, &MainWindow::requestOpen);
    connect(menus_->help(), &HelpMenu::sampleChosen, this, &MainWindow::requestOpen);
}

void MainWindow::createFilterDocks()
{
    filterDock_ = new FilterDock(this);
    addDockWidget(Qt::RightDockWidgetArea, filterDock_);
    kernelDock_ = new KernelDock(filterDock_->stack(), this);
    addDockWidget(Qt::RightDockWidgetArea, kernelDock_);
    splitDockWidget(filterDock_, kernelDock_, Qt::Vertical);
    QMenu* view = menus_->viewMenu();
    view->addSeparator();
    view->addAction(filterDock_->toggleViewAction());
    view->addAction(kernelDock_->toggleViewAction());
    QMenu* add = filterStack()->addMenu();
    add->setTitle(tr("&Add Filter"));
    add->menuAction()->setObjectName(QStringLiteral("actionAddFilter"));
    menus_->addFilterMenu(add);
}

FilterStack* MainWindow::filterStack() const
{
    return filterDock_->stack();
}

HelpMenu* MainWindow::help() const
{
    return menus_->help();
}

QStringList MainWindow::recentFiles() const
{
    return menus_->recent()->files();
}

void MainWindow::showImage(const QImage& image, const QString& path, const QString& description)
{
    view_->setImage(image);
    setDocumentPath(path);
    setWindowModified(false);
    status_->set(WindowStatus::ImageInfo,
                 QStringLiteral("%1 \u00d7 %2 px \u00b7 %3").arg(image.width()).arg(image.height()).arg(description));
    menus_->setImageOpen(view_->hasImage());
    status_->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
}

void MainWindow::showPreview(const QImage& image, const QString& status, QSize logicalSize)
{
    if (!view_->hasImage()) {
        return;  // the image was closed while the preview was computed
    }
    view_->replaceImage(image, logicalSize);
    view_->setPatch(QImage(), QPoint());
    menus_->compareAction()->setEnabled(view_->hasOriginal());
    status_->set(WindowStatus::Preview, status);
}

void MainWindow::showPreviewPatch(const QImage& patch, QPoint at, const QString& status)
{
    if (!view_->hasImage()) {
        return;
    }
    view_->setPatch(patch, at);
    menus_->compareAction()->setEnabled(view_->hasOriginal());
    status_->set(WindowStatus::Preview, status);
}

QString MainWindow::statusMessage() const
{
    return status_->message();
}

QString MainWindow::previewStatus() const
{
    return status_->text(WindowStatus::Preview);
}

void MainWindow::setDisplayStatus(const QString& text)
{
    status_->set(WindowStatus::Display, text.isEmpty() ? QString() : tr("Display: %1").arg(text));
}

void MainWindow::setPreviewBusy(bool busy)
{
    view_->setBusy(busy);
    const QString computing = tr("Preview: computing\u2026");
    if (busy) {
        status_->set(WindowStatus::Preview, computing);
    } else if (status_->text(WindowStatus::Preview) == computing) {
        status_->set(WindowStatus::Preview, tr("Preview: \u2013"));  // nothing came (failed or dropped)
    }
}

void MainWindow::setPixelReadout(const QString& text)
{
    status_->set(WindowStatus::Pixel, text);
}

void MainWindow::setComputeSummary(const QString& summary)
{
    status_->set(WindowStatus::Compute, summary);
}

void MainWindow::showNotice(const QString& message)
{
    lastError_ = message;
    status_->showMessage(message);
}

void MainWindow::showMessage(const QString& message)
{
    status_->showMessage(message);
}

void MainWindow::showError(const QString& title, const QString& message)
{
    lastError_ = message;
    status_->showMessage(message);
    if (prompts_->modalDialogsEnabled()) {
        QMessageBox::warning(this, title, message);
    }
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!std::exchange(shownOnce_, true)) {
        keepWithin(this, availableArea(this));
        restoreDocks();
    }
}

void MainWindow::restoreWindowState()
{
    QSettings settings;
    const QRect area = availableArea(this);
    if (restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        keepWithin(this, area);  // saved on a larger screen, or one no longer attached
    } else {
        resize(fittedSize(QSize(1200, 800), area));
    }
}

void MainWindow::restoreDocks()
{
    // Here rather than with the geometry: restored before the window has its final size, the
    // docks came back narrower than they were left, a little more after every restart.
    if (!restoreState(QSettings().value(kStateKey).toByteArray())) {
        // First start: docks wide enough for their rows, the column shared evenly by the
        // parameters and the kernel.
        const int docks = std::max(400, height() - 110);
        resizeDocks({filterDock_}, {std::clamp(width() / 3, 400, 480)}, Qt::Horizontal);
        resizeDocks({filterDock_, kernelDock_}, {docks / 2, docks - docks / 2}, Qt::Vertical);
    }
}

void MainWindow::saveWindowState() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    // A window never shown never had its docks restored: it keeps the layout that was saved.
    if (shownOnce_) {
        settings.setValue(kStateKey, saveState());
    }
}

}  // namespace tessera::ui
