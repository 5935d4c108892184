// SPDX-License-Identifier: Apache-2.0
#include "ui/param_row.h"

#include "ui/clamping_spin.h"

#include "ui/filter_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLocale>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

#include <algorithm>
#include <cmath>
#include <string>

namespace tessera::ui {

using filters::ParamDesc;
using filters::ParamType;

namespace {

// Translates between slider positions and parameter values. An Int slider moves in whole steps
// from the minimum, so a drag can only land on allowed values (odd apertures skip the even
// ones). A Double slider cuts its range into FilterPanel::kDoubleSliderSteps parts: equal
// parts of the value, or, for a positive range spanning two decades or more (sigma 0.1 to 40),
// equal ratios, so that the small values where a change shows most get as much travel as the
// large ones (sigma 0.3 to 3 takes over a third of the slider instead of 7 %).
struct SliderScale {
    double origin = 0.0;
    double delta = 0.0;
    int positions = 0;
    bool logarithmic = false;

    explicit SliderScale(const ParamDesc& d) : origin(d.minValue)
    {
        if (d.type == ParamType::Int) {
            const long step = std::max(1L, std::lround(d.step));
            origin = static_cast<double>(std::lround(d.minValue));
            delta = static_cast<double>(step);
            positions = static_cast<int>(std::max(0L, (std::lround(d.maxValue) - std::lround(d.minValue)) / step));
        } else if (d.maxValue > d.minValue) {
            positions = FilterPanel::kDoubleSliderSteps;
            logarithmic = usesLogScale(d);
            if (logarithmic) {
                origin = std::log(d.minValue);
                delta = (std::log(d.maxValue) - origin) / positions;
            } else {
                delta = (d.maxValue - d.minValue) / positions;
            }
        }
    }
    double valueAt(int pos) const { return logarithmic ? std::exp(origin + pos * delta) : origin + pos * delta; }
    int positionOf(double value) const
    {
        if (delta <= 0.0) {
            return 0;
        }
        const double along = logarithmic ? std::log(std::max(value, 1e-300)) - origin : value - origin;
        return std::clamp(static_cast<int>(std::lround(along / delta)), 0, positions);
    }
    // Slider positions an arrow key moves: one step of the parameter, or on a ratio scale a
    // hundredth of the travel (about 6 % of the value for sigma), fine at either end.
    int stepPositions(double step) const
    {
        if (delta <= 0.0) {
            return 1;
        }
        if (logarithmic) {
            return std::max(1, positions / 100);
        }
        return std::max(1, static_cast<int>(std::lround(step / delta)));
    }
};

// A digit more than the step needs, so that slider positions falling between two steps still
// read differently in the spin box.
int decimalsFor(double step)
{
    int decimals = 0;
    double scaled = std::abs(step);
    while (decimals < 5 && std::abs(scaled - std::round(scaled)) > 1e-9) {
        scaled *= 10.0;
        ++decimals;
    }
    return decimals + 1;
}

QWidget* buildNumericField(ParamRow& row, QWidget* parent)
{
    const ParamDesc& d = row.desc;
    const SliderScale scale(d);
    auto* holder = new QWidget(parent);
    auto* holderLayout = new QHBoxLayout(holder);
    holderLayout->setContentsMargins(0, 0, 0, 0);
    row.slider = new QSlider(Qt::Horizontal, holder);
    row.slider->setRange(0, scale.positions);
    row.slider->setSingleStep(scale.stepPositions(d.step));
    row.slider->setPageStep(std::max(1, scale.positions / 10));

    QAbstractSpinBox* spin = nullptr;
    if (d.type == ParamType::Int) {
        row.intSpin = new ClampingSpinBox(holder);
        row.intSpin->setRange(static_cast<int>(std::lround(d.minValue)), static_cast<int>(std::lround(d.maxValue)));
        row.intSpin->setSingleStep(static_cast<int>(scale.delta));
        spin = row.intSpin;
    } else {
        row.doubleSpin = new ClampingDoubleSpinBox(holder);
        row.doubleSpin->setDecimals(decimalsFor(d.step));
        row.doubleSpin->setRange(d.minValue, d.maxValue);
        row.doubleSpin->setSingleStep(d.step);
        spin = row.doubleSpin;
    }
    // Without keyboard tracking a typed number applies only on Enter or focus loss, so a value
    // on its way ("1" before "15") never reaches the preview; arrows, wheel and slider still act
    // immediately.
    spin->setKeyboardTracking(false);
    spin->setAccelerated(true);
    spin->setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
    // The range in the tooltip: a number typed outside it is clamped to its nearest end.
    const QString range =
        QStringLiteral("%1 \u2013 %2").arg(QLocale().toString(d.minValue), QLocale().toString(d.maxValue));
    const QString tip = d.tooltip.empty() ? QObject::tr("Range %1").arg(range)
                                          : QObject::tr("%1 (range %2)").arg(QString::fromStdString(d.tooltip), range);
    const std::string name = "param_" + d.key;
    row.slider->setObjectName(QString::fromLatin1((name + "_slider").c_str()));
    row.slider->setToolTip(
        scale.logarithmic ? QObject::tr("%1; the slider moves by equal ratios, finer at small values").arg(tip) : tip);
    spin->setObjectName(QString::fromLatin1((name + "_spin").c_str()));
    spin->setToolTip(tip);
    holderLayout->addWidget(row.slider, 1);
    holderLayout->addWidget(spin);
    return holder;
}

}  // namespace

bool usesLogScale(const ParamDesc& desc)
{
    constexpr double kDecades = 100.0;
    return desc.type == ParamType::Double && desc.minValue > 0.0 && desc.maxValue >= kDecades * desc.minValue;
}

double sliderValueAt(const ParamDesc& desc, int pos)
{
    return SliderScale(desc).valueAt(pos);
}

double paramValue(const ParamRow& row)
{
    switch (row.desc.type) {
    case ParamType::Int: return row.intSpin->value();
    case ParamType::Double: return row.doubleSpin->value();
    case ParamType::Bool: return row.check->isChecked() ? 1.0 : 0.0;
    case ParamType::Choice: return row.combo->currentIndex();
    }
    return row.desc.defaultValue;
}

void showParamValue(ParamRow& row, double value)
{
    const QSignalBlocker blockSlider(row.slider);
    const QSignalBlocker blockInt(row.intSpin);
    const QSignalBlocker blockDouble(row.doubleSpin);
    const QSignalBlocker blockCheck(row.check);
    const QSignalBlocker blockCombo(row.combo);
    const SliderScale scale(row.desc);
    switch (row.desc.type) {
    case ParamType::Int:
        // Going through the slider rounds a typed value onto the step grid (4 becomes 3 or 5
        // when only odd values are allowed), and the spin box then shows the snapped value.
        row.slider->setValue(scale.positionOf(value));
        row.intSpin->setValue(static_cast<int>(scale.valueAt(row.slider->value())));
        break;
    case ParamType::Double:
        row.doubleSpin->setValue(value);
        row.slider->setValue(scale.positionOf(row.doubleSpin->value()));
        break;
    case ParamType::Bool: row.check->setChecked(value != 0.0); break;
    case ParamType::Choice:
        row.combo->setCurrentIndex(std::clamp(static_cast<int>(std::lround(value)), 0, row.combo->count() - 1));
        break;
    }
}

QWidget* buildParamField(ParamRow& row, QWidget* parent)
{
    const QString tip = QString::fromStdString(row.desc.tooltip);
    const std::string name = "param_" + row.desc.key;
    switch (row.desc.type) {
    case ParamType::Int:
    case ParamType::Double: return buildNumericField(row, parent);
    case ParamType::Bool:
        row.check = new QCheckBox(parent);
        row.check->setObjectName(QString::fromLatin1((name + "_check").c_str()));
        row.check->setToolTip(tip);
        return row.check;
    case ParamType::Choice:
        row.combo = new QComboBox(parent);
        row.combo->setObjectName(QString::fromLatin1((name + "_combo").c_str()));
        row.combo->setToolTip(tip);
        for (const std::string& choice : row.desc.choices) {
            row.combo->addItem(QString::fromStdString(choice));
        }
        return row.combo;
    }
    return nullptr;
}

QWidget* paramEditor(const ParamRow& row)
{
    for (QWidget* widget : {static_cast<QWidget*>(row.intSpin), static_cast<QWidget*>(row.doubleSpin),
                            static_cast<QWidget*>(row.check), static_cast<QWidget*>(row.combo)}) {
        if (widget != nullptr) {
            return widget;
        }
    }
    return nullptr;
}

void followSlider(ParamRow& row, int pos)
{
    const double value = SliderScale(row.desc).valueAt(pos);
    const QSignalBlocker blockInt(row.intSpin);
    const QSignalBlocker blockDouble(row.doubleSpin);
    if (row.intSpin != nullptr) {
        row.intSpin->setValue(static_cast<int>(std::lround(value)));
    } else {
        row.doubleSpin->setValue(value);
    }
}

}  // namespace tessera::ui
