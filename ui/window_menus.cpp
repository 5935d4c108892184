// SPDX-License-Identifier: Apache-2.0
#include "ui/window_menus.h"

#include "ui/display_menu.h"
#include "ui/document_actions.h"
#include "ui/help_menu.h"
#include "ui/image_view.h"
#include "ui/make_action.h"
#include "ui/recent_files.h"
#include "ui/zoom_field.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSignalBlocker>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

namespace tessera::ui {

WindowMenus::WindowMenus(QMainWindow* window, ImageView* view, DocumentPrompts& prompts)
    : QObject(window), window_(window), view_(view), prompts_(prompts)
{
    createActions();
    createMenus();
    createToolBar();
    createHabits();
}

void WindowMenus::createActions()
{
    documents_ = new DocumentActions(window_);
    compare_ = makeAction(window_, tr("&Compare Before/After"), QStringLiteral("actionCompare"),
                          QKeySequence(Qt::CTRL | Qt::Key_B),
                          tr("Show the original left of a draggable divider, the preview right of it"));
    compare_->setCheckable(true);
    compare_->setEnabled(false);
    connect(compare_, &QAction::toggled, view_, &ImageView::setSplitEnabled);
    connect(view_, &ImageView::splitEnabledChanged, compare_, [this](bool on) {
        const QSignalBlocker block(compare_);
        compare_->setChecked(on);
    });
    apply_ = makeAction(window_, tr("&Apply Filters"), QStringLiteral("actionApply"),
                        QKeySequence(Qt::CTRL | Qt::Key_Return),
                        tr("Apply the enabled filters of the stack to the image and empty the stack (undoable)"));
    connect(apply_, &QAction::triggered, this, &WindowMenus::applyRequested);
    undo_ = makeAction(window_, tr("&Undo"), QStringLiteral("actionUndo"), QKeySequence::Undo);
    redo_ = makeAction(window_, tr("&Redo"), QStringLiteral("actionRedo"), QKeySequence::Redo);
    copyStack_ = makeAction(window_, tr("&Copy Stack"), QStringLiteral("actionCopyStack"),
                            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                            tr("Copy the enabled filters of the stack, to paste them on another image"));
    pasteStack_ = makeAction(window_, tr("&Paste Stack"), QStringLiteral("actionPasteStack"),
                             QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V),
                             tr("Replace the stack by the filters copied last (undoable)"));
    for (QAction* pending : {undo_, redo_, apply_, copyStack_, pasteStack_}) {
        pending->setEnabled(false);
    }

    quit_ = makeAction(window_, tr("&Quit"), QStringLiteral("actionQuit"), QKeySequence::Quit);
    quit_->setMenuRole(QAction::QuitRole);
    // close() rather than quit() so the window state is saved on the way out.
    connect(quit_, &QAction::triggered, window_, &QWidget::close);

