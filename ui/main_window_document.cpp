// SPDX-License-Identifier: Apache-2.0
#include "ui/main_window.h"

#include "ui/document_actions.h"
#include "ui/file_dialogs.h"
#include "ui/recent_files.h"
#include "ui/window_menus.h"

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
    menus_->documents()->setDocumentPath(path);
    const QString name = QFileInfo(path).fileName();
    setWindowTitle(name.isEmpty() ? QStringLiteral("Tessera") : QStringLiteral("%1[*] \u2014 Tessera").arg(name));
    if (!path.isEmpty()) {
        menus_->recent()->add(path);
    }
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
    switch (prompts_->askUnsaved(action)) {
    case DocumentPrompts::UnsavedAnswer::Cancel: return false;
    case DocumentPrompts::UnsavedAnswer::Discard: return true;
    case DocumentPrompts::UnsavedAnswer::Save:
        emit saveRequested(currentPath_);
        return !isWindowModified();  // a failed save keeps the document; its error is on screen
    }
    return false;
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
    // Refused while dragging, so the pointer says so before the drop, not after it.
    if (hasReadableImageName(droppedFile(event->mimeData()))) {
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
    // After the drop has returned: a question about unsaved work or an error box shown inside
    // the drop would leave the application the file came from waiting until it is answered.
    QMetaObject::invokeMethod(
        this, [this, path] { requestOpen(path); }, Qt::QueuedConnection);
}

}  // namespace tessera::ui
