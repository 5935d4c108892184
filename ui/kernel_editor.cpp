// SPDX-License-Identifier: Apache-2.0
#include "ui/kernel_editor.h"

#include "ui/file_dialogs.h"
#include "ui/separability_text.h"
#include "ui/kernel_grid.h"
#include "ui/kernel_grid_model.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QToolTip>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <initializer_list>
#include <vector>

namespace tessera::ui {

namespace {

using filters::Kernel2D;
using filters::Point;

// The kernel a fresh editor shows: a 3 x 3 identity, the same start as the filter panel.
Kernel2D identityKernel()
{
    return Kernel2D{3, 3, {0, 0, 0, 0, 1, 0, 0, 0, 0}};
}

template <typename W>
W* named(W* widget, const char* name, const QString& tip)
{
    widget->setObjectName(QString::fromLatin1(name));
    widget->setToolTip(tip);
    return widget;
}

// A row of widgets; nullptr stands for a stretch.
QHBoxLayout* rowOf(std::initializer_list<QWidget*> widgets)
{
    auto* row = new QHBoxLayout;
    for (QWidget* widget : widgets) {
        if (widget != nullptr) {
            row->addWidget(widget);
        } else {
            row->addStretch(1);
        }
    }
    return row;
}

}  // namespace

KernelEditor::KernelEditor(QWidget* parent) : QWidget(parent)
{
    createSizeControls();
    createGridAndLabels();
    createOutputControls();
    layOutControls();
    connectControls();
    setTabChain();
    setKernel(identityKernel());
}

void KernelEditor::createSizeControls()
{
    title_ = named(new QLabel(this), "kernelTitle", QString());
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);

    const auto makeSideSpin = [this](const char* name, const QString& tip) {
        auto* spin = named(new QSpinBox(this), name, tip);
        spin->setRange(1, kMaxEditorSide);
        // A typed size applies on Enter, so "15" never passes through a 1-wide grid.
        spin->setKeyboardTracking(false);
        return spin;
    };
    widthSpin_ = makeSideSpin("widthSpin", tr("Kernel width in cells; the weights stay centred"));
    heightSpin_ = makeSideSpin("heightSpin", tr("Kernel height in cells; the weights stay centred"));
    pickAnchorButton_ = named(new QPushButton(tr("Set &anchor"), this), "setAnchorButton",
                              tr("Then click the cell that lands on the output pixel "
                                 "(Ctrl+click a cell works at any time)"));
    pickAnchorButton_->setCheckable(true);
    centreAnchorButton_ =
        named(new QPushButton(tr("Ce&ntre"), this), "centreAnchorButton", tr("Anchor the kernel at its centre cell"));
}

void KernelEditor::createGridAndLabels()
{
    model_ = new KernelGridModel(this);
    grid_ = named(new KernelGridView(this), "kernelGrid", QString());
    grid_->setModel(model_);

    sumLabel_ = named(new QLabel(this), "sumLabel",
                      tr("Sum of all weights: the filter's gain "
                         "on flat areas"));
    anchorLabel_ = named(new QLabel(this), "anchorLabel", QString());
    separableLabel_ = named(new QLabel(this), "separableLabel", QString());
    separableLabel_->setWordWrap(true);
    separableLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_ = named(new QLabel(this), "kernelMessage", QString());
    message_->setWordWrap(true);
    message_->hide();
}

void KernelEditor::createOutputControls()
{
    scaleSpin_ = named(new QDoubleSpinBox(this), "scaleSpin", tr("Output = scale \u00d7 weighted sum + offset"));
    scaleSpin_->setRange(-1e6, 1e6);
    scaleSpin_->setDecimals(6);
    scaleSpin_->setSingleStep(0.1);
    scaleSpin_->setValue(1.0);
    offsetSpin_ = named(new QDoubleSpinBox(this), "offsetSpin", tr("Added after scaling, in output pixel values"));
    offsetSpin_->setRange(-65535.0, 65535.0);
    offsetSpin_->setDecimals(3);
    for (QDoubleSpinBox* spin : {scaleSpin_, offsetSpin_}) {
        spin->setKeyboardTracking(false);
    }
    normaliseButton_ =
        named(new QPushButton(tr("Divide by Su&m"), this), "normaliseButton",
              tr("Divide every weight by their sum once, so that they add up to 1 (the custom filter's "
                 "Normalize parameter instead divides at every run and leaves the weights as they are)"));
    loadButton_ = named(new QPushButton(tr("&Load\u2026"), this), "loadButton", tr("Open a kernel preset (JSON)"));
    saveButton_ = named(new QPushButton(tr("&Save\u2026"), this), "saveButton",
                        tr("Save the kernel, anchor, scale and offset as a JSON preset"));
    copyButton_ = named(new QPushButton(tr("Co&py to custom"), this), "copyToCustomButton",
                        tr("Edit a copy of this kernel as the custom filter"));
    copyButton_->hide();
}