    zoomIn_ = makeAction(window_, tr("Zoom &In"), QStringLiteral("actionZoomIn"));
    // Ctrl+= as well: on most layouts "+" needs Shift.
    zoomIn_->setShortcuts({QKeySequence(QKeySequence::ZoomIn), QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    connect(zoomIn_, &QAction::triggered, view_, &ImageView::zoomIn);
    zoomOut_ = makeAction(window_, tr("Zoom &Out"), QStringLiteral("actionZoomOut"), QKeySequence::ZoomOut);
    connect(zoomOut_, &QAction::triggered, view_, &ImageView::zoomOut);
    fit_ = makeAction(window_, tr("&Fit to Window"), QStringLiteral("actionFitToWindow"),
                      QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(fit_, &QAction::triggered, view_, &ImageView::fitToWindow);
    actualSize_ =
        makeAction(window_, tr("&Actual Size"), QStringLiteral("actionActualSize"), QKeySequence(Qt::CTRL | Qt::Key_1));
    connect(actualSize_, &QAction::triggered, view_, &ImageView::actualSize);

    preferences_ = makeAction(window_, tr("&Preferences\u2026"), QStringLiteral("actionPreferences"),
                              QKeySequence::Preferences, tr("Where previews run"));
    preferences_->setMenuRole(QAction::PreferencesRole);
    connect(preferences_, &QAction::triggered, this, &WindowMenus::showPreferences);
    deviceOptions_ = PreferencesDialog::basicDeviceOptions();
}

void WindowMenus::createMenus()
{
    QMenuBar* bar = window_->menuBar();
    QMenu* file = bar->addMenu(tr("&File"));
    file->addAction(documents_->open());
    QMenu* recentMenu = file->addMenu(tr("Open &Recent"));
    recentMenu->setObjectName(QStringLiteral("recentMenu"));
    recent_ = new RecentFiles(recentMenu, this);
    file->addSeparator();
    file->addAction(documents_->save());
    file->addAction(documents_->saveAs());
    file->addAction(documents_->exportImage());
    file->addSeparator();
    file->addAction(quit_);

    QMenu* edit = bar->addMenu(tr("&Edit"));
    edit->addAction(undo_);
    edit->addAction(redo_);
    edit->addSeparator();
    edit->addAction(copyStack_);
    edit->addAction(pasteStack_);
    edit->addSeparator();
    edit->addAction(preferences_);

    viewMenu_ = bar->addMenu(tr("&View"));
    viewMenu_->addAction(zoomIn_);
    viewMenu_->addAction(zoomOut_);
    viewMenu_->addSeparator();
    viewMenu_->addAction(fit_);
    viewMenu_->addAction(actualSize_);
    viewMenu_->addSeparator();
    viewMenu_->addAction(compare_);
    displayMenu_ = new DisplayMenu(viewMenu_, this);

    filtersMenu_ = bar->addMenu(tr("F&ilters"));
    filtersMenu_->addAction(apply_);
    filtersMenu_->addSeparator();
    filtersMenu_->addAction(documents_->loadPreset());
    filtersMenu_->addAction(documents_->savePreset());

    QMenu* batch = bar->addMenu(tr("&Batch"));
    // Ctrl+B is Compare Before/After already; the batch takes Ctrl+Shift+B.
    QAction* runBatch = makeAction(window_, tr("&Run Batch\u2026"), QStringLiteral("actionRunBatch"),
                                   QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B),
                                   tr("Filter many images with the current stack or a preset"));
    connect(runBatch, &QAction::triggered, this, &WindowMenus::batchRequested);
    batch->addAction(runBatch);

    QMenu* tools = bar->addMenu(tr("&Tools"));
    QAction* compareDevices = makeAction(window_, tr("&Compare Devices\u2026"), QStringLiteral("actionCompareDevices"),
                                         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
                                         tr("Time the filter stack on each GPU, all GPUs and the CPU path"));
    connect(compareDevices, &QAction::triggered, this, &WindowMenus::compareRequested);
    tools->addAction(compareDevices);

    help_ = new HelpMenu(window_, bar->addMenu(tr("&Help")), prompts_);
}

void WindowMenus::createToolBar()
{
    QToolBar* bar = window_->addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));  // named so saveState() can restore it
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setMovable(false);
    bar->addAction(documents_->open());
    bar->addAction(documents_->save());
    bar->addAction(documents_->exportImage());
    bar->addSeparator();
    bar->addAction(undo_);
    bar->addAction(redo_);
    bar->addSeparator();
    bar->addAction(zoomOut_);
    bar->addAction(zoomIn_);
    bar->addAction(fit_);
    bar->addAction(actualSize_);
    zoomField_ = new ZoomField(bar);
    bar->addWidget(zoomField_);
    connect(view_, &ImageView::zoomChanged, zoomField_, &ZoomField::showZoom);
    connect(zoomField_, &ZoomField::zoomRequested, view_, &ImageView::setZoom);
    bar->addSeparator();
    bar->addAction(compare_);
    for (QAction* action : bar->actions()) {
        action->setToolTip(tipWithShortcut(action));
    }
    // The style's arrows where the desktop has no icon theme: the toolbar shows Undo and Redo as
    // icons alone, since their text names the step ("Undo Add Box blur") and would push the
    // buttons after them off a 1024-pixel bar. The tooltip and the Edit menu keep the text.
    const QStyle* style = window_->style();
    undo_->setIcon(QIcon::fromTheme(QStringLiteral("edit-undo"), style->standardIcon(QStyle::SP_ArrowBack)));
    redo_->setIcon(QIcon::fromTheme(QStringLiteral("edit-redo"), style->standardIcon(QStyle::SP_ArrowForward)));
    for (QAction* action : {undo_, redo_}) {
        if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(action))) {
            button->setToolButtonStyle(Qt::ToolButtonIconOnly);
        }
    }
}

void WindowMenus::createHabits()
{
    // What people bring from other image editors. Ctrl+Y as well as the platform's Redo key
    // (Ctrl+Shift+Z here).
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Y))) {
        redoKeys << QKeySequence(Qt::CTRL | Qt::Key_Y);
    }
    redo_->setShortcuts(redoKeys);
    undo_->setProperty(kShortcutName, tr("Undo"));
    redo_->setProperty(kShortcutName, tr("Redo"));
    // The Undo text names the step ("Undo Add Box blur"); its tooltip follows it.
    for (QAction* action : {undo_, redo_}) {
        action->setToolTip(tipWithShortcut(action));
        connect(action, &QAction::changed, this, [action] {
            const QString tip = tipWithShortcut(action);
            if (action->toolTip() != tip) {
                action->setToolTip(tip);
            }
        });
    }
}

void WindowMenus::addFilterMenu(QMenu* menu)
{
    filtersMenu_->insertMenu(filtersMenu_->actions().value(0), menu);
}

void WindowMenus::setUndoStack(QUndoStack* stack)
{
    connect(undo_, &QAction::triggered, stack, &QUndoStack::undo);
    connect(redo_, &QAction::triggered, stack, &QUndoStack::redo);
    connect(stack, &QUndoStack::canUndoChanged, undo_, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, redo_, &QAction::setEnabled);
    connect(stack, &QUndoStack::undoTextChanged, undo_,
            [this](const QString& text) { undo_->setText(text.isEmpty() ? tr("&Undo") : tr("&Undo %1").arg(text)); });
    connect(stack, &QUndoStack::redoTextChanged, redo_,
            [this](const QString& text) { redo_->setText(text.isEmpty() ? tr("&Redo") : tr("&Redo %1").arg(text)); });
    undo_->setEnabled(stack->canUndo());
    redo_->setEnabled(stack->canRedo());
}

void WindowMenus::setImageOpen(bool open)
{
    for (QAction* action : {zoomIn_, zoomOut_, fit_, actualSize_, apply_}) {
        action->setEnabled(open);
    }
    zoomField_->setEnabled(open);
    if (open) {
        zoomField_->showZoom(view_->zoomFactor());
    } else {
        zoomField_->clear();
    }
    documents_->setImageOpen(open);
}

QString WindowMenus::preferredDevice()
{
    return PreferencesDialog::storedDevice();
}

void WindowMenus::showPreferences()
{
    auto* dialog = new PreferencesDialog(deviceOptions_, window_);
    connect(dialog, &PreferencesDialog::deviceChanged, this, &WindowMenus::preferredDeviceChanged);
    connect(dialog, &PreferencesDialog::gpuMemoryLimitChanged, this, &WindowMenus::gpuMemoryLimitChanged);
    dialog->open();
}

}  // namespace tessera::ui
