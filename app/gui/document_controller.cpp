// SPDX-License-Identifier: Apache-2.0
#include "app/gui/document_controller.h"

#include "app/apply/apply_run.h"
#include "app/document/document.h"
#include "app/document/qt_text.h"
#include "app/io/data_dirs.h"
#include "app/io/encode_choice.h"
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
#include "ui/preferences_dialog.h"
#include "ui/document_actions.h"
#include "ui/encode_options_widget.h"
#include "ui/window_menus.h"
#include "ui/help_menu.h"

#include <QAction>
#include <QMetaObject>
#include <QPointer>
#include <QProgressDialog>
#include <QClipboard>
#include <QDir>
#include <QGuiApplication>
#include <QMimeData>
#include <QFileInfo>
#include <QSettings>

#include <QStringList>

#include <opencv2/core.hpp>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <optional>
#include <utility>

namespace tessera::app::gui {

using document::Document;

namespace {

// What Copy Stack puts on the clipboard besides the preset's JSON text.
constexpr const char* kStackMimeType = "application/x-tessera-stack+json";

/// "1 filter", "3 filters".
QString countOf(qsizetype filters)
{
    return filters == 1 ? QObject::tr("1 filter") : QObject::tr("%1 filters").arg(filters);
}

}  // namespace

DocumentController::DocumentController(ui::MainWindow& window, document::Document& document,
                                       PreviewController& previews, QObject* parent)
    : QObject(parent), window_(window), document_(document), previews_(previews), memory_(document.registry())
{
    connect(&window_, &ui::MainWindow::openRequested, this, &DocumentController::openImage);
    connect(&window_, &ui::MainWindow::saveRequested, this, &DocumentController::saveImage);
    connect(&window_, &ui::MainWindow::exportRequested, this, &DocumentController::exportImage);
    connect(&window_, &ui::MainWindow::closing, this, &DocumentController::keepStack);
    window_.filterDock()->setFilters(document_.registry().all());
    window_.menus()->setUndoStack(&document_.undoStack());
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
    connect(window_.menus()->copyStackAction(), &QAction::triggered, this, &DocumentController::copyStack);
    connect(window_.menus()->pasteStackAction(), &QAction::triggered, this, &DocumentController::pasteStack);
    connect(QGuiApplication::clipboard(), &QClipboard::dataChanged, this, &DocumentController::updateStackActions);
    ui::KernelEditor* editor = window_.kernelDock()->editor();
    connect(editor, &ui::KernelEditor::loadPresetRequested, this, &DocumentController::loadKernelPreset);
    connect(editor, &ui::KernelEditor::savePresetRequested, this, &DocumentController::saveKernelPreset);
    QStringList samples;
    for (const std::filesystem::path& sample : imageFilesIn(samplesDir())) {
        samples.push_back(QString::fromStdString(sample.string()));
    }
    window_.help()->setSampleImages(samples);
    QStringList guidePlaces;
    for (const std::filesystem::path& place : manualIndexCandidates()) {
        guidePlaces.push_back(QString::fromStdString(place.string()));
    }
    window_.help()->setUserGuidePlaces(guidePlaces);
    ui::setBundledPresetFolder(QString::fromStdString(presetsDir().string()));
    showStack();
}

DocumentController::~DocumentController() = default;

void DocumentController::openImage(const QString& path)
{
    // Absolute, so the title, the recent list and later saves do not depend on the working folder.
    const QString absolute = path.isEmpty() ? path : QFileInfo(path).absoluteFilePath();
    if (openJob_.isRunning()) {
        window_.showNotice(tr("Still opening %1: cancel it first (Esc)").arg(opening_));
        return;
    }
    const ImageHeader header = sniffImageHeader(absolute.toStdString());
    if (static_cast<qint64>(header.width) * header.height >= backgroundOpenPixels_) {
        openInBackground(absolute, header);
        return;
    }
    Opened opened;
    try {
        opened.image = readImage(absolute.toStdString(), {}, &opened.metadata);
    } catch (const std::exception& e) {
        opened.error = openError(absolute, e);
    }
    finishOpen(absolute, std::move(opened));
}

QString DocumentController::openError(const QString& absolute, const std::exception& e)
{
    // ImageError's text already starts with the path.
    return dynamic_cast<const ImageError*>(&e) != nullptr ? qs(e.what())
                                                          : QStringLiteral("%1: %2").arg(absolute, qs(e.what()));
}

void DocumentController::openInBackground(const QString& absolute, const ImageHeader& header)
{
    opening_ = absolute;
    cancelOpen_ = std::make_shared<std::atomic<bool>>(false);
    auto* progress = new QProgressDialog(
        tr("Reading %1 (%2 \u00d7 %3)\u2026").arg(QFileInfo(absolute).fileName()).arg(header.width).arg(header.height),
        tr("Cancel"), 0, 1000, &window_);
    progress->setObjectName(QStringLiteral("openProgress"));
    progress->setWindowTitle(tr("Opening"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(300);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    progressDialog_ = progress;
    connect(progress, &QProgressDialog::canceled, this, [cancel = cancelOpen_] { cancel->store(true); });
    QPointer<QProgressDialog> shown(progress);
    const auto report = [shown](double fraction) {
        QMetaObject::invokeMethod(
            shown.data(),
            [shown, fraction] {
                if (shown) {
                    shown->setValue(static_cast<int>(fraction * 1000.0));
                }
            },
            Qt::QueuedConnection);
    };
    const DisplayMapping mapping = previews_.displayMapping();
    window_.showMessage(tr("Opening %1\u2026").arg(absolute));
    openJob_.start(
        [absolute, cancel = cancelOpen_, report, mapping]() {
            Opened opened;
            try {
                ImageLimits limits;
                limits.cancel = cancel.get();
                limits.progress = report;
                opened.image = readImage(absolute.toStdString(), limits, &opened.metadata);
                // The rendering for the screen is made here too: at 100 Mpixels it takes a while.
                opened.display = PreviewController::renderOpened(opened.image, mapping, opened.metadata.icc);
            } catch (const ImageReadCancelled&) {
                opened.cancelled = true;
            } catch (const std::exception& e) {
                opened.error = openError(absolute, e);
            }
            return opened;
        },
        [this, absolute, mapping](Opened opened) {
            if (progressDialog_) {
                progressDialog_->deleteLater();
            }
            opening_.clear();
            if (opened.cancelled) {
                window_.showMessage(tr("Opening %1 cancelled; nothing changed").arg(absolute));
                return;
            }
            if (!(mapping == previews_.displayMapping())) {
                opened.display.reset();  // the mapping changed meanwhile: render again
            }
            finishOpen(absolute, std::move(opened));
        });
}

void DocumentController::cancelOpening()
{
    if (cancelOpen_) {
        cancelOpen_->store(true);
    }
}

void DocumentController::finishOpen(const QString& absolute, Opened opened)
{
    if (!opened.error.isEmpty()) {
        window_.showError(tr("Cannot open image"), opened.error);
        return;
    }
    // Each image keeps its own stack: the one open leaves its stack behind, and the new one
    // starts from what it was left with, or from none. The first image of a session takes
    // the stack built before it (given on the command line, say).
    if (!document_.image().empty()) {
        keepStack();
        document_.resetStack(filters::StackState{});
    }
    document_.setImage(std::move(opened.image));
    metadata_ = std::move(opened.metadata);
    sourceJpegQuality_ = jpegQualityOf(absolute.toStdString());
    previews_.setSourceProfile(metadata_.icc);
    previews_.showOpenedImage(absolute, std::move(opened.display));
    if (metadata_.orientation != 1) {
        window_.showMessage(tr("Opened %1, %2 as its EXIF orientation asks")
                                .arg(absolute, qs(describeOrientation(metadata_.orientation))));
    }
    restoreKeptStack(absolute);
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
        switch (window_.prompts().askSaveChoice(path, filters)) {
        case ui::DocumentPrompts::SaveChoice::Cancel: window_.showMessage(tr("Nothing saved")); return;
        case ui::DocumentPrompts::SaveChoice::Result:
            previews_.applyPreview();
            if (std::any_of(document_.stack().entries.begin(), document_.stack().entries.end(),
                            [](const filters::StackEntry& e) { return e.enabled; })) {
                return;  // Apply failed and said why; nothing is written
            }
            what =
                tr("the image with %1 applied (%2)").arg(countOf(filters.size()), filters.join(QStringLiteral(", ")));
            break;
        case ui::DocumentPrompts::SaveChoice::Original:
            what = tr("the original image, without the %1 of the stack").arg(countOf(filters.size()));
            break;
        }
    }
    const std::optional<values::EncodeOptions> encoding = chooseEncoding(path, true);
    if (!encoding) {
        window_.showMessage(tr("Nothing saved"));
        return;
    }
    try {
        const MetadataReport kept = writeImage(path.toStdString(), document_.image(), &metadata_, *encoding);
        document_.markSaved();
        // The file the document now stands for was written at this quality.
        sourceJpegQuality_ = values::encodedFormatOf(path.toStdString()) == values::EncodedFormat::Jpeg
                                 ? std::optional<int>(encoding->jpegQuality)
                                 : std::nullopt;
        if (QFileInfo(path).absoluteFilePath() != QFileInfo(window_.currentPath()).absoluteFilePath()) {
            window_.setDocumentPath(QFileInfo(path).absoluteFilePath());
        }
        window_.setDocumentModified(false);
        window_.showMessage(tr("Saved %1 to %2 (%3%4%5)")
                                .arg(what, path, qs(describeFormat(document_.image())), encodingNote(path, *encoding),
                                     metadataNote(kept)));
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
            switch (window_.prompts().askExportFix(qs(problem), tiff, canConvert)) {
            case ui::DocumentPrompts::ExportFix::Cancel:
                window_.showNotice(tr("Nothing exported: %1: %2").arg(path, qs(problem)));
                return;
            case ui::DocumentPrompts::ExportFix::OtherFormat: target = tiff; break;
            case ui::DocumentPrompts::ExportFix::ConvertAsShown:
                converted = tr(", converted from %1 as the view shows it").arg(qs(describeFormat(result)));
                result = toEightBitAsShown(result, previews_.displayMapping());
                break;
            case ui::DocumentPrompts::ExportFix::ConvertClipped:
                converted = tr(", converted from %1 by value, clipped to 0\u2013255").arg(qs(describeFormat(result)));
                result = toEightBitClipped(result);
                break;
            }
        }
        // The same run object as tessera-cli apply writes it, with the same rules: never over the
        // file the image came from, metadata kept, a temporary name synced and renamed.
        const std::optional<values::EncodeOptions> encoding = chooseEncoding(target, false);
        if (!encoding) {
            window_.showMessage(tr("Nothing exported"));
            return;
        }
        ApplyRequest request;
        request.encode = *encoding;
        request.input = window_.currentPath().toStdString();
        request.output = target.toStdString();
        request.chain = previews_.stackChain();
        const MetadataReport kept = ApplyRun(std::move(request)).write(document_.image(), result, metadata_).kept;
        window_.showMessage(tr("Exported %1 (%2%3%4%5)")
                                .arg(target, qs(describeFormat(result)), converted, encodingNote(target, *encoding),
                                     metadataNote(kept)));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot export image"), tr("%1. Nothing was written.").arg(namingFile(target, e)));
    }
}

std::optional<values::EncodeOptions> DocumentController::chooseEncoding(const QString& path, bool saving)
{
    const values::EncodedFormat format = values::encodedFormatOf(path.toStdString());
    values::EncodeOptions initial = ui::rememberedEncodeOptions();
    if (format == values::EncodedFormat::Other) {
        return initial;
    }
    QString note;
    if (saving && format == values::EncodedFormat::Jpeg && sourceJpegQuality_) {
        initial.jpegQuality = *sourceJpegQuality_;
        note = tr("%1 was saved at about JPEG quality %2; writing at the same quality keeps its look and size.")
                   .arg(QFileInfo(window_.currentPath()).fileName())
                   .arg(*sourceJpegQuality_);
    }
    const bool lossy =
        format == values::EncodedFormat::Jpeg || (format == values::EncodedFormat::Webp && initial.webpQuality <= 100);
    const bool plainSave =
        saving && QFileInfo(path).absoluteFilePath() == QFileInfo(window_.currentPath()).absoluteFilePath();
    if (plainSave && !lossy) {
        return initial;
    }
    std::optional<values::EncodeOptions> chosen = window_.prompts().askEncoding(path, initial, note);
    if (chosen) {
        ui::rememberEncodeOptions(*chosen);
    }
    return chosen;
}

QString DocumentController::encodingNote(const QString& path, const values::EncodeOptions& options)
{
    const std::string words = values::describeEncoding(values::encodedFormatOf(path.toStdString()), options);
    return words.empty() ? QString() : QStringLiteral(", ") + qs(words);
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
    if (!document_.image().empty()) {
        memory_.keep(window_.currentPath(), document_.stack());
    }
}

void DocumentController::restoreKeptStack(const QString& path)
{
    if (!document_.stack().entries.empty() || !ui::PreferencesDialog::restoresStacks()) {
        return;
    }
    const std::vector<filters::StackEntry> entries = memory_.recall(path);
    if (entries.empty()) {
        return;
    }
    document_.replaceEntries(entries, tr("Restore the stack of this image"));
    window_.showMessage(
        tr("Restored the %1 you left on this image; Edit > Undo removes them").arg(countOf(entries.size())));
}

void DocumentController::copyStack()
{
    try {
        const filters::Preset preset = presetFromStack(document_.stack(), "copied stack", document_.registry());
        if (preset.steps.empty()) {
            window_.showNotice(tr("Nothing to copy: the stack has no enabled filter"));
            return;
        }
        const QByteArray json = QByteArray::fromStdString(filters::presetToJson(preset));
        auto* mime = new QMimeData;
        mime->setData(QString::fromLatin1(kStackMimeType), json);
        mime->setText(QString::fromUtf8(json));
        QGuiApplication::clipboard()->setMimeData(mime);
        window_.showMessage(
            tr("Copied %1; Edit > Paste Stack puts them on another image").arg(countOf(preset.steps.size())));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot copy the stack"), qs(e.what()));
    }
}

void DocumentController::pasteStack()
{
    const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
    if (mime == nullptr || !mime->hasFormat(QString::fromLatin1(kStackMimeType))) {
        window_.showNotice(tr("Nothing to paste: copy a stack first (Edit > Copy Stack)"));
        return;
    }
    try {
        const filters::Preset preset = filters::parsePreset(
            mime->data(QString::fromLatin1(kStackMimeType)).toStdString(), "pasted stack", document_.registry());
        document_.replaceEntries(entriesFromPreset(preset), tr("Paste stack"));
        window_.showMessage(tr("Pasted %1").arg(countOf(preset.steps.size())));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot paste the stack"), qs(e.what()));
    }
}

void DocumentController::updateStackActions()
{
    const filters::StackState& stack = document_.stack();
    const bool anyEnabled =
        std::any_of(stack.entries.begin(), stack.entries.end(), [](const filters::StackEntry& e) { return e.enabled; });
    window_.menus()->copyStackAction()->setEnabled(anyEnabled);
    window_.menus()->documents()->savePreset()->setEnabled(anyEnabled);
    const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
    window_.menus()->pasteStackAction()->setEnabled(mime != nullptr &&
                                                    mime->hasFormat(QString::fromLatin1(kStackMimeType)));
}

void DocumentController::showStack()
{
    window_.filterStack()->setState(document_.stack());
    updateStackActions();
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
        const filters::Preset preset =
            presetFromStack(document_.stack(), QFileInfo(path).completeBaseName().toStdString(), document_.registry());
        if (preset.steps.empty()) {
            window_.showNotice(
                tr("Nothing saved: the stack has no enabled filter, so %1 would be an empty preset").arg(path));
            return;
        }
        filters::savePreset(preset, path.toStdString());
        window_.showMessage(tr("Saved preset %1 (%2 filters)").arg(path).arg(preset.steps.size()));
    } catch (const std::exception& e) {
        window_.showError(tr("Cannot save preset"), namingFile(path, e));
    }
}

void DocumentController::loadKernelPreset(const QString& path)
{
    QString error;
    if (const std::optional<document::LoadedKernel> loaded =
            document::readKernelPreset(path, document_.registry(), &error)) {
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