void KernelEditor::layOutControls()
{
    auto* scaleLabel = new QLabel(tr("S&cale:"), this);
    scaleLabel->setBuddy(scaleSpin_);
    auto* offsetLabel = new QLabel(tr("&Offset:"), this);
    offsetLabel->setBuddy(offsetSpin_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(rowOf({title_, nullptr, copyButton_}));
    // Rows short enough for a dock of about 400 pixels (nothing is cut off at the right) and few
    // enough that a 7 x 7 kernel and every control below it fit the dock of a 1280 x 800 window
    // without scrolling.
    layout->addLayout(rowOf({new QLabel(tr("Size:"), this), widthSpin_, new QLabel(QStringLiteral("\u00d7"), this),
                             heightSpin_, nullptr, pickAnchorButton_, centreAnchorButton_}));
    layout->addWidget(grid_, 1);
    layout->addLayout(rowOf({sumLabel_, anchorLabel_, nullptr}));
    layout->addWidget(separableLabel_);
    layout->addWidget(message_);
    layout->addLayout(rowOf({scaleLabel, scaleSpin_, offsetLabel, offsetSpin_, nullptr}));
    layout->addLayout(rowOf({normaliseButton_, nullptr, loadButton_, saveButton_}));
    // The grid scrolls within itself before the dock has to: three rows at the least.
    grid_->setMinimumHeight(grid_->horizontalHeader()->sizeHint().height() +
                            3 * grid_->verticalHeader()->defaultSectionSize() + 2 * grid_->frameWidth());
}

void KernelEditor::connectControls()
{
    connect(widthSpin_, &QSpinBox::valueChanged, this, &KernelEditor::onSizeEdited);
    connect(heightSpin_, &QSpinBox::valueChanged, this, &KernelEditor::onSizeEdited);
    connect(pickAnchorButton_, &QPushButton::toggled, this, [this](bool on) {
        grid_->setAnchorPicking(on);
        if (on) {
            grid_->setFocus(Qt::OtherFocusReason);
        }
    });
    connect(grid_, &KernelGridView::anchorPickingChanged, this, [this](bool on) {
        const QSignalBlocker block(pickAnchorButton_);
        pickAnchorButton_->setChecked(on);
    });
    connect(grid_, &KernelGridView::anchorPicked, this, &KernelEditor::onAnchorPicked);
    connect(grid_, &KernelGridView::centreAnchorRequested, this, &KernelEditor::centreAnchor);
    connect(grid_, &KernelGridView::clearRequested, this, &KernelEditor::clearCells);
    connect(centreAnchorButton_, &QPushButton::clicked, this, &KernelEditor::centreAnchor);
    connect(model_, &KernelGridModel::weightEdited, this, [this] { finishEdit(); });
    connect(model_, &KernelGridModel::weightRefused, this, &KernelEditor::onWeightRefused);
    connect(normaliseButton_, &QPushButton::clicked, this, &KernelEditor::normalise);
    for (QDoubleSpinBox* spin : {scaleSpin_, offsetSpin_}) {
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this] { finishEdit(); });
    }
    connect(loadButton_, &QPushButton::clicked, this, &KernelEditor::openLoadDialog);
    connect(saveButton_, &QPushButton::clicked, this, &KernelEditor::openSaveDialog);
    connect(copyButton_, &QPushButton::clicked, this, &KernelEditor::copyToCustom);
}

