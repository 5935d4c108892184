// SPDX-License-Identifier: Apache-2.0
#include "app/gui/document_controller.h"

#include "app/document/document.h"
#include "app/document/qt_text.h"
#include "app/io/data_dirs.h"
#include "app/io/image_io.h"
#include "app/document/kernel_preset.h"
#include "app/gui/preview_controller.h"
#include "app/document/stack_chain.h"
#include "filters/preset_io.h"
#include "ui/file_dialogs.h"
#include "ui/filter_dock.h"
#include "ui/filter_panel.h"
#include "ui/filter_stack.h"
#include "ui/kernel_dock.h"
#include "ui/kernel_editor.h"
#include "ui/main_window.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include <QStringList>

#include <opencv2/core.hpp>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <optional>

namespace tessera::app::gui {

using document::Document;

namespace {

// The stack left on an image when the window closed, and that image's path.
const QString kKeptStackImage = QStringLiteral("lastStack/image");
const QString kKeptStack = QStringLiteral("lastStack/preset");

/// img in 8 bits: 16-bit samples keep their high byte, float samples of [0, 1] are scaled to
/// [0, 255] and float data beyond that range is saturated as it is.
cv::Mat toEightBit(const cv::Mat& img)
{
    cv::Mat out;
    double high = 0.0;
    switch (img.depth()) {
    case CV_16U: img.convertTo(out, CV_8U, 1.0 / 257.0); break;
    case CV_32F:
        cv::minMaxLoc(img.reshape(1), nullptr, &high);
        img.convertTo(out, CV_8U, high <= 1.0 + 1e-3 ? 255.0 : 1.0);
        break;
    default: out = img; break;
    }
    return out;
}

/// "1 filter", "3 filters".
QString countOf(qsizetype filters)
{
    return filters == 1 ? QObject::tr("1 filter") : QObject::tr("%1 filters").arg(filters);
}

}  // namespace

DocumentController::DocumentController(ui::MainWindow& window, document::Document& document, PreviewController& previews,
                                       QObject* parent)
    : QObject(parent), window_(window), document_(document), previews_(previews)
{
    connect(&window_, &ui::MainWindow::openRequested, this, &DocumentController::openImage);
    connect(&window_, &ui::MainWindow::saveRequested, this, &DocumentController::saveImage);
    connect(&window_, &ui::MainWindow::exportRequested, this, &DocumentController::exportImage);
    connect(&window_, &ui::MainWindow::closing, this, &DocumentController::keepStack);
    window_.filterDock()->setFilters(document_.registry().all());
    window_.setUndoStack(&document_.undoStack());
    ui::FilterStack* stack = window_.filterStack();
    connect(stack, &ui::FilterStack::addRequested, &document_, &Document::addFilter);
    connect(stack, &ui::FilterStack::removeRequested, &document_, &Document::removeEntry);
    connect(stack, &ui::FilterStack::moveRequested, &document_, &Document::moveEntry);
    connect(stack, &ui::FilterStack::enableRequested, &document_, &Document::setEntryEnabled);
    // Edits of the panel and the kernel editor go straight to the document; the docks show them
    // when the document announces its new stack (showStack()), like any other change.
    ui::FilterPanel* panel = window_.filterDock()->panel();
    connect(panel, &ui::FilterPanel::choiceChanged, &document_,
            [this, panel] { document_.editCurrent(panel->currentChoice()); });
    connect(window_.kernelDock(), &ui::KernelDock::entryEdited, &document_, &Document::replaceCurrent);
    connect(stack, &ui::FilterStack::currentChanged, &document_, &Document::select);
    connect(&document_, &Document::stackChanged, this, &DocumentController::showStack);
    connect(&document_, &Document::currentChanged, this, &DocumentController::showStack);
    connect(&document_, &Document::imageChanged, this, &DocumentController::showStack);
    connect(&window_, &ui::MainWindow::loadPresetRequested, this, &DocumentController::loadPreset);
    connect(&window_, &ui::MainWindow::savePresetRequested, this, &DocumentController::savePreset);
    ui::KernelEditor* editor = window_.kernelDock()->editor();
    connect(editor, &ui::KernelEditor::loadPresetRequested, this, &DocumentController::loadKernelPreset);
    connect(editor, &ui::KernelEditor::savePresetRequested, this, &DocumentController::saveKernelPreset);
    QStringList samples;
    for (const std::filesystem::path& sample : imageFilesIn(samplesDir())) {
        samples.push_back(QString::fromStdString(sample.string()));
    }
    window_.setSampleImages(samples);
    QStringList guidePlaces;
    for (const std::filesystem::path& place : manualIndexCandidates()) {
        guidePlaces.push_back(QString::fromStdString(place.string()));
    }
    window_.setUserGuidePlaces(guidePlaces);
    ui::setBundledPresetFolder(QString::fromStdString(presetsDir().string()));
    showStack();
}

DocumentController::~DocumentController() = default;

void DocumentController::openImage(const QString& path)
{
    const QString title = tr("Cannot open image");
    // Absolute, so the title, the recent list and later saves do not depend on the working folder.
    const QString absolute = path.isEmpty() ? path : QFileInfo(path).absoluteFilePath();
    try {
        ImageMetadata metadata;
        document_.setImage(readImage(absolute.toStdString(), {}, &metadata));
        metadata_ = std::move(metadata);
        previews_.showOpenedImage(absolute);
        if (metadata_.orientation != 1) {
            window_.showMessage(tr("Opened %1, %2 as its EXIF orientation asks")
                                    .arg(absolute, qs(describeOrientation(metadata_.orientation))));
        }
        restoreKeptStack(absolute);
    } catch (const ImageError& e) {
        // ImageError's text already starts with the path.
        window_.showError(title, qs(e.what()));
    } catch (const std::exception& e) {
        window_.showError(title, QStringLiteral("%1: %2").arg(absolute, qs(e.what())));
    }
}

void DocumentController::saveImage(const QString& path)
{
    if (document_.image().empty()) {
        return;
    }
    QStringList filters;
    for (const filters::StackEntry& entry : document_.stack().entries) {
        if (entry.enabled) {
            filters.push_back(document_.titleOf(entry.choice.id));
        }
    }
    QString what = tr("the image");
    if (!filters.isEmpty()) {
        switch (window_.askSaveChoice(path, filters)) {
        case ui::MainWindow::SaveChoice::Cancel:
            window_.showMessage(tr("Nothing saved"));
            return;
        case ui::MainWindow::SaveChoice::Result:
            previews_.applyPreview();
            if (std::any_of(document_.stack().entries.begin(), document_.stack().entries.end(),
                            [](const filters::StackEntry& e) { return e.enabled; })) {
                return;  // Apply failed and said why; nothing is written
            }
            what = tr("the image with %1 applied (%2)").arg(countOf(filters.size()), filters.join(QStringLiteral(", ")));
            break;
        case ui::MainWindow::SaveChoice::Original:
            what = tr("the original image, without the %1 of the stack").arg(countOf(filters.size()));
            break;
        }
    }
    try {
        const MetadataReport kept = writeImage(path.toStdString(), document_.image(), &metadata_);
        document_.markSaved();
        if (QFileInfo(path).absoluteFilePath() != QFileInfo(window_.currentPath()).absoluteFilePath()) {
            window_.setDocumentPath(QFileInfo(path).absoluteFilePath());
        }
        window_.setDocumentModified(false);
        window_.showMessage(tr("Saved %1 to %2 (%3%4)")
                                .arg(what, path, qs(describeFormat(document_.image())), metadataNote(kept)));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot save image"), QString::fromUtf8(e.what()));
    }
}

void DocumentController::exportImage(const QString& path)
{
    if (document_.image().empty()) {
        return;
    }
    previews_.withCurrentResult([this, path](const cv::Mat& result) { exportResult(path, result); },
                                [this, path](const QString& why) {
                                    window_.showError(tr("Cannot export image"),
                                                      tr("%1: %2. Nothing was written.").arg(path, why));
                                });
}

void DocumentController::exportResult(const QString& path, cv::Mat result)
{
    QString target = path;
    try {
        QString converted;
        // A format that cannot hold the depth or the alpha channel: the user chooses TIFF (which
        // holds them all) under the same name, a conversion to 8 bits, or nothing. Nothing is
        // converted without asking.
        if (const std::string problem = outputFormatProblem(path.toStdString(), result.depth(), result.channels());
            !problem.empty()) {
            const QFileInfo info(path);
            const QString tiff = info.dir().filePath(info.completeBaseName() + QStringLiteral(".tif"));
            const bool canConvert = outputFormatProblem(path.toStdString(), CV_8U, result.channels()).empty();
            switch (window_.askExportFix(qs(problem), tiff, canConvert)) {
            case ui::MainWindow::ExportFix::Cancel:
                window_.showNotice(tr("Nothing exported: %1: %2").arg(path, qs(problem)));
                return;
            case ui::MainWindow::ExportFix::OtherFormat:
                target = tiff;
                break;
            case ui::MainWindow::ExportFix::Convert8Bit:
                converted = tr(", converted from %1").arg(qs(describeFormat(result)));
                result = toEightBit(result);
                break;
            }
        }
        const MetadataReport kept = writeImage(target.toStdString(), result, &metadata_);
        window_.showMessage(
            tr("Exported %1 (%2%3%4)").arg(target, qs(describeFormat(result)), converted, metadataNote(kept)));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot export image"), tr("%1. Nothing was written.").arg(namingFile(target, e)));
    }
}

QString DocumentController::metadataNote(const MetadataReport& written)
{
    // What the file holds, as its writer reports it, and what could not go in.
    QString note = written.kept.empty() ? QString() : tr("; kept %1").arg(qs(written.kept.summary()));
    if (!written.dropped.empty()) {
        QStringList left;
        for (const std::string& d : written.dropped) {
            left << qs(d);
        }
        note += tr("; left out: %1").arg(left.join(QStringLiteral("; ")));
    }
    return note;
}

void DocumentController::keepStack()
{
    QSettings settings;
    const filters::StackState& stack = document_.stack();
    const bool anyEnabled = std::any_of(stack.entries.begin(), stack.entries.end(),
                                        [](const filters::StackEntry& e) { return e.enabled; });
    if (document_.image().empty() || window_.currentPath().isEmpty() || !anyEnabled) {
        settings.remove(kKeptStackImage);
        settings.remove(kKeptStack);
        return;
    }
    try {
        const filters::Preset preset = presetFromStack(stack, "last stack", document_.registry());
        settings.setValue(kKeptStackImage, window_.currentPath());
        settings.setValue(kKeptStack, qs(filters::presetToJson(preset)));
    } catch (const std::exception&) {
        settings.remove(kKeptStack);  // a stack that does not build is not worth keeping
    }
}

void DocumentController::restoreKeptStack(const QString& path)
{
    QSettings settings;
    if (!document_.stack().entries.empty() || settings.value(kKeptStackImage).toString() != path) {
        return;
    }
    const QString json = settings.value(kKeptStack).toString();
    settings.remove(kKeptStackImage);
    settings.remove(kKeptStack);
    try {
        const filters::Preset preset = filters::parsePreset(json.toStdString(), "last stack", document_.registry());
        document_.replaceEntries(entriesFromPreset(preset), tr("Restore the last stack"));
        window_.showMessage(
            tr("Restored the %1 you left on this image; Edit > Undo removes them").arg(countOf(preset.steps.size())));
    } catch (const std::exception&) {
        // A filter this version no longer knows: the image opens with an empty stack.
    }
}

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
    if (const std::optional<document::LoadedKernel> loaded = document::readKernelPreset(path, document_.registry(), &error)) {
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
    if (document::writeKernelPreset(editor->customKernel(), path, document_.registry(), &error)) {
        editor->showSaved(QFileInfo(path).fileName());
    } else {
        window_.showError(tr("Cannot save the kernel"), error);
    }
}

}  // namespace tessera::app::gui
