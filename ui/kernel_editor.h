// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "filters/custom_kernel.h"

#include <QString>
#include <QWidget>

#include <optional>

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace tessera::ui {

class KernelGridModel;
class KernelGridView;

/// Edits the custom filter's kernel on a grid: size, weights, anchor, normalise, scale and
/// offset, JSON presets; or shows a built-in filter's kernel read-only. Every user edit emits
/// kernelEdited() once; the setters emit nothing (for undo). Preset files are read and written
/// by app/. GUI thread only; nothing here throws.
class KernelEditor : public QWidget {
    Q_OBJECT

public:
    /// False, although labels in it wrap: a dock's scroll area would otherwise size the editor
    /// by height-for-width, giving the grid every row and pushing the controls below out of
    /// view; this way the grid takes the room that is left and scrolls within itself.
    bool hasHeightForWidth() const override { return false; }
    /// At least the height its wrapped labels need at the current width, so that a short dock
    /// scrolls the editor instead of laying its parts over one another.
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

public:
    /// Largest side the size spin boxes offer (larger kernels can still be shown).
    static constexpr int kMaxEditorSide = 127;

    /// Starts with an editable 3 x 3 identity kernel, scale 1, offset 0.
    explicit KernelEditor(QWidget* parent = nullptr);
    ~KernelEditor() override;

    /// Shows k as the editable custom kernel (anchor empty = centre). Emits nothing.
    void setKernel(const tessera::filters::Kernel2D& k, std::optional<tessera::filters::Point> anchor = {});
    tessera::filters::Kernel2D kernel() const;
    /// The explicit anchor; empty when the kernel's centre is used.
    std::optional<tessera::filters::Point> anchor() const;
    /// Read-only view of the kernel a built-in filter makes (title e.g. "Gaussian 7 x 7"), with
    /// its anchor, scale and offset; the grid cannot be edited; "Copy to custom" turns it into
    /// an editable custom kernel and emits kernelEdited. Emits nothing itself.
    void showReadOnly(const tessera::filters::FilterSpec& spec, const QString& title);
    bool isReadOnly() const;

    /// Output scale and offset (output = scale * sum + offset) as the fields show them.
    double scale() const;
    double offset() const;
    /// Shows scale and offset without emitting anything (for undo and presets).
    void setScaleOffset(double scale, double offset);
    /// Kernel, anchor, scale and offset as one value.
    tessera::filters::CustomKernel customKernel() const;

    /// Shows a kernel read from the preset file fileName as the editable custom kernel, with its
    /// anchor, scale and offset, and note under the grid; emits kernelEdited (a user's load).
    void showLoadedKernel(const tessera::filters::CustomKernel& value, const QString& fileName, const QString& note);
    /// Says under the grid that the kernel was saved as fileName.
    void showSaved(const QString& fileName);
    /// The last hint or error shown under the grid (empty when none).
    QString message() const;

public slots:
    /// Asks for a preset file and emits loadPresetRequested() with it.
    void openLoadDialog();
    /// Asks for a file name and emits savePresetRequested() with it.
    void openSaveDialog();
    /// Divides the weights by their sum and emits kernelEdited; when the sum is ~0 shows why
    /// and changes nothing.
    void normalise();
    /// Puts the anchor back to the centre and emits kernelEdited (when it was elsewhere).
    void centreAnchor();
    /// Makes the read-only kernel the editable custom kernel and emits kernelEdited.
    void copyToCustom();

signals:
    /// After every user edit (cell, size, anchor, normalise, scale/offset, load, copy to
    /// custom). Scale and offset are not in the arguments: scale() and offset() hold the
    /// values in effect when it fires.
    void kernelEdited(const tessera::filters::Kernel2D& kernel, std::optional<tessera::filters::Point> anchor);
    /// The user picked a kernel preset to load; app/ reads it and answers with
    /// showLoadedKernel() or an error.
    void loadPresetRequested(const QString& path);
    /// The user picked a file to save customKernel() in; app/ writes it and answers with
    /// showSaved() or an error.
    void savePresetRequested(const QString& path);

private:
    void createSizeControls();
    void createGridAndLabels();
    void createOutputControls();
    void layOutControls();
    void connectControls();
    void setTabChain();
    void onSizeEdited();
    void onAnchorPicked(int x, int y);
    void onWeightRefused(int x, int y, const QString& text);
    void clearCells();
    void showKernel(const tessera::filters::Kernel2D& kernel, std::optional<tessera::filters::Point> anchor);
    void setReadOnlyMode(bool readOnly, const QString& title);
    void updateSummary();
    void setMessage(const QString& text, bool isError);
    /// Refreshes the labels, shows note (or clears the message) and emits kernelEdited().
    void finishEdit(const QString& note = QString());

    KernelGridModel* model_ = nullptr;
    KernelGridView* grid_ = nullptr;

    QLabel* title_ = nullptr;
    QSpinBox* widthSpin_ = nullptr;
    QSpinBox* heightSpin_ = nullptr;
    QPushButton* centreAnchorButton_ = nullptr;
    QPushButton* pickAnchorButton_ = nullptr;
    QLabel* sumLabel_ = nullptr;
    QLabel* anchorLabel_ = nullptr;
    QLabel* separableLabel_ = nullptr;
    QLabel* message_ = nullptr;
    QPushButton* normaliseButton_ = nullptr;
    QDoubleSpinBox* scaleSpin_ = nullptr;
    QDoubleSpinBox* offsetSpin_ = nullptr;
    QPushButton* loadButton_ = nullptr;
    QPushButton* saveButton_ = nullptr;
    QPushButton* copyButton_ = nullptr;
};

}  // namespace tessera::ui
