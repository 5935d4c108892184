// SPDX-License-Identifier: Apache-2.0
#include "ui/main_window.h"

#include "ui/document_actions.h"
#include "ui/recent_files.h"

#include <QAction>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QUrl>

// The document's life in the window: its path and modified mark, the question before unsaved
// work is lost, closing, and files dropped on the window.

namespace tessera::ui {

namespace {

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

}  // namespace

void MainWindow::setDocumentPath(const QString& path)
{
    currentPath_ = path;
    documents_->setDocumentPath(path);
    const QString name = QFileInfo(path).fileName();
    setWindowTitle(name.isEmpty() ? QStringLiteral("Tessera") : QStringLiteral("%1[*] \u2014 Tessera").arg(name));
    if (!path.isEmpty()) {
        recent_->add(path);
    }
}

void MainWindow::setSampleImages(const QStringList& paths)
{
    sampleMenu_->clear();
    for (const QString& path : paths) {
        QAction* action = sampleMenu_->addAction(QFileInfo(path).fileName());
        action->setToolTip(path);
        connect(action, &QAction::triggered, this, [this, path] { requestOpen(path); });
    }
    sampleMenu_->setEnabled(!paths.isEmpty());
}

void MainWindow::setDocumentModified(bool modified)
{
    setWindowModified(modified);
}

bool MainWindow::mayDiscardDocument(const QString& action)
{
    if (!isWindowModified()) {
        return true;
    }
    UnsavedAnswer answer = UnsavedAnswer::Discard;
    if (unsavedPrompt_) {
        answer = unsavedPrompt_(action);
    } else if (modalDialogs_) {
        const auto button = QMessageBox::question(
            this, tr("Unsaved changes"),
            tr("The image has filters applied that are not saved. Save them before you %1?").arg(action),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        answer = button == QMessageBox::Save      ? UnsavedAnswer::Save
                 : button == QMessageBox::Discard ? UnsavedAnswer::Discard
                                                  : UnsavedAnswer::Cancel;
    }
    switch (answer) {
    case UnsavedAnswer::Cancel: return false;
    case UnsavedAnswer::Discard: return true;
    case UnsavedAnswer::Save:
        emit saveRequested(currentPath_);
        return !isWindowModified();  // a failed save keeps the document; its error is on screen
    }
    return false;
}

MainWindow::SaveChoice MainWindow::askSaveChoice(const QString& path, const QStringList& filters)
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
                    QMessageBox::NoButton, this);
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

MainWindow::ExportFix MainWindow::askExportFix(const QString& problem, const QString& other, bool canConvert)
{
    if (exportFixPrompt_) {
        return exportFixPrompt_(problem, other, canConvert);
    }
    if (!modalDialogs_) {
        return ExportFix::Cancel;
    }
    QMessageBox box(QMessageBox::Warning, tr("Export"), tr("The chosen format cannot hold this result: %1.").arg(problem),
                    QMessageBox::NoButton, this);
    QPushButton* otherFormat = box.addButton(tr("Save as %1").arg(QFileInfo(other).fileName()), QMessageBox::AcceptRole);
    QPushButton* convert = canConvert ? box.addButton(tr("Convert to 8-bit"), QMessageBox::ActionRole) : nullptr;
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(otherFormat);
    box.exec();
    if (box.clickedButton() == otherFormat) {
        return ExportFix::OtherFormat;
    }
    return convert != nullptr && box.clickedButton() == convert ? ExportFix::Convert8Bit : ExportFix::Cancel;
}

void MainWindow::requestOpen(const QString& path)
{
    if (mayDiscardDocument(tr("open %1").arg(QFileInfo(path).fileName()))) {
        emit openRequested(path);
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!mayDiscardDocument(tr("quit"))) {
        event->ignore();
        return;
    }
    emit closing();
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
    requestOpen(path);
}

}  // namespace tessera::ui
