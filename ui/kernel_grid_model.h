// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"

#include <QAbstractTableModel>

#include <optional>

namespace tessera::ui {

/// Reads a weight typed into a cell: a number in the C locale or the user's locale, or a
/// fraction such as "1/16". Empty when the text is not a finite number.
std::optional<double> parseWeight(const QString& text);
/// The shortest text that reads back to exactly value ("0.1", "-2", "1e-07").
QString formatWeight(double value);
/// A width x height copy of k with the centres aligned: cell (k.width / 2, k.height / 2)
/// lands on (width / 2, height / 2); weights falling outside are dropped, new cells are 0.
filters::Kernel2D resizeCentred(const filters::Kernel2D& k, int width, int height);

/// One kernel as a table (row = y, column = x) plus its anchor. Cells show short numbers
/// shaded by weight (blue negative, red positive); editing takes the full-precision text.
/// GUI thread only.
class KernelGridModel : public QAbstractTableModel {
    Q_OBJECT

public:
    /// Data role holding true on the anchor cell.
    static constexpr int AnchorRole = Qt::UserRole + 1;

    /// Starts with the 1 x 1 kernel {1}, centred anchor, editable.
    explicit KernelGridModel(QObject* parent = nullptr);

    /// Replaces kernel and anchor (empty = centre); an anchor outside the kernel is dropped.
    /// Emits no edit signal.
    void setKernel(const filters::Kernel2D& kernel, std::optional<filters::Point> anchor);
    const filters::Kernel2D& kernel() const { return kernel_; }
    /// The explicit anchor, empty when it is the centre by default.
    std::optional<filters::Point> anchor() const { return anchor_; }
    /// The anchor in effect (explicit or the centre).
    filters::Point effectiveAnchor() const;
    /// Moves the anchor (empty = centre; outside the kernel is ignored). Emits no edit signal.
    void setAnchor(std::optional<filters::Point> anchor);
    /// Resizes to width x height with the weights centred (resizeCentred). Weights cut off by
    /// shrinking come back when the grid grows again, until another edit; an explicit anchor
    /// moves with its cell, clamped into the grid. Emits no edit signal.
    void resize(int width, int height);
    /// Sets every listed cell to value; returns whether any weight changed. Emits no edit signal.
    bool fill(const QModelIndexList& cells, double value);
    /// A read-only grid refuses setData() and offers no editors.
    void setReadOnly(bool readOnly);
    bool isReadOnly() const { return readOnly_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    /// Takes a double, or text through parseWeight(); refused text emits weightRefused().
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

signals:
    /// A cell took a new weight through setData() (a user edit).
    void weightEdited(int x, int y, double value);
    /// Text typed into cell (x, y) is not a number; the cell keeps its weight.
    void weightRefused(int x, int y, const QString& text);

private:
    void refreshAll();
    void rememberBase();
    QModelIndex cell(filters::Point p) const { return index(p.y, p.x); }

    filters::Kernel2D kernel_;
    std::optional<filters::Point> anchor_;
    // The kernel as it was before the current run of resizes.
    filters::Kernel2D base_;
    std::optional<filters::Point> baseAnchor_;
    double maxAbs_ = 1.0;
    bool readOnly_ = false;
};

}  // namespace tessera::ui
