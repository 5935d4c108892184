// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "filters/registry.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSlider;
class QSpinBox;
class QWidget;

namespace tessera::ui {

/// The widgets of one parameter row of the FilterPanel; which pointers are set depends on
/// desc.type (a slider plus one spin box for numbers, a check box or a combo box otherwise).
struct ParamRow {
    filters::ParamDesc desc;
    QSlider* slider = nullptr;
    QSpinBox* intSpin = nullptr;
    QDoubleSpinBox* doubleSpin = nullptr;
    QCheckBox* check = nullptr;
    QComboBox* combo = nullptr;
};

/// True when the slider of a parameter moves along a ratio (logarithmic) scale: decimal
/// parameters whose range is positive and spans a factor of 100 or more, such as sigma.
bool usesLogScale(const filters::ParamDesc& desc);
/// The value that slider position pos of desc's slider stands for.
double sliderValueAt(const filters::ParamDesc& desc, int pos);
/// The value the row's controls show now, in the parameter's own units.
double paramValue(const ParamRow& row);
/// Shows value in every control of the row with their signals blocked; Int values snap to the
/// slider's step grid.
void showParamValue(ParamRow& row, double value);
/// Creates the controls that row.desc calls for under parent, named and with the parameter's
/// tooltip, and returns the widget for the form's field column; nothing is connected yet.
QWidget* buildParamField(ParamRow& row, QWidget* parent);
/// The control that takes the value (spin box, check box or combo box), for a label's buddy.
QWidget* paramEditor(const ParamRow& row);
/// Moves the row's spin box to slider position pos with the spin box's signals blocked.
void followSlider(ParamRow& row, int pos);

}  // namespace tessera::ui
