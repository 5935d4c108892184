// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/gui/stack_memory.h"
#include "app/io/image_io.h"
#include "app/io/image_metadata.h"

#include <opencv2/core/mat.hpp>

#include <QObject>
#include <QString>

#include <optional>

namespace tessera::ui {
class MainWindow;
}  // namespace tessera::ui

namespace tessera::app::document {
class Document;
}  // namespace tessera::app::document

namespace tessera::app::gui {

class PreviewController;

/// Connects the Filter and Kernel docks to the document: their edits become the document's
/// commands, and the docks show the document's stack whenever it changes (edits, undo, redo,
/// Apply). Also opens, saves and exports images (synchronously, on the GUI thread) and reads
/// and writes stack and kernel presets. Everything passed in must outlive it. GUI thread only.
class DocumentController : public QObject {
    Q_OBJECT

public:
    /// Fills the docks from the document's registry and connects them to document; previews
    /// shows opened images and gives the filtered result for Export.
    DocumentController(ui::MainWindow& window, document::Document& document, PreviewController& previews,
                       QObject* parent = nullptr);
    ~DocumentController() override;

public slots:
    /// Reads path and shows it with the current stack previewed, or shows the error; never throws.
    void openImage(const QString& path);
    /// Writes the open image (with applied filters) to path through a temporary file; reports
    /// errors in the window. Never throws.
    void saveImage(const QString& path);
    /// Writes the stack's result to path through a temporary file, leaving the document's path
    /// and modified state alone; refuses (with the reason) a format that cannot hold the
    /// result's depth or channels. Never throws.
    void exportImage(const QString& path);
    /// Replaces the stack by the preset in path (undoable); errors name the file. Never throws.
    void loadPreset(const QString& path);
    /// Writes the stack's enabled filters as a preset to path; errors name the file. Never throws.
    void savePreset(const QString& path);
    /// Shows the kernel preset in path in the kernel editor, which makes it the selected entry's
    /// kernel; errors name the file. Never throws.
    void loadKernelPreset(const QString& path);
    /// Writes the kernel editor's kernel as a preset to path; errors name the file. Never throws.
    void saveKernelPreset(const QString& path);

    /// Remembers the enabled filters of the stack with the open image's path (another image is
    /// opened, or the window is closing), so that opening that image again brings them back; an
    /// empty stack forgets.
    void keepStack();
    /// Edit > Copy Stack: the stack's enabled filters on the clipboard, as a preset.
    void copyStack();
    /// Edit > Paste Stack: the stack replaced by the filters on the clipboard (undoable).
    void pasteStack();

private:
    /// The quality or compression to write path with: for a format with a choice, asked with the
    /// last choices (a JPEG saved over its own kind starting at the original's quality), except
    /// that a plain Save of a lossless format takes the last choices without asking; nullopt
    /// when the user cancels. The choice made is remembered.
    std::optional<values::EncodeOptions> chooseEncoding(const QString& path, bool saving);
    /// The rest of exportImage() once the whole result is there.
    void exportResult(const QString& path, cv::Mat result);
    void showStack();
    /// "; kept EXIF, ICC profile" for a status message; empty when nothing was kept.
    static QString metadataNote(const MetadataReport& written);
    /// ", JPEG quality 92" for a status message; empty for a format without a choice.
    static QString encodingNote(const QString& path, const values::EncodeOptions& options);
    /// After path opened with an empty stack: the stack kept for path, as one undoable step.
    void restoreKeptStack(const QString& path);
    /// Enables Copy Stack and Save Stack as Preset while the stack has an enabled filter, and
    /// Paste Stack while the clipboard holds a stack.
    void updateStackActions();

    ui::MainWindow& window_;
    document::Document& document_;
    PreviewController& previews_;
    ImageMetadata metadata_;                ///< what the open image's file carried besides pixels
    std::optional<int> sourceJpegQuality_;  ///< the open JPEG's estimated quality
    StackMemory memory_;                    ///< each image's stack, by path
};

}  // namespace tessera::app::gui
