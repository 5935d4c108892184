// SPDX-License-Identifier: Apache-2.0
#include "ui/document_prompts.h"

#include "ui/encode_options_widget.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

namespace tessera::ui {

namespace {

// The boxes were the window's own; their texts keep the window's translation context.
QString tr(const char* text)
{
    return QCoreApplication::translate("tessera::ui::MainWindow", text);
}

}  // namespace

DocumentPrompts::UnsavedAnswer DocumentPrompts::askUnsaved(const QString& action) const
{
    if (unsavedPrompt_) {
        return unsavedPrompt_(action);
    }
    if (!modalDialogs_) {
        return UnsavedAnswer::Discard;
    }
    const auto button = QMessageBox::question(
        parent_, tr("Unsaved changes"),
        tr("The image has filters applied that are not saved. Save them before you %1?").arg(action),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    return button == QMessageBox::Save      ? UnsavedAnswer::Save
           : button == QMessageBox::Discard ? UnsavedAnswer::Discard
                                            : UnsavedAnswer::Cancel;
}

DocumentPrompts::SaveChoice DocumentPrompts::askSaveChoice(const QString& path, const QStringList& filters) const
{
    if (saveChoicePrompt_) {
        return saveChoicePrompt_(QFileInfo(path).fileName(), filters);
    }
    if (!modalDialogs_) {
        return SaveChoice::Original;
    }
    QMessageBox box(QMessageBox::Question, tr("Save %1").arg(QFileInfo(path).fileName()),
                    (filters.size() == 1 ? tr("The filter stack has 1 enabled filter: %1.")
                                         : tr("The filter stack has %1 enabled filters: %2.").arg(filters.size()))
                        .arg(filters.join(QStringLiteral(", "))),
                    QMessageBox::NoButton, parent_);
    box.setInformativeText(tr("The preview shows them, the image itself does not have them yet. Applying them is "
                              "one step in Edit > Undo, which brings the stack back."));
    QPushButton* result = box.addButton(tr("Apply the Filters and Save the Result"), QMessageBox::AcceptRole);
    QPushButton* original = box.addButton(tr("Save the Original Image"), QMessageBox::ActionRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(result);
    box.exec();
    if (box.clickedButton() == result) {
        return SaveChoice::Result;
    }
    return box.clickedButton() == original ? SaveChoice::Original : SaveChoice::Cancel;
}

DocumentPrompts::ExportFix DocumentPrompts::askExportFix(const QString& problem, const QString& other,
                                                         bool canConvert) const
{
    if (exportFixPrompt_) {
        return exportFixPrompt_(problem, other, canConvert);
    }
    if (!modalDialogs_) {
        return ExportFix::Cancel;
    }
    QMessageBox box(QMessageBox::Warning, tr("Export"),
                    tr("The chosen format cannot hold this result: %1.").arg(problem), QMessageBox::NoButton, parent_);
    QPushButton* otherFormat =
        box.addButton(tr("Save as %1").arg(QFileInfo(other).fileName()), QMessageBox::AcceptRole);
    QPushButton* asShown = canConvert ? box.addButton(tr("8-bit as Shown"), QMessageBox::ActionRole) : nullptr;
    QPushButton* clipped = canConvert ? box.addButton(tr("8-bit, Clipped"), QMessageBox::ActionRole) : nullptr;
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(otherFormat);
    if (canConvert) {
        box.setInformativeText(
            tr("%1 keeps every value in the same name as TIFF.\n"
               "8-bit as Shown writes the picture the view shows, with its display mapping.\n"
               "8-bit, Clipped writes each value as a number: below 0 becomes 0, above 255 becomes 255 "
               "(float data within [0, 1] is scaled by 255 first).")
                .arg(otherFormat->text()));
    }
    box.exec();
    if (box.clickedButton() == otherFormat) {
        return ExportFix::OtherFormat;
    }
    if (box.clickedButton() != nullptr && box.clickedButton() == asShown) {
        return ExportFix::ConvertAsShown;
    }
    return box.clickedButton() != nullptr && box.clickedButton() == clipped ? ExportFix::ConvertClipped
                                                                            : ExportFix::Cancel;
}

std::optional<values::EncodeOptions>
DocumentPrompts::askEncoding(const QString& path, const values::EncodeOptions& initial, const QString& note) const
{
    if (encodingPrompt_) {
        return encodingPrompt_(path, initial, note);
    }
    if (!modalDialogs_) {
        return initial;
    }
    EncodeOptionsDialog dialog(path, initial, note, parent_);
    if (dialog.exec() != QDialog::Accepted) {
        return std::nullopt;
    }
    return dialog.options();
}

}  // namespace tessera::ui
