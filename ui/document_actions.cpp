// SPDX-License-Identifier: Apache-2.0
#include "ui/document_actions.h"

#include "ui/file_dialogs.h"
#include "ui/make_action.h"

#include <QAction>
#include <QStyle>
#include <QWidget>

namespace tessera::ui {

DocumentActions::DocumentActions(QWidget* dialogParent) : QObject(dialogParent), parent_(dialogParent)
{
    open_ =
        makeAction(this, tr("&Open\u2026"), QStringLiteral("actionOpen"), QKeySequence::Open, tr("Open an image file"));
    open_->setIcon(
        QIcon::fromTheme(QStringLiteral("document-open"), parent_->style()->standardIcon(QStyle::SP_DialogOpenButton)));
    connect(open_, &QAction::triggered, this, [this] {
        if (openGate_ && !openGate_()) {
            return;
        }
        if (const QString path = askImageToOpen(parent_); !path.isEmpty()) {
            emit openRequested(path);
        }
    });
    // Save and Save As write the image with its applied filters.
    save_ = makeAction(this, tr("&Save"), QStringLiteral("actionSave"), QKeySequence::Save,
                       tr("Write the image to its file"));
    connect(save_, &QAction::triggered, this, [this] {
        if (path_.isEmpty()) {
            chooseFileToSave();
        } else {
            emit saveRequested(path_);
        }
    });
    saveAs_ = makeAction(this, tr("Save &As\u2026"), QStringLiteral("actionSaveAs"), QKeySequence::SaveAs,
                         tr("Write the image to another file, which becomes the open one"));
    if (saveAs_->shortcuts().isEmpty()) {
        // Some platforms give Save As no key; Ctrl+Shift+S is the one most editors use.
        saveAs_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    }
    connect(saveAs_, &QAction::triggered, this, &DocumentActions::chooseFileToSave);
    export_ = makeAction(
        this, tr("&Export\u2026"), QStringLiteral("actionExport"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
        tr("Write the image with the filter stack applied to another file; the open image stays as it is"));
    connect(export_, &QAction::triggered, this, [this] {
        if (const QString path = path_.isEmpty() ? QString() : askImageToExport(parent_, path_); !path.isEmpty()) {
            emit exportRequested(path);
        }
    });
    loadPreset_ = makeAction(this, tr("&Load Preset\u2026"), QStringLiteral("actionLoadPreset"), {},
                             tr("Replace the filter stack by a preset file (undoable)"));
    connect(loadPreset_, &QAction::triggered, this, [this] {
        if (const QString path = askPresetToLoad(parent_); !path.isEmpty()) {
            emit loadPresetRequested(path);
        }
    });
    savePreset_ = makeAction(this, tr("&Save Stack as Preset\u2026"), QStringLiteral("actionSavePreset"), {},
                             tr("Write the enabled filters of the stack to a preset file"));
    connect(savePreset_, &QAction::triggered, this, [this] {
        if (const QString path = askPresetToSave(parent_); !path.isEmpty()) {
            emit savePresetRequested(path);
        }
    });
    setImageOpen(false);
}

void DocumentActions::setImageOpen(bool open)
{
    for (QAction* action : {save_, saveAs_, export_}) {
        action->setEnabled(open);
    }
}

void DocumentActions::chooseFileToSave()
{
    if (const QString path = path_.isEmpty() ? QString() : askImageToSave(parent_, path_); !path.isEmpty()) {
        emit saveRequested(path);
    }
}

}  // namespace tessera::ui
