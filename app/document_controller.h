#pragma once

#include <QObject>
#include <QString>

namespace tessera::ui {
class MainWindow;
}

namespace tessera::app {

class Document;

/// Connects the Filter and Kernel docks to the document: their edits become the document's
/// commands, and the docks show the document's stack whenever it changes (edits, undo, redo,
/// Apply). Also reads and writes stack and kernel presets. The window and the document must outlive it.
/// GUI thread only.
class DocumentController : public QObject {
    Q_OBJECT

public:
    /// Fills the docks from the document's registry and connects them to document.
    DocumentController(ui::MainWindow& window, Document& document, QObject* parent = nullptr);
    ~DocumentController() override;

public slots:
    /// Replaces the stack by the preset in path (undoable); errors name the file. Never throws.
    void loadPreset(const QString& path);
    /// Writes the stack's enabled filters as a preset to path; errors name the file. Never throws.
    void savePreset(const QString& path);
    /// Shows the kernel preset in path in the kernel editor, which makes it the selected entry's
    /// kernel; errors name the file. Never throws.
    void loadKernelPreset(const QString& path);
    /// Writes the kernel editor's kernel as a preset to path; errors name the file. Never throws.
    void saveKernelPreset(const QString& path);

private:
    void showStack();

    ui::MainWindow& window_;
    Document& document_;
};

}  // namespace tessera::app