void KernelEditor::setTabChain()
{
    const std::vector<QWidget*> chain{widthSpin_,  heightSpin_, pickAnchorButton_, centreAnchorButton_,
                                      grid_,       scaleSpin_,  offsetSpin_,       normaliseButton_,
                                      loadButton_, saveButton_, copyButton_};
    for (size_t i = 1; i < chain.size(); ++i) {
        setTabOrder(chain[i - 1], chain[i]);
    }
}

KernelEditor::~KernelEditor() = default;

void KernelEditor::setKernel(const filters::Kernel2D& k, std::optional<filters::Point> anchor)
{
    setReadOnlyMode(false, tr("Custom kernel"));
    showKernel(k, anchor);
    setMessage(QString(), false);
}

filters::Kernel2D KernelEditor::kernel() const
{
    return model_->kernel();
}

std::optional<filters::Point> KernelEditor::anchor() const
{
    return model_->anchor();
}

void KernelEditor::showReadOnly(const filters::FilterSpec& spec, const QString& title)
{
    setReadOnlyMode(true, title);
    showKernel(spec.kernel, spec.anchor);
    setScaleOffset(spec.scale, spec.offset);
    setMessage(QString(), false);
}

bool KernelEditor::isReadOnly() const
{
    return model_->isReadOnly();
}

double KernelEditor::scale() const
{
    return scaleSpin_->value();
}

double KernelEditor::offset() const
{
    return offsetSpin_->value();
}

void KernelEditor::setScaleOffset(double scale, double offset)
{
    const QSignalBlocker blockScale(scaleSpin_);
    const QSignalBlocker blockOffset(offsetSpin_);
    scaleSpin_->setValue(scale);
    offsetSpin_->setValue(offset);
}

filters::CustomKernel KernelEditor::customKernel() const
{
    return filters::CustomKernel{kernel(), anchor(), scale(), offset()};
}

void KernelEditor::showLoadedKernel(const filters::CustomKernel& value, const QString& fileName, const QString& note)
{
    setReadOnlyMode(false, tr("Custom kernel"));
    showKernel(value.kernel, value.anchor);
    setScaleOffset(value.scale, value.offset);
    finishEdit((tr("Loaded %1.").arg(fileName) + QLatin1Char(' ') + note).trimmed());
}

void KernelEditor::showSaved(const QString& fileName)
{
    setMessage(tr("Saved %1.").arg(fileName), false);
}

QString KernelEditor::message() const
{
    return message_->text();
}

void KernelEditor::openLoadDialog()
{
    const QString path = askKernelPresetToLoad(this);
    if (path.isEmpty()) {
        return;
    }
    emit loadPresetRequested(path);
}

void KernelEditor::openSaveDialog()
{
    const QString path = askKernelPresetToSave(this);
    if (path.isEmpty()) {
        return;
    }
    emit savePresetRequested(path);
}

void KernelEditor::normalise()
{
    if (isReadOnly()) {
        return;
    }
    const Kernel2D& k = model_->kernel();
    const std::optional<Kernel2D> normalised = filters::unitSumKernel(k);
    if (!normalised) {
        setMessage(tr("The weights add up to 0, so there is nothing to divide by; the kernel is "
                      "unchanged. Zero-sum kernels (edges, Laplacians) keep flat areas at 0; "
                      "use Offset to lift them."),
                   true);
    } else if (*normalised == k) {
        setMessage(tr("The weights already add up to 1."), false);
    } else {
        const double sum = k.sum();
        model_->setKernel(*normalised, model_->anchor());
        finishEdit(tr("Divided every weight by %1.").arg(QString::number(sum, 'g', 8)));
    }
}

void KernelEditor::centreAnchor()
{
    if (isReadOnly() || !model_->anchor()) {
        return;
    }
    model_->setAnchor(std::nullopt);
    finishEdit();
}

void KernelEditor::copyToCustom()
{
    if (!isReadOnly()) {
        return;
    }
    setReadOnlyMode(false, tr("Custom kernel"));
    grid_->setFocus(Qt::OtherFocusReason);
    finishEdit(tr("This is now the custom kernel; edit it freely."));
}

void KernelEditor::onSizeEdited()
{
    if (isReadOnly()) {
        return;
    }
    model_->resize(widthSpin_->value(), heightSpin_->value());
    finishEdit();
}

void KernelEditor::onAnchorPicked(int x, int y)
{
    if (isReadOnly() || model_->anchor() == Point{x, y}) {
        return;
    }
    model_->setAnchor(Point{x, y});
    finishEdit();
}

