#include "ui/main_window.h"

#include "ui/display_menu.h"
#include "ui/file_dialogs.h"
#include "ui/filter_dock.h"
#include "ui/image_view.h"
#include "ui/recent_files.h"

#include <QAction>
#include <QSignalBlocker>
#include <QUndoStack>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

namespace tessera::ui {

namespace {

const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
constexpr int kStatusMessageMs = 15000;

const QString kImageFilter = QStringLiteral(
    "Images (*.png *.jpg *.jpeg *.bmp *.tif *.tiff *.webp *.exr *.pgm *.ppm *.pnm);;All files (*)");
const QString kWritableImageFilter = QStringLiteral(
    "PNG (*.png);;TIFF (*.tif *.tiff);;JPEG (*.jpg *.jpeg);;BMP (*.bmp);;WebP (*.webp);;OpenEXR (*.exr)");
const QString kPresetFilter = QStringLiteral("Tessera presets (*.json);;All files (*)");

/// The first local file among the dropped URLs, or an empty string.
QString droppedFile(const QMimeData* mime)
{
    if (mime == nullptr || !mime->hasUrls()) {
        return {};
    }
    for (const QUrl& url : mime->urls()) {
        if (url.isLocalFile()) {
            return url.toLocalFile();
        }
    }
    return {};
}

QAction* makeAction(QObject* parent, const QString& text, const QString& name)
{
    auto* action = new QAction(text, parent);
    action->setObjectName(name);
    return action;
}

/// An entry for a feature that does not exist yet: visible so the menus keep their final
/// shape, disabled so nothing pretends to work.
QAction* addPending(QMenu* menu, const QString& text, const QString& name)
{
    QAction* action = menu->addAction(text);
    action->setObjectName(name);
    action->setEnabled(false);
    return action;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), view_(new ImageView(this))
{
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
    connect(view_, &ImageView::zoomChanged, this, &MainWindow::updateZoomLabel);
    updateViewActions();
    restoreWindowState();
}

MainWindow::~MainWindow() = default;

void MainWindow::createFilterDock()
{
    filterDock_ = new FilterDock(this);
    addDockWidget(Qt::RightDockWidgetArea, filterDock_);
    viewMenu_->addSeparator();
    viewMenu_->addAction(filterDock_->toggleViewAction());
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

QString MainWindow::aboutText() const
{
    return formatAboutText(about_);
}

void MainWindow::showImage(const QImage& image, const QString& path, const QString& description)
{
    view_->setImage(image);
    currentPath_ = path;
    const QString name = QFileInfo(path).fileName();
    setWindowTitle(name.isEmpty() ? QStringLiteral("Tessera") : QStringLiteral("%1[*] \u2014 Tessera").arg(name));
    setWindowModified(false);
    imageInfoLabel_->setText(QStringLiteral("%1 \u00d7 %2 px \u00b7 %3").arg(image.width()).arg(image.height()).arg(description));
    updateZoomLabel(view_->zoomFactor());
    updateViewActions();
    if (!path.isEmpty()) {
        recent_->add(path);
    }
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), kStatusMessageMs);
}

void MainWindow::showPreview(const QImage& image, const QString& status)
{
    if (!view_->hasImage()) {
        return;  // the image was closed while the preview was computed
    }
    view_->replaceImage(image);
    compareAction_->setEnabled(view_->hasOriginal());
    previewLabel_->setText(status);
    previewLabel_->setToolTip(status);
}

QString MainWindow::previewStatus() const
{
    return previewLabel_->text();
}

void MainWindow::setDisplayStatus(const QString& text)
{
    displayLabel_->setText(text.isEmpty() ? QString() : tr("Display: %1").arg(text));
    displayLabel_->setVisible(!text.isEmpty());
}

void MainWindow::setPixelReadout(const QString& text)
{
    pixelLabel_->setText(text);
    pixelLabel_->setVisible(!text.isEmpty());
}

void MainWindow::showNotice(const QString& message)
{
    lastError_ = message;
    statusBar()->showMessage(message, kStatusMessageMs);
}

void MainWindow::showMessage(const QString& message)
{
    statusBar()->showMessage(message, kStatusMessageMs);
}

void MainWindow::showError(const QString& title, const QString& message)
{
    lastError_ = message;
    statusBar()->showMessage(message, kStatusMessageMs);
    if (modalDialogs_) {
        QMessageBox::warning(this, title, message);
    }
}

void MainWindow::setAboutInfo(const AboutInfo& info)
{
    about_ = info;
}

void MainWindow::setComputeSummary(const QString& summary)
{
    computeLabel_->setText(summary);
    computeLabel_->setToolTip(summary);
}

void MainWindow::chooseFileToOpen()
{
    const QString path = askFileToOpen(this, tr("Open Image"), kImageFilter);
    if (!path.isEmpty()) {
        emit openRequested(path);
    }
}

void MainWindow::showAbout()
{
    if (modalDialogs_) {
        QMessageBox::about(this, tr("About Tessera"), aboutText());
    }
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

void MainWindow::setDocumentPath(const QString& path)
{
    currentPath_ = path;
    const QString name = QFileInfo(path).fileName();
    setWindowTitle(name.isEmpty() ? QStringLiteral("Tessera") : QStringLiteral("%1[*] \u2014 Tessera").arg(name));
    if (!path.isEmpty()) {
        recent_->add(path);
    }
}

void MainWindow::setDocumentModified(bool modified)
{
    setWindowModified(modified);
}

void MainWindow::chooseFileToSave()
{
    if (currentPath_.isEmpty()) {
        return;
    }
    const QString path = askFileToSave(this, tr("Save Image As"), currentPath_, kWritableImageFilter);
    if (!path.isEmpty()) {
        emit saveRequested(path);
    }
}

void MainWindow::chooseFileToExport()
{
    if (currentPath_.isEmpty()) {
        return;
    }
    const QFileInfo info(currentPath_);
    const QString name = QStringLiteral("%1-filtered.%2").arg(info.completeBaseName(), info.suffix());
    const QString path = askFileToSave(this, tr("Export Image"), name, kWritableImageFilter);
    if (!path.isEmpty()) {
        emit exportRequested(path);
    }
}

void MainWindow::chooseFileToLoadPreset()
{
    const QString path = askFileToOpen(this, tr("Load Preset"), kPresetFilter);
    if (!path.isEmpty()) {
        emit loadPresetRequested(path);
    }
}

void MainWindow::chooseFileToSavePreset()
{
    const QString path = askFileToSave(this, tr("Save Stack as Preset"), QStringLiteral("stack.json"), kPresetFilter);
    if (!path.isEmpty()) {
        emit savePresetRequested(path);
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (isWindowModified() && modalDialogs_) {
        const auto answer = QMessageBox::question(
            this, tr("Unsaved changes"),
            tr("The image has filters applied that are not saved. Save them before closing?"),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Cancel) {
            event->ignore();
            return;
        }
        if (answer == QMessageBox::Save) {
            emit saveRequested(currentPath_);
            if (isWindowModified()) {
                event->ignore();  // the save failed; its error is on screen
                return;
            }
        }
    }
    saveWindowState();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!droppedFile(event->mimeData()).isEmpty()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QString path = droppedFile(event->mimeData());
    if (path.isEmpty()) {
        return;
    }
    event->acceptProposedAction();
    emit openRequested(path);
}

void MainWindow::createActions()
{
    openAction_ = makeAction(this, tr("&Open\u2026"), QStringLiteral("actionOpen"));
    openAction_->setShortcut(QKeySequence::Open);
    openAction_->setIcon(QIcon::fromTheme(QStringLiteral("document-open"),
                                          style()->standardIcon(QStyle::SP_DialogOpenButton)));
    openAction_->setStatusTip(tr("Open an image file"));
    connect(openAction_, &QAction::triggered, this, &MainWindow::chooseFileToOpen);

    // Save and Save As write the image with its filters applied; they need an open image.
    saveAction_ = makeAction(this, tr("&Save"), QStringLiteral("actionSave"));
    saveAction_->setShortcut(QKeySequence::Save);
    connect(saveAction_, &QAction::triggered, this, [this] {
        if (currentPath_.isEmpty()) {
            chooseFileToSave();
        } else {
            emit saveRequested(currentPath_);
        }
    });
    saveAsAction_ = makeAction(this, tr("Save &As\u2026"), QStringLiteral("actionSaveAs"));
    saveAsAction_->setShortcut(QKeySequence::SaveAs);
    connect(saveAsAction_, &QAction::triggered, this, &MainWindow::chooseFileToSave);
    exportAction_ = makeAction(this, tr("&Export\u2026"), QStringLiteral("actionExport"));
    exportAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    exportAction_->setStatusTip(tr("Write the image with the filter stack applied to another file; the open image stays as it is"));
    connect(exportAction_, &QAction::triggered, this, &MainWindow::chooseFileToExport);
    compareAction_ = makeAction(this, tr("&Compare Before/After"), QStringLiteral("actionCompare"));
    compareAction_->setCheckable(true);
    compareAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    compareAction_->setStatusTip(tr("Show the original left of a draggable divider, the preview right of it"));
    compareAction_->setEnabled(false);
    connect(compareAction_, &QAction::toggled, view_, &ImageView::setSplitEnabled);
    connect(view_, &ImageView::splitEnabledChanged, compareAction_, [this](bool on) {
        const QSignalBlocker block(compareAction_);
        compareAction_->setChecked(on);
    });
    applyAction_ = makeAction(this, tr("&Apply Filters"), QStringLiteral("actionApply"));
    applyAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    applyAction_->setStatusTip(tr("Apply the enabled filters of the stack to the image and empty the stack (undoable)"));
    connect(applyAction_, &QAction::triggered, this, &MainWindow::applyRequested);
    loadPresetAction_ = makeAction(this, tr("&Load Preset\u2026"), QStringLiteral("actionLoadPreset"));
    loadPresetAction_->setStatusTip(tr("Replace the filter stack by a preset file (undoable)"));
    connect(loadPresetAction_, &QAction::triggered, this, &MainWindow::chooseFileToLoadPreset);
    savePresetAction_ = makeAction(this, tr("&Save Stack as Preset\u2026"), QStringLiteral("actionSavePreset"));
    savePresetAction_->setStatusTip(tr("Write the enabled filters of the stack to a preset file"));
    connect(savePresetAction_, &QAction::triggered, this, &MainWindow::chooseFileToSavePreset);
    undoAction_ = makeAction(this, tr("&Undo"), QStringLiteral("actionUndo"));
    undoAction_->setShortcut(QKeySequence::Undo);
    redoAction_ = makeAction(this, tr("&Redo"), QStringLiteral("actionRedo"));
    redoAction_->setShortcut(QKeySequence::Redo);
    for (QAction* pending : {saveAction_, saveAsAction_, exportAction_, undoAction_, redoAction_, applyAction_}) {
        pending->setEnabled(false);
    }

    quitAction_ = makeAction(this, tr("&Quit"), QStringLiteral("actionQuit"));
    quitAction_->setShortcut(QKeySequence::Quit);
    quitAction_->setMenuRole(QAction::QuitRole);
    // close() rather than quit() so the window state is saved on the way out.
    connect(quitAction_, &QAction::triggered, this, &QWidget::close);

    zoomInAction_ = makeAction(this, tr("Zoom &In"), QStringLiteral("actionZoomIn"));
    // Ctrl+= as well: on most layouts "+" needs Shift.
    zoomInAction_->setShortcuts({QKeySequence(QKeySequence::ZoomIn), QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    connect(zoomInAction_, &QAction::triggered, view_, &ImageView::zoomIn);
    zoomOutAction_ = makeAction(this, tr("Zoom &Out"), QStringLiteral("actionZoomOut"));
    zoomOutAction_->setShortcut(QKeySequence::ZoomOut);
    connect(zoomOutAction_, &QAction::triggered, view_, &ImageView::zoomOut);
    fitAction_ = makeAction(this, tr("&Fit to Window"), QStringLiteral("actionFitToWindow"));
    fitAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(fitAction_, &QAction::triggered, view_, &ImageView::fitToWindow);
    actualSizeAction_ = makeAction(this, tr("&Actual Size"), QStringLiteral("actionActualSize"));
    actualSizeAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    connect(actualSizeAction_, &QAction::triggered, view_, &ImageView::actualSize);

    aboutAction_ = makeAction(this, tr("&About Tessera"), QStringLiteral("actionAbout"));
    aboutAction_->setMenuRole(QAction::AboutRole);
    connect(aboutAction_, &QAction::triggered, this, &MainWindow::showAbout);
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(openAction_);
    QMenu* recentMenu = file->addMenu(tr("Open &Recent"));
    recentMenu->setObjectName(QStringLiteral("recentMenu"));
    recent_ = new RecentFiles(recentMenu, this);
    connect(recent_, &RecentFiles::fileChosen, this, &MainWindow::openRequested);
    file->addSeparator();
    file->addAction(saveAction_);
    file->addAction(saveAsAction_);
    file->addAction(exportAction_);
    file->addSeparator();
    file->addAction(quitAction_);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(undoAction_);
    edit->addAction(redoAction_);

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
    filters->addAction(loadPresetAction_);
    filters->addAction(savePresetAction_);

    QMenu* batch = menuBar()->addMenu(tr("&Batch"));
    addPending(batch, tr("&Run Batch\u2026"), QStringLiteral("actionRunBatch"));

    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    addPending(tools, tr("&Compare Devices\u2026"), QStringLiteral("actionCompareDevices"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(aboutAction_);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createToolBar()
{
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));  // named so saveState() can restore it
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setMovable(false);
    bar->addAction(openAction_);
    bar->addSeparator();
    bar->addAction(zoomOutAction_);
    bar->addAction(zoomInAction_);
    bar->addAction(fitAction_);
    bar->addAction(actualSizeAction_);
}

void MainWindow::createStatusBar()
{
    auto addLabel = [this](const QString& name, const QString& tip) {
        auto* label = new QLabel(this);
        label->setObjectName(name);
        label->setToolTip(tip);
        label->setContentsMargins(8, 0, 8, 0);
        statusBar()->addPermanentWidget(label);
        return label;
    };
    pixelLabel_ = addLabel(QStringLiteral("pixelLabel"), tr("Position and values of the pixel under the cursor"));
    pixelLabel_->setVisible(false);
    imageInfoLabel_ = addLabel(QStringLiteral("imageInfoLabel"), tr("Image size and pixel format"));
    displayLabel_ = addLabel(QStringLiteral("displayLabel"),
                             tr("What black and white stand for on screen (View > Display Mapping); the data is not changed"));
    displayLabel_->setVisible(false);
    zoomLabel_ = addLabel(QStringLiteral("zoomLabel"), tr("Zoom"));
    previewLabel_ = addLabel(QStringLiteral("previewLabel"), tr("Where the last preview ran and how long it took"));
    computeLabel_ = addLabel(QStringLiteral("computeLabel"), QString());
    computeLabel_->setText(tr("Compute: not checked yet"));
    updateZoomLabel(view_->zoomFactor());
}

void MainWindow::restoreWindowState()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        resize(1200, 800);
    }
    restoreState(settings.value(kStateKey).toByteArray());
}

void MainWindow::saveWindowState() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
}

void MainWindow::updateZoomLabel(double factor)
{
    zoomLabel_->setText(view_->hasImage() ? tr("Zoom %1%").arg(qRound(factor * 1000.0) / 10.0) : QString());
}

void MainWindow::updateViewActions()
{
    const bool image = view_->hasImage();
    for (QAction* action : {zoomInAction_, zoomOutAction_, fitAction_, actualSizeAction_, saveAction_,
                            saveAsAction_, exportAction_, applyAction_}) {
        action->setEnabled(image);
    }
}

}  // namespace tessera::ui
