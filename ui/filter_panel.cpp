// SPDX-License-Identifier: Apache-2.0
#include "ui/filter_panel.h"

#include "ui/param_row.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>
#include <tuple>
#include <utility>

namespace tessera::ui {

namespace {

using filters::Border;
using filters::FilterDesc;
using filters::Kernel2D;
using filters::OutputDepth;
using filters::ParamDesc;

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

QString formatKernel(const Kernel2D& kernel)
{
    QStringList rows;
    for (int y = 0; y < kernel.height; ++y) {
        QStringList row;
        for (int x = 0; x < kernel.width; ++x) {
            row << QString::number(kernel.at(x, y), 'g', 12);
        }
        rows << row.join(QLatin1Char(','));
    }
    return rows.join(QLatin1Char(';'));
}

template <typename W>
W* named(W* widget, const char* name, const QString& tip)
{
    widget->setObjectName(QString::fromLatin1(name));
    widget->setToolTip(tip);
    return widget;
}

}  // namespace

FilterPanel::FilterPanel(QWidget* parent) : QWidget(parent)
{
    filterCombo_ = named(new QComboBox(this), "filterCombo", tr("Filter to apply"));
    description_ = named(new QLabel(this), "filterDescription", QString());
    description_->setWordWrap(true);
    description_->setForegroundRole(QPalette::PlaceholderText);
    auto* top = new QFormLayout;
    top->addRow(tr("Filter:"), filterCombo_);
    top->addRow(description_);

    paramsBox_ = new QGroupBox(tr("Parameters"), this);
    (new QVBoxLayout(paramsBox_))->setContentsMargins(0, 0, 0, 0);

    auto* outputBox = new QGroupBox(tr("Output"), this);
    borderCombo_ = named(new QComboBox(outputBox), "borderCombo", tr("How pixels beyond the image edge are made up"));
    // Each item's tooltip shows what the rule puts on both sides of a row "abcdefgh".
    for (const auto& [border, text, tip] :
         {std::tuple{Border::Reflect101, "Reflect 101", "gfedcb|abcdefgh|gfedcba"},
          std::tuple{Border::Reflect, "Reflect", "fedcba|abcdefgh|hgfedcb"},
          std::tuple{Border::Replicate, "Replicate", "aaaaaa|abcdefgh|hhhhhhh"},
          std::tuple{Border::Constant, "Constant", "iiiiii|abcdefgh|iiiiiii (i: border value)"},
          std::tuple{Border::Wrap, "Wrap", "cdefgh|abcdefgh|abcdefg"}}) {
        borderCombo_->addItem(tr(text), qs(toString(border)));
        borderCombo_->setItemData(borderCombo_->count() - 1, QString::fromLatin1(tip), Qt::ToolTipRole);
    }
    borderValueSpin_ = named(new QDoubleSpinBox(outputBox), "borderValueSpin",
                             tr("Value of every pixel outside the image (constant border)"));
    borderValueSpin_->setRange(-65535.0, 65535.0);
    borderValueSpin_->setDecimals(3);
    borderValueSpin_->setKeyboardTracking(false);
    depthCombo_ = named(new QComboBox(outputBox), "depthCombo", tr("Pixel depth of the result"));
    for (const auto& [depth, text] :
         {std::pair{OutputDepth::Same, "Same as input"}, std::pair{OutputDepth::U8, "8-bit unsigned"},
          std::pair{OutputDepth::U16, "16-bit unsigned"}, std::pair{OutputDepth::F32, "32-bit float"}}) {
        depthCombo_->addItem(tr(text), qs(toString(depth)));
    }
    auto* outputForm = new QFormLayout(outputBox);
    outputForm->addRow(tr("Border:"), borderCombo_);
    outputForm->addRow(tr("Border value:"), borderValueSpin_);
    outputForm->addRow(tr("Depth:"), depthCombo_);

    resetButton_ = named(new QPushButton(tr("Reset to defaults"), this), "resetButton",
                         tr("Default parameters, border and depth for this filter"));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(paramsBox_);
    layout->addWidget(outputBox);
    layout->addWidget(resetButton_, 0, Qt::AlignRight);
    layout->addStretch(1);
    // The panel is never made shorter than its rows need: in a short dock the scroll area around
    // it then scrolls instead of squeezing the fields below their height.
    layout->setSizeConstraint(QLayout::SetMinimumSize);

    connect(filterCombo_, &QComboBox::currentIndexChanged, this, &FilterPanel::onFilterSelected);
    connect(borderCombo_, &QComboBox::currentIndexChanged, this, [this] {
        updateBorderValueEnabled();
        emit choiceChanged();
    });
    connect(borderValueSpin_, &QDoubleSpinBox::valueChanged, this, &FilterPanel::choiceChanged);
    connect(depthCombo_, &QComboBox::currentIndexChanged, this, &FilterPanel::choiceChanged);
    connect(resetButton_, &QPushButton::clicked, this, &FilterPanel::resetToDefaults);

    updateBorderValueEnabled();
    rebuildParams();
}

FilterPanel::~FilterPanel() = default;

void FilterPanel::setFilters(std::vector<filters::FilterDesc> list)
{
    filters_ = std::move(list);
    {
        const QSignalBlocker block(filterCombo_);
        filterCombo_->clear();
        for (const FilterDesc& desc : filters_) {
            filterCombo_->addItem(qs(desc.title), qs(desc.id));
            filterCombo_->setItemData(filterCombo_->count() - 1, qs(desc.description), Qt::ToolTipRole);
        }
        const int gaussian = filterCombo_->findData(QStringLiteral("gaussian"));
        filterCombo_->setCurrentIndex(gaussian >= 0 ? gaussian : (filters_.empty() ? -1 : 0));
    }
    kernel_ = filters::defaultCustomKernel();
    rebuildParams();
}

filters::FilterChoice FilterPanel::currentChoice() const
{
    filters::FilterChoice choice;
    if (const FilterDesc* desc = selectedFilter()) {
        choice.id = desc->id;
        for (const ParamRow& control : params_) {
            choice.values.values[control.desc.key] = paramValue(control);
        }
        if (desc->id == kCustomId) {
            choice.values.kernel = kernel_;
        }
    }
    // The combo boxes hold only names written by this class, so parsing them cannot fail.
    choice.border = filters::parseBorder(borderCombo_->currentData().toString().toStdString());
    choice.borderValue = borderValueSpin_->value();
    choice.depth = filters::parseOutputDepth(depthCombo_->currentData().toString().toStdString());
    return choice;
}

void FilterPanel::setChoice(const filters::FilterChoice& choice)
{
    const int index = filterCombo_->findData(qs(choice.id));
    if (index < 0) {
        return;
    }
    if (choice.id != builtId_) {
        // Rebuilding only on a real filter change keeps keyboard focus where it is on undo.
        const QSignalBlocker block(filterCombo_);
        filterCombo_->setCurrentIndex(index);
        rebuildParams();
    }
    // Only controls whose value differs are set: the document's answer to an edit made here
    // then leaves a dragged slider, a spin box or the kernel field being typed in alone.
    for (ParamRow& control : params_) {
        const double value = choice.values.get(control.desc.key, control.desc.defaultValue);
        if (paramValue(control) != value) {
            showParamValue(control, value);
        }
    }
    if (choice.id == kCustomId) {
        const Kernel2D kernel = choice.values.kernel.value_or(filters::defaultCustomKernel());
        // A field left with text that does not parse shows the document's kernel again.
        const bool fieldInError = kernelError_ != nullptr && !kernelError_->isHidden();
        if (kernel != kernel_ || fieldInError) {
            setKernel(kernel);
        }
    }
    showOutput(choice.border, choice.borderValue, choice.depth);
}

void FilterPanel::resetToDefaults()
{
    setParamsToDefaults();
    setKernel(filters::defaultCustomKernel());
    showOutput(Border::Reflect101, 0.0, OutputDepth::Same);
    emit choiceChanged();
}

const filters::FilterDesc* FilterPanel::selectedFilter() const
{
    const int index = filterCombo_->currentIndex();
    if (index < 0 || index >= static_cast<int>(filters_.size())) {
        return nullptr;
    }
    return &filters_[static_cast<size_t>(index)];
}

void FilterPanel::onFilterSelected()
{
    rebuildParams();
    emit choiceChanged();
}

void FilterPanel::rebuildParams()
{
    // The old rows go with their container; a fresh container keeps no stale rows or
    // connections into params_.
    params_.clear();
    kernelEdit_ = nullptr;
    kernelError_ = nullptr;
    delete paramsWidget_;
    paramsWidget_ = new QWidget(paramsBox_);
    paramsForm_ = new QFormLayout(paramsWidget_);
    paramsBox_->layout()->addWidget(paramsWidget_);

    const FilterDesc* desc = selectedFilter();
    builtId_ = desc != nullptr ? desc->id : std::string();
    description_->setText(desc != nullptr ? qs(desc->description) : QString());
    if (desc != nullptr) {
        params_.reserve(desc->params.size());
        for (const ParamDesc& param : desc->params) {
            addParamRow(param);
        }
        if (desc->id == kCustomId) {
            addKernelRow();
        }
    }
    if (params_.empty() && kernelEdit_ == nullptr) {
        paramsForm_->addRow(new QLabel(tr("This filter has no parameters."), paramsWidget_));
    }
    setParamsToDefaults();
    alignSpinBoxes();
    updateTabOrder();
}

void FilterPanel::alignSpinBoxes()
{
    // One width for every spin box keeps the sliders of all rows the same length.
    int width = 0;
    for (const QAbstractSpinBox* spin : paramsWidget_->findChildren<QAbstractSpinBox*>()) {
        width = std::max(width, spin->sizeHint().width());
    }
    for (QAbstractSpinBox* spin : paramsWidget_->findChildren<QAbstractSpinBox*>()) {
        spin->setMinimumWidth(width);
    }
}

void FilterPanel::addParamRow(const filters::ParamDesc& desc)
{
    ParamRow& row = params_.emplace_back();
    row.desc = desc;
    auto* label = new QLabel(qs(desc.label) + QLatin1Char(':'), paramsWidget_);
    label->setToolTip(qs(desc.tooltip));
    QWidget* field = buildParamField(row, paramsWidget_);
    // The lambdas find the row by index when they fire rather than keeping a reference to it.
    const size_t index = static_cast<size_t>(&row - params_.data());
    const auto typed = [this, index](double value) {
        showParamValue(params_[index], value);
        emit choiceChanged();
    };
    if (row.intSpin != nullptr) {
        connect(row.intSpin, &QSpinBox::valueChanged, this, typed);
    } else if (row.doubleSpin != nullptr) {
        connect(row.doubleSpin, &QDoubleSpinBox::valueChanged, this, typed);
    } else if (row.check != nullptr) {
        connect(row.check, &QCheckBox::toggled, this, &FilterPanel::choiceChanged);
    } else if (row.combo != nullptr) {
        connect(row.combo, &QComboBox::currentIndexChanged, this, &FilterPanel::choiceChanged);
    }
    if (row.slider != nullptr) {
        // followSlider() blocks the spin box, so one user change gives one choiceChanged().
        connect(row.slider, &QSlider::valueChanged, this, [this, index](int pos) {
            followSlider(params_[index], pos);
            emit choiceChanged();
        });
    }
    label->setBuddy(paramEditor(row));
    paramsForm_->addRow(label, field);
}

void FilterPanel::addKernelRow()
{
    auto* field = new QWidget(paramsWidget_);
    auto* fieldLayout = new QVBoxLayout(field);
    fieldLayout->setContentsMargins(0, 0, 0, 0);
    kernelEdit_ = named(new QLineEdit(formatKernel(kernel_), field), "kernelEdit", QString());
    kernelEdit_->setPlaceholderText(QStringLiteral("0,-1,0;-1,5,-1;0,-1,0"));
    kernelEdit_->setToolTip(tr("Rows separated by ';', weights by ',' (or blanks), up to "
                               "%1 x %1; the centre is the anchor")
                                .arg(filters::kMaxKernelSide));
    kernelError_ = named(new QLabel(field), "kernelError", QString());
    kernelError_->setWordWrap(true);
    kernelError_->setStyleSheet(QStringLiteral("color: #c62828;"));
    kernelError_->hide();
    fieldLayout->addWidget(kernelEdit_);
    fieldLayout->addWidget(kernelError_);
    auto* label = new QLabel(tr("Kernel:"), paramsWidget_);
    label->setBuddy(kernelEdit_);
    paramsForm_->addRow(label, field);
    connect(kernelEdit_, &QLineEdit::textChanged, this, &FilterPanel::onKernelEdited);
}

void FilterPanel::onKernelEdited(const QString& text)
{
    // A bad kernel keeps the last good one in effect, so the preview never sees half-typed
    // rows; the error stays on screen until the text parses again.
    try {
        kernel_ = filters::parseInlineKernel(text.trimmed().toStdString());
    } catch (const std::exception& e) {
        kernelError_->setText(QString::fromUtf8(e.what()));
        kernelError_->show();
        return;
    }
    kernelError_->clear();
    kernelError_->hide();
    emit choiceChanged();
}

void FilterPanel::setKernel(const filters::Kernel2D& kernel)
{
    kernel_ = kernel;
    if (kernelEdit_ != nullptr) {
        const QSignalBlocker block(kernelEdit_);
        kernelEdit_->setText(formatKernel(kernel_));
        kernelError_->clear();
        kernelError_->hide();
    }
}

void FilterPanel::setParamsToDefaults()
{
    for (ParamRow& control : params_) {
        showParamValue(control, control.desc.defaultValue);
    }
}

void FilterPanel::showOutput(filters::Border border, double borderValue, filters::OutputDepth depth)
{
    const QSignalBlocker blockBorder(borderCombo_);
    const QSignalBlocker blockValue(borderValueSpin_);
    const QSignalBlocker blockDepth(depthCombo_);
    borderCombo_->setCurrentIndex(borderCombo_->findData(qs(toString(border))));
    if (borderValueSpin_->value() != borderValue) {
        borderValueSpin_->setValue(borderValue);
    }
    depthCombo_->setCurrentIndex(depthCombo_->findData(qs(toString(depth))));
    updateBorderValueEnabled();
}

void FilterPanel::updateBorderValueEnabled()
{
    const QString constant = qs(filters::toString(Border::Constant));
    borderValueSpin_->setEnabled(borderCombo_->currentData().toString() == constant);
}

void FilterPanel::updateTabOrder()
{
    // Rebuilt rows join the end of the focus chain; put them back between the filter combo
    // and the output settings, in reading order.
    std::vector<QWidget*> chain{filterCombo_};
    for (const ParamRow& control : params_) {
        for (QWidget* widget : {static_cast<QWidget*>(control.slider), static_cast<QWidget*>(control.intSpin),
                                static_cast<QWidget*>(control.doubleSpin), static_cast<QWidget*>(control.check),
                                static_cast<QWidget*>(control.combo)}) {
            if (widget != nullptr) {
                chain.push_back(widget);
            }
        }
    }
    if (kernelEdit_ != nullptr) {
        chain.push_back(kernelEdit_);
    }
    chain.insert(chain.end(), {borderCombo_, borderValueSpin_, depthCombo_, resetButton_});
    for (size_t i = 1; i < chain.size(); ++i) {
        setTabOrder(chain[i - 1], chain[i]);
    }
}

}  // namespace tessera::ui