void KernelEditor::finishEdit(const QString& note)
{
    updateSummary();
    setMessage(note, false);
    emit kernelEdited(model_->kernel(), model_->anchor());
}

void KernelEditor::onWeightRefused(int x, int y, const QString& text)
{
    const QString message = tr("\u201c%1\u201d is not a number; cell (%2, %3) keeps %4. Type a number such "
                               "as 0.25, -1e-3 or 1/16.")
                                .arg(text)
                                .arg(x)
                                .arg(y)
                                .arg(formatWeight(model_->kernel().at(x, y)));
    setMessage(message, true);
    // Said at the cell as well: the message line may be scrolled out of the dock.
    const QRect cell = grid_->visualRect(model_->index(y, x));
    QToolTip::showText(grid_->viewport()->mapToGlobal(cell.bottomLeft()), message, grid_->viewport(), cell, 8000);
}

void KernelEditor::clearCells()
{
    if (!isReadOnly() && model_->fill(grid_->targetCells(), 0.0)) {
        finishEdit();
    }
}

void KernelEditor::showKernel(const filters::Kernel2D& kernel, std::optional<filters::Point> anchor)
{
    grid_->setAnchorPicking(false);
    model_->setKernel(kernel, anchor);
    // Large kernels open on their anchor rather than on a corner of near-zero tails.
    const Point a = model_->effectiveAnchor();
    grid_->scrollTo(model_->index(a.y, a.x), QAbstractItemView::PositionAtCenter);
    updateSummary();
}

void KernelEditor::setReadOnlyMode(bool readOnly, const QString& title)
{
    model_->setReadOnly(readOnly);
    title_->setText(readOnly ? tr("%1 (read only)").arg(title) : title);
    for (QWidget* control :
         std::initializer_list<QWidget*>{widthSpin_, heightSpin_, pickAnchorButton_, centreAnchorButton_,
                                         normaliseButton_, scaleSpin_, offsetSpin_}) {
        control->setEnabled(!readOnly);
    }
    grid_->setEditable(!readOnly);
    copyButton_->setVisible(readOnly);
    grid_->setToolTip(readOnly ? tr("A built-in filter's kernel; Copy to custom to edit it")
                               : tr("Type a weight to edit a cell; Delete clears to 0; "
                                    "Ctrl+click sets the anchor"));
}

void KernelEditor::updateSummary()
{
    const Kernel2D& k = model_->kernel();
    for (QSpinBox* spin : {widthSpin_, heightSpin_}) {
        const int side = spin == widthSpin_ ? k.width : k.height;
        const QSignalBlocker block(spin);
        // A built-in kernel may be larger than the editor offers; show its true size.
        spin->setMaximum(std::max(kMaxEditorSide, side));
        spin->setValue(side);
    }
    // Rounding noise in a zero-sum kernel (-2e-16) reads as 0, as normalise() treats it.
    const double sum = filters::unitSumKernel(k) ? k.sum() : 0.0;
    sumLabel_->setText(tr("Sum of weights: %1").arg(QString::number(sum, 'g', 8)));
    const Point a = model_->effectiveAnchor();
    anchorLabel_->setText(model_->anchor() ? tr("Anchor: (%1, %2)").arg(a.x).arg(a.y)
                                           : tr("Anchor: (%1, %2), centre").arg(a.x).arg(a.y));
    QString details;
    separableLabel_->setText(separabilityText(k, &details));
    separableLabel_->setToolTip(details);
}

void KernelEditor::setMessage(const QString& text, bool isError)
{
    message_->setText(text);
    message_->setStyleSheet(isError ? QStringLiteral("color: #c62828;") : QString());
    message_->setVisible(!text.isEmpty());
}

QSize KernelEditor::minimumSizeHint() const
{
    QSize size = QWidget::minimumSizeHint();
    if (layout() != nullptr && layout()->hasHeightForWidth() && width() > 0) {
        size.setHeight(std::max(size.height(), layout()->minimumHeightForWidth(width())));
    }
    return size;
}

void KernelEditor::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (event->oldSize().width() != event->size().width()) {
        updateGeometry();  // the wrapped labels' height changed with the width
    }
}

}  // namespace tessera::ui
