// SPDX-License-Identifier: Apache-2.0
#include "ui/main_window.h"

#include "ui/device_panel.h"
#include "ui/display_menu.h"
#include "ui/document_actions.h"
#include "ui/filter_dock.h"
#include "ui/help_menu.h"
#include "ui/image_view.h"
#include "ui/kernel_dock.h"
#include "ui/make_action.h"
#include "ui/profiler_dock.h"
#include "ui/recent_files.h"
#include "ui/wheel_guard.h"
#include "ui/window_status.h"
#include "ui/zoom_field.h"

#include <QAction>
#include <QSignalBlocker>
#include <QUndoStack>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>

#include <algorithm>

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

    createActions();
    createMenus();
    createToolBar();
    createStatusBar();
    createFilterDock();
    createDeviceDock();
    createProfilerDock();
    createHabits();
    updateViewActions();
    restoreWindowState();
}

MainWindow::~MainWindow() = default;

void MainWindow::createFilterDock()
{
    filterDock_ = new FilterDock(this);
    addDockWidget(Qt::RightDockWidgetArea, filterDock_);
    kernelDock_ = new KernelDock(filterDock_->stack(), this);
    addDockWidget(Qt::RightDockWidgetArea, kernelDock_);
    splitDockWidget(filterDock_, kernelDock_, Qt::Vertical);
    viewMenu_->addSeparator();
    viewMenu_->addAction(filterDock_->toggleViewAction());
    viewMenu_->addAction(kernelDock_->toggleViewAction());
}

void MainWindow::createDeviceDock()
{
    deviceDock_ = new QDockWidget(tr("Devices"), this);
    deviceDock_->setObjectName(QStringLiteral("deviceDock"));
    devicePanel_ = new DevicePanel(deviceDock_);
    deviceDock_->setWidget(devicePanel_);
    connect(devicePanel_, &DevicePanel::enabledDevicesChanged, this, &MainWindow::enabledDevicesChanged);
    connect(devicePanel_, &DevicePanel::refreshRequested, this, &MainWindow::deviceRefreshRequested);
    // A tab behind the kernel editor, so the default window keeps its room for the image.
    tabifyDockWidget(kernelDock_, deviceDock_);
    kernelDock_->raise();
    deviceDock_->toggleViewAction()->setObjectName(QStringLiteral("actionShowDevices"));
    viewMenu_->addAction(deviceDock_->toggleViewAction());
}

QStringList MainWindow::enabledDevices() const
{
    return devicePanel_->enabledDevices();
}

void MainWindow::setDevices(const values::DeviceSnapshot& snapshot)
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

FilterPanel* MainWindow::filterPanel() const
{
    return filterDock_->panel();
}

FilterStack* MainWindow::filterStack() const
{
    return filterDock_->stack();
}

QStringList MainWindow::recentFiles() const
{
    return recent_->files();
}

void MainWindow::showImage(const QImage& image, const QString& path, const QString& description)
{
    view_->setImage(image);
    currentPath_ = path;
    documents_->setDocumentPath(path);
    const QString name = QFileInfo(path).fileName();
    setWindowTitle(name.isEmpty() ? QStringLiteral("Tessera") : QStringLiteral("%1[*] \u2014 Tessera").arg(name));
    setWindowModified(false);
    status_->set(WindowStatus::ImageInfo, QStringLiteral("%1 \u00d7 %2 px \u00b7 %3").arg(image.width()).arg(image.height()).arg(description));
    updateViewActions();
    if (!path.isEmpty()) {
        recent_->add(path);
    }
    status_->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
}

void MainWindow::showPreview(const QImage& image, const QString& status)
{
    if (!view_->hasImage()) {
        return;  // the image was closed while the preview was computed
    }
    view_->replaceImage(image);
    view_->setPatch(QImage(), QPoint());
    compareAction_->setEnabled(view_->hasOriginal());
    status_->set(WindowStatus::Preview, status);
}

void MainWindow::showPreviewPatch(const QImage& patch, QPoint at, const QString& status)
{
    if (!view_->hasImage()) {
        return;
    }
    view_->setPatch(patch, at);
    compareAction_->setEnabled(view_->hasOriginal());
    status_->set(WindowStatus::Preview, status);
}

QString MainWindow::previewStatus() const
{
    return status_->text(WindowStatus::Preview);
}

void MainWindow::setDisplayStatus(const QString& text)
{
    status_->set(WindowStatus::Display, text.isEmpty() ? QString() : tr("Display: %1").arg(text));
}

