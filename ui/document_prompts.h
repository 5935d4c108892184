// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/encode_options.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class QWidget;

namespace tessera::ui {

/// The questions the main window asks about the document: save unsaved work, apply the stack
/// before Save, and the way out of an Export the format cannot hold. Each question can be
/// replaced by a function (tests); without modal dialogs and without a function, the quiet
/// answer is taken. GUI thread only; parent is the window the boxes are shown over.
class DocumentPrompts {
public:
    explicit DocumentPrompts(QWidget* parent) : parent_(parent) {}

    /// What the user answers when unsaved changes would be lost.
    enum class UnsavedAnswer { Save, Discard, Cancel };
    /// What Save writes when enabled filters are in the stack.
    enum class SaveChoice {
        Result,    ///< apply the filters (one undoable step) and write the result
        Original,  ///< write the image as it is; the stack stays for later
        Cancel     ///< write nothing
    };
    /// The way out of an Export whose format cannot hold the result.
    enum class ExportFix {
        OtherFormat,     ///< write the same name in a format that can (TIFF)
        ConvertAsShown,  ///< 8 bits as the view shows the result (its display mapping), same format
        ConvertClipped,  ///< 8 bits by value: below 0 becomes 0, above 255 becomes 255
        Cancel           ///< write nothing
    };

    /// When false, no box is shown and the quiet answers are taken.
    void setModalDialogsEnabled(bool enabled) { modalDialogs_ = enabled; }
    bool modalDialogsEnabled() const { return modalDialogs_; }

    /// Replaces the Save / Discard / Cancel box asked before unsaved changes are lost (an empty
    /// function restores the box). `action` says what would lose them ("open coffee.png",
    /// "quit"). Without modal dialogs and without a prompt, work is discarded.
    void setUnsavedPrompt(std::function<UnsavedAnswer(const QString& action)> prompt)
    {
        unsavedPrompt_ = std::move(prompt);
    }
    /// Replaces the question Save asks when the stack holds enabled filters (an empty function
    /// restores the box). It gets the file's name and the enabled filters' titles. Without modal
    /// dialogs and without a prompt, Save writes the original image.
    void setSaveChoicePrompt(std::function<SaveChoice(const QString& file, const QStringList& filters)> prompt)
    {
        saveChoicePrompt_ = std::move(prompt);
    }
    /// Replaces the Export question (an empty function restores the box). It gets the reason,
    /// the path in a format that can hold the result, and whether converting to 8 bits would do.
    /// Without modal dialogs and without a prompt, nothing is written.
    void
    setExportFixPrompt(std::function<ExportFix(const QString& problem, const QString& other, bool canConvert)> prompt)
    {
        exportFixPrompt_ = std::move(prompt);
    }

    /// Replaces the encoder choices asked once a file name is chosen (an empty function restores
    /// the dialog). It gets the path, the choices offered first and a note; it returns the choices
    /// or nullopt to write nothing. Without modal dialogs and without a prompt, the initial
    /// choices are taken.
    void setEncodingPrompt(std::function<std::optional<values::EncodeOptions>(
                               const QString& path, const values::EncodeOptions& initial, const QString& note)>
                               prompt)
    {
        encodingPrompt_ = std::move(prompt);
    }

    /// Asks whether to save unsaved work before `action`.
    UnsavedAnswer askUnsaved(const QString& action) const;
    /// Asks whether Save to path applies the enabled filters (titles in filters) first.
    SaveChoice askSaveChoice(const QString& path, const QStringList& filters) const;
    /// Asks how to export a result the chosen format cannot hold (problem says why).
    ExportFix askExportFix(const QString& problem, const QString& other, bool canConvert) const;
    /// Asks the quality or compression to write path with (its format has a choice), starting
    /// at initial, with note shown above the choices; nullopt: write nothing.
    std::optional<values::EncodeOptions> askEncoding(const QString& path, const values::EncodeOptions& initial,
                                                     const QString& note) const;

private:
    QWidget* parent_;
    bool modalDialogs_ = true;
    std::function<UnsavedAnswer(const QString&)> unsavedPrompt_;
    std::function<SaveChoice(const QString&, const QStringList&)> saveChoicePrompt_;
    std::function<ExportFix(const QString&, const QString&, bool)> exportFixPrompt_;
    std::function<std::optional<values::EncodeOptions>(const QString&, const values::EncodeOptions&, const QString&)>
        encodingPrompt_;
};

}  // namespace tessera::ui
