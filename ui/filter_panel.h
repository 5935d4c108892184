// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/filter_spec.h"
#include "filters/filter_stack_model.h"
#include "filters/registry.h"

#include <QWidget>

#include <string>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace tessera::ui {

struct ParamRow;  // ui/param_row.h; only the private members below need it

/// Picks a filter and edits its parameters with controls built from the registry's ParamDesc
/// list, plus the border rule and output depth. Emits choiceChanged() on every user edit
/// (continuously while a slider is dragged). GUI thread only; nothing here throws.
class FilterPanel : public QWidget {
    Q_OBJECT

public:
    /// Id of the filter whose kernel is typed into the panel instead of computed.
    static constexpr const char* kCustomId = filters::kCustomFilterId;
    /// Slider positions across the range of a Double parameter.
    static constexpr int kDoubleSliderSteps = 1000;

    /// Creates an empty panel; call setFilters() to fill it.
    explicit FilterPanel(QWidget* parent = nullptr);
    /// Defined out of line for the forward-declared control types.
    ~FilterPanel() override;

    /// Lists these filters and selects "gaussian" (or the first one) with its defaults. Does
    /// not emit choiceChanged().
    void setFilters(std::vector<filters::FilterDesc> filters);
    /// The filters listed, in the combo box's order.
    const std::vector<filters::FilterDesc>& availableFilters() const { return filters_; }
    /// What the controls show now: every parameter of the selected filter has a value, and the
    /// custom filter carries the last kernel that parsed. An empty id when no filter is listed.
    filters::FilterChoice currentChoice() const;
    /// Shows the document's choice (after undo, a preset, a selection) without emitting
    /// choiceChanged(). Missing values take their defaults; an id that is not listed leaves the
    /// panel as it was.
    void setChoice(const filters::FilterChoice& choice);

public slots:
    /// Puts the selected filter's parameters, the kernel, border and depth back to their
    /// defaults and emits choiceChanged() once.
    void resetToDefaults();

signals:
    /// The user changed the filter, a parameter, the kernel, the border or the depth.
    void choiceChanged();

private:
    const filters::FilterDesc* selectedFilter() const;
    void onFilterSelected();
    void rebuildParams();
    void addParamRow(const filters::ParamDesc& desc);
    void addKernelRow();
    void onKernelEdited(const QString& text);
    void setKernel(const filters::Kernel2D& kernel);
    void setParamsToDefaults();
    void showOutput(filters::Border border, double borderValue, filters::OutputDepth depth);
    void updateBorderValueEnabled();
    void alignSpinBoxes();
    void updateTabOrder();

    std::vector<filters::FilterDesc> filters_;
    std::vector<ParamRow> params_;
    std::string builtId_;
    filters::Kernel2D kernel_;

    QComboBox* filterCombo_ = nullptr;
    QLabel* description_ = nullptr;
    QGroupBox* paramsBox_ = nullptr;
    QWidget* paramsWidget_ = nullptr;
    QFormLayout* paramsForm_ = nullptr;
    QLineEdit* kernelEdit_ = nullptr;
    QLabel* kernelError_ = nullptr;
    QComboBox* borderCombo_ = nullptr;
    QDoubleSpinBox* borderValueSpin_ = nullptr;
    QComboBox* depthCombo_ = nullptr;
    QPushButton* resetButton_ = nullptr;
};

}  // namespace tessera::ui