void MainWindow::setPixelReadout(const QString& text)
{
    status_->set(WindowStatus::Pixel, text);
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

QString MainWindow::preferredDevice() const
{
    return PreferencesDialog::storedDevice();
}

void MainWindow::setDeviceOptions(const std::vector<DeviceOption>& options)
{
    deviceOptions_ = options;
}

void MainWindow::showPreferences()
{
    auto* dialog = new PreferencesDialog(deviceOptions_, this);
    connect(dialog, &PreferencesDialog::deviceChanged, this, &MainWindow::preferredDeviceChanged);
    dialog->open();
}

void MainWindow::setComputeSummary(const QString& summary)
{
    status_->set(WindowStatus::Compute, summary);
}

void MainWindow::setUndoStack(QUndoStack* stack)
{
    connect(undoAction_, &QAction::triggered, stack, &QUndoStack::undo);
    connect(redoAction_, &QAction::triggered, stack, &QUndoStack::redo);
    connect(stack, &QUndoStack::canUndoChanged, undoAction_, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, redoAction_, &QAction::setEnabled);
    connect(stack, &QUndoStack::undoTextChanged, undoAction_,
            [this](const QString& text) { undoAction_->setText(text.isEmpty() ? tr("&Undo") : tr("&Undo %1").arg(text)); });
    connect(stack, &QUndoStack::redoTextChanged, redoAction_,
            [this](const QString& text) { redoAction_->setText(text.isEmpty() ? tr("&Redo") : tr("&Redo %1").arg(text)); });
    undoAction_->setEnabled(stack->canUndo());
    redoAction_->setEnabled(stack->canRedo());
}

void MainWindow::createActions()
{
    documents_ = new DocumentActions(this);
    connect(documents_, &DocumentActions::openRequested, this, &MainWindow::openRequested);
    documents_->setOpenGate([this] { return mayDiscardDocument(tr("open another image")); });
    connect(documents_, &DocumentActions::saveRequested, this, &MainWindow::saveRequested);
    connect(documents_, &DocumentActions::exportRequested, this, &MainWindow::exportRequested);
    connect(documents_, &DocumentActions::loadPresetRequested, this, &MainWindow::loadPresetRequested);
    connect(documents_, &DocumentActions::savePresetRequested, this, &MainWindow::savePresetRequested);
    compareAction_ = makeAction(this, tr("&Compare Before/After"), QStringLiteral("actionCompare"),
                                QKeySequence(Qt::CTRL | Qt::Key_B),
                                tr("Show the original left of a draggable divider, the preview right of it"));
    compareAction_->setCheckable(true);
    compareAction_->setEnabled(false);
    connect(compareAction_, &QAction::toggled, view_, &ImageView::setSplitEnabled);
    connect(view_, &ImageView::splitEnabledChanged, compareAction_, [this](bool on) {
        const QSignalBlocker block(compareAction_);
        compareAction_->setChecked(on);
    });
    applyAction_ = makeAction(this, tr("&Apply Filters"), QStringLiteral("actionApply"), QKeySequence(Qt::CTRL | Qt::Key_Return),
                              tr("Apply the enabled filters of the stack to the image and empty the stack (undoable)"));
    connect(applyAction_, &QAction::triggered, this, &MainWindow::applyRequested);
    undoAction_ = makeAction(this, tr("&Undo"), QStringLiteral("actionUndo"), QKeySequence::Undo);
    redoAction_ = makeAction(this, tr("&Redo"), QStringLiteral("actionRedo"), QKeySequence::Redo);
    for (QAction* pending : {undoAction_, redoAction_, applyAction_}) {
        pending->setEnabled(false);
    }

    quitAction_ = makeAction(this, tr("&Quit"), QStringLiteral("actionQuit"), QKeySequence::Quit);
    quitAction_->setMenuRole(QAction::QuitRole);
    // close() rather than quit() so the window state is saved on the way out.
    connect(quitAction_, &QAction::triggered, this, &QWidget::close);

    zoomInAction_ = makeAction(this, tr("Zoom &In"), QStringLiteral("actionZoomIn"));
    // Ctrl+= as well: on most layouts "+" needs Shift.
    zoomInAction_->setShortcuts({QKeySequence(QKeySequence::ZoomIn), QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    connect(zoomInAction_, &QAction::triggered, view_, &ImageView::zoomIn);
    zoomOutAction_ = makeAction(this, tr("Zoom &Out"), QStringLiteral("actionZoomOut"), QKeySequence::ZoomOut);
    connect(zoomOutAction_, &QAction::triggered, view_, &ImageView::zoomOut);
    fitAction_ = makeAction(this, tr("&Fit to Window"), QStringLiteral("actionFitToWindow"), QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(fitAction_, &QAction::triggered, view_, &ImageView::fitToWindow);
    actualSizeAction_ = makeAction(this, tr("&Actual Size"), QStringLiteral("actionActualSize"), QKeySequence(Qt::CTRL | Qt::Key_1));
    connect(actualSizeAction_, &QAction::triggered, view_, &ImageView::actualSize);

    preferencesAction_ = makeAction(this, tr("&Preferences\u2026"), QStringLiteral("actionPreferences"),
                                    QKeySequence::Preferences, tr("Where previews run"));
    preferencesAction_->setMenuRole(QAction::PreferencesRole);
    connect(preferencesAction_, &QAction::triggered, this, &MainWindow::showPreferences);
    deviceOptions_ = PreferencesDialog::basicDeviceOptions();
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(documents_->open());
    QMenu* recentMenu = file->addMenu(tr("Open &Recent"));
    recentMenu->setObjectName(QStringLiteral("recentMenu"));
    recent_ = new RecentFiles(recentMenu, this);
    connect(recent_, &RecentFiles::fileChosen, this, &MainWindow::requestOpen);
    file->addSeparator();
    file->addAction(documents_->save());
    file->addAction(documents_->saveAs());
    file->addAction(documents_->exportImage());
    file->addSeparator();
    file->addAction(quitAction_);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(undoAction_);
    edit->addAction(redoAction_);
    edit->addSeparator();
    edit->addAction(preferencesAction_);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    viewMenu_ = view;
    view->addAction(zoomInAction_);
    view->addAction(zoomOutAction_);
    view->addSeparator();
    view->addAction(fitAction_);
    view->addAction(actualSizeAction_);
    view->addSeparator();
    view->addAction(compareAction_);
    displayMenu_ = new DisplayMenu(view, this);

    QMenu* filters = menuBar()->addMenu(tr("F&ilters"));
    filters->addAction(applyAction_);
    filters->addSeparator();
    filters->addAction(documents_->loadPreset());
    filters->addAction(documents_->savePreset());

    QMenu* batch = menuBar()->addMenu(tr("&Batch"));
    // Ctrl+B is Compare Before/After already; the batch takes Ctrl+Shift+B.
    QAction* runBatch = makeAction(this, tr("&Run Batch\u2026"), QStringLiteral("actionRunBatch"),
                                   QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B),
                                   tr("Filter many images with the current stack or a preset"));
    connect(runBatch, &QAction::triggered, this, &MainWindow::batchRequested);
    batch->addAction(runBatch);

    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    QAction* compareDevices = makeAction(this, tr("&Compare Devices\u2026"), QStringLiteral("actionCompareDevices"),
                                         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
                                         tr("Time the filter stack on each GPU, all GPUs and the CPU path"));
    connect(compareDevices, &QAction::triggered, this, &MainWindow::compareRequested);
    tools->addAction(compareDevices);

    help_ = new HelpMenu(this, menuBar()->addMenu(tr("&Help")), *prompts_);
    connect(help_, &HelpMenu::sampleChosen, this, &MainWindow::requestOpen);
}

void MainWindow::createToolBar()
{
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));  // named so saveState() can restore it
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setMovable(false);
    bar->addAction(documents_->open());
    bar->addSeparator();
    bar->addAction(zoomOutAction_);
    bar->addAction(zoomInAction_);
    bar->addAction(fitAction_);
    bar->addAction(actualSizeAction_);
    zoomField_ = new ZoomField(bar);
    bar->addWidget(zoomField_);
    connect(view_, &ImageView::zoomChanged, zoomField_, &ZoomField::showZoom);
    connect(zoomField_, &ZoomField::zoomRequested, view_, &ImageView::setZoom);
}

void MainWindow::createStatusBar()
{
    status_ = new WindowStatus(statusBar());
}

void MainWindow::restoreWindowState()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        resize(1200, 800);
    }
    if (!restoreState(settings.value(kStateKey).toByteArray())) {
        // First start: docks wide enough for their rows, the parameters given more height than
        // the kernel. Set before the first layout, so that nothing moves once an image is shown.
        const int docks = std::max(400, height() - 110);
        resizeDocks({filterDock_}, {std::clamp(width() / 3, 400, 480)}, Qt::Horizontal);
        resizeDocks({filterDock_, kernelDock_}, {docks * 11 / 20, docks * 9 / 20}, Qt::Vertical);
    }
}

void MainWindow::saveWindowState() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
}

void MainWindow::updateViewActions()
{
    const bool image = view_->hasImage();
    for (QAction* action : {zoomInAction_, zoomOutAction_, fitAction_, actualSizeAction_, applyAction_}) {
        action->setEnabled(image);
    }
    zoomField_->setEnabled(image);
    if (image) {
        zoomField_->showZoom(view_->zoomFactor());
    } else {
        zoomField_->clear();
    }
    documents_->setImageOpen(image);
}

}  // namespace tessera::ui
