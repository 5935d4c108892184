// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/gui/background_job.h"
#include "app/gui/preview_controller.h"
#include "app/gui/stack_memory.h"
#include "app/io/image_io.h"
#include "app/io/image_metadata.h"

#include <opencv2/core/mat.hpp>

#include <QObject>
#include <QPointer>
#include <QProgressDialog>
#include <QString>

#include <atomic>
#include <memory>
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
/// Apply). Also opens (a large image off the GUI thread, under a progress dialog with Cancel),
/// saves and exports images and reads and writes stack and kernel presets. Everything passed in must outlive it. GUI thread only.
class DocumentController : public QObject {
    Q_OBJECT

public:
    /// Fills the docks from the document's registry and connects them to document; previews
    /// shows opened images and gives the filtered result for Export.
    DocumentController(ui::MainWindow& window, document::Document& document, PreviewController& previews,
                       QObject* parent = nullptr);
    ~DocumentController() override;

    /// Images of this many pixels and more are read and rendered off the GUI thread.
    static constexpr qint64 kBackgroundOpenPixels = 16'000'000;
    /// Sets that threshold (tests open small images the background way).
    void setBackgroundOpenPixels(qint64 pixels) { backgroundOpenPixels_ = pixels; }
    /// True while an image is being read in the background.
    bool isOpening() const { return openJob_.isRunning(); }

public slots:
    /// Reads path and shows it with the current stack previewed, or shows the error; never throws.
    /// An image of kBackgroundOpenPixels or more is read and rendered off the GUI thread with its
    /// progress shown and Cancel offered; the window stays usable, and the document changes only
    /// once it is read. Another open is refused while one runs.
    void openImage(const QString& path);
    /// Stops a background opening (nothing changes); nothing happens when none runs.
    void cancelOpening();
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
    /// A file read (and, off the GUI thread, rendered), or why not.
    struct Opened {
        cv::Mat image;
        ImageMetadata metadata;
        std::optional<PreviewController::OpenedDisplay> display;
        QString error;  ///< names the file
        bool cancelled = false;
    };
    static QString openError(const QString& absolute, const std::exception& e);
    /// Reads and renders a large image on openJob_ under a progress dialog with Cancel.
    void openInBackground(const QString& absolute, const ImageHeader& header);
    /// Makes opened the document (or says why it could not be read).
    void finishOpen(const QString& absolute, Opened opened);
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
    qint64 backgroundOpenPixels_ = kBackgroundOpenPixels;
    QString opening_;                                ///< the file being read in the background
    std::shared_ptr<std::atomic<bool>> cancelOpen_;  ///< set to stop that reading
    QPointer<QProgressDialog> progressDialog_;
    BackgroundJob<Opened> openJob_;  // its work uses only what it captured; done uses the members
    StackMemory memory_;             ///< each image's stack, by path
};

}  // namespace tessera::app::gui
