// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QWidget;

namespace tessera::ui {

/// The actions that read or write files, with their file dialogs: Open, Save, Save As, Export,
/// Load Preset and Save Stack as Preset. They only ask; the answers go out as signals. GUI
/// thread only.
class DocumentActions : public QObject {
    Q_OBJECT

public:
    /// Creates the actions; dialogs open over dialogParent.
    explicit DocumentActions(QWidget* dialogParent);

    QAction* open() const { return open_; }
    QAction* save() const { return save_; }
    QAction* saveAs() const { return saveAs_; }
    QAction* exportImage() const { return export_; }
    QAction* loadPreset() const { return loadPreset_; }
    QAction* savePreset() const { return savePreset_; }

    /// The file Save writes and Save As and Export start from; empty when no image is open.
    void setDocumentPath(const QString& path) { path_ = path; }
    /// Enables what needs an open image (Save, Save As, Export).
    void setImageOpen(bool open);
    /// Asked before Open shows its file dialog; returning false (the user kept the document)
    /// cancels the Open.
    void setOpenGate(std::function<bool()> gate) { openGate_ = std::move(gate); }

signals:
    void openRequested(const QString& path);
    void saveRequested(const QString& path);
    void exportRequested(const QString& path);
    void loadPresetRequested(const QString& path);
    void savePresetRequested(const QString& path);

private:
    void chooseFileToSave();

    QWidget* parent_;
    QString path_;
    std::function<bool()> openGate_;
    QAction* open_ = nullptr;
    QAction* save_ = nullptr;
    QAction* saveAs_ = nullptr;
    QAction* export_ = nullptr;
    QAction* loadPreset_ = nullptr;
    QAction* savePreset_ = nullptr;
};

}  // namespace tessera::ui
