#include "app/document_controller.h"

#include "app/document.h"
#include "app/gui_text.h"
#include "app/kernel_preset.h"
#include "app/stack_chain.h"
#include "filters/preset_io.h"
#include "ui/filter_dock.h"
#include "ui/filter_stack.h"
#include "ui/kernel_dock.h"
#include "ui/kernel_editor.h"
#include "ui/main_window.h"

#include <QFileInfo>

#include <exception>
#include <optional>

namespace tessera::app {

DocumentController::DocumentController(ui::MainWindow& window, Document& document, QObject* parent)
    : QObject(parent), window_(window), document_(document)
{
    window_.filterDock()->setFilters(document_.registry().all());
    window_.setUndoStack(&document_.undoStack());
    ui::FilterStack* stack = window_.filterStack();
    connect(stack, &ui::FilterStack::addRequested, &document_, &Document::addFilter);
    connect(stack, &ui::FilterStack::removeRequested, &document_, &Document::removeEntry);
    connect(stack, &ui::FilterStack::moveRequested, &document_, &Document::moveEntry);
    connect(stack, &ui::FilterStack::enableRequested, &document_, &Document::setEntryEnabled);
    connect(stack, &ui::FilterStack::editRequested, &document_, &Document::editCurrent);
    connect(stack, &ui::FilterStack::replaceRequested, &document_, &Document::replaceCurrent);
    connect(stack, &ui::FilterStack::currentChanged, &document_, &Document::select);
    connect(&document_, &Document::stackChanged, this, &DocumentController::showStack);
    connect(&document_, &Document::currentChanged, this, &DocumentController::showStack);
    connect(&document_, &Document::imageChanged, this, &DocumentController::showStack);
    connect(&window_, &ui::MainWindow::loadPresetRequested, this, &DocumentController::loadPreset);
    connect(&window_, &ui::MainWindow::savePresetRequested, this, &DocumentController::savePreset);
    ui::KernelEditor* editor = window_.kernelDock()->editor();
    connect(editor, &ui::KernelEditor::loadPresetRequested, this, &DocumentController::loadKernelPreset);
    connect(editor, &ui::KernelEditor::savePresetRequested, this, &DocumentController::saveKernelPreset);
    showStack();
}

DocumentController::~DocumentController() = default;

void DocumentController::showStack()
{
    window_.filterStack()->setState(document_.stack());
}

void DocumentController::loadPreset(const QString& path)
{
    try {
        const filters::Preset preset = filters::loadPreset(path.toStdString(), document_.registry());
        const QString name = preset.name.empty() ? QFileInfo(path).completeBaseName() : qs(preset.name);
        document_.replaceEntries(entriesFromPreset(preset), tr("Load preset %1").arg(name));
        window_.showMessage(tr("Loaded preset %1").arg(path));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot load preset"), namingFile(path, e));
    }
}

void DocumentController::savePreset(const QString& path)
{
    try {
        const filters::Preset preset = presetFromStack(
            document_.stack(), QFileInfo(path).completeBaseName().toStdString(), document_.registry());
        filters::savePreset(preset, path.toStdString());
        window_.showMessage(tr("Saved preset %1 (%2 filters)").arg(path).arg(preset.steps.size()));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot save preset"), namingFile(path, e));
    }
}

void DocumentController::loadKernelPreset(const QString& path)
{
    QString error;
    if (const std::optional<LoadedKernel> loaded = readKernelPreset(path, document_.registry(), &error)) {
        // The editor's edit signal carries the kernel on into the document.
        window_.kernelDock()->editor()->showLoadedKernel(loaded->value, QFileInfo(path).fileName(), loaded->note);
    } else {
        window_.showError(tr("Cannot load the kernel"), error);
    }
}

void DocumentController::saveKernelPreset(const QString& path)
{
    ui::KernelEditor* editor = window_.kernelDock()->editor();
    QString error;
    if (writeKernelPreset(editor->customKernel(), path, document_.registry(), &error)) {
        editor->showSaved(QFileInfo(path).fileName());
    } else {
        window_.showError(tr("Cannot save the kernel"), error);
    }
}

}  // namespace tessera::app
