// SPDX-License-Identifier: Apache-2.0
#include "ui/encode_options_widget.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::ui {

namespace {

using values::EncodedFormat;
using values::EncodeOptions;
using TiffCompression = values::EncodeOptions::TiffCompression;

const QString kJpegKey = QStringLiteral("output/jpegQuality");
const QString kPngKey = QStringLiteral("output/pngCompression");
const QString kTiffKey = QStringLiteral("output/tiffCompression");
const QString kWebpKey = QStringLiteral("output/webpQuality");

/// A row: the control(s) over a greyed line of explanation (also their tooltip), put in *line.
QWidget* row(QWidget* parent, QLabel** line, QWidget* control, const QString& explanation, QWidget* extra = nullptr)
{
    control->setToolTip(explanation);
    auto* box = new QWidget(parent);
    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(control);
    if (extra != nullptr) {
        top->addWidget(extra, 1);
    } else {
        top->addStretch(1);
    }
    *line = new QLabel(explanation, box);
    (*line)->setWordWrap(true);
    (*line)->setForegroundRole(QPalette::PlaceholderText);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(*line);
    return box;
}

QString formatName(EncodedFormat format)
{
    switch (format) {
    case EncodedFormat::Jpeg: return QStringLiteral("JPEG");
    case EncodedFormat::Png: return QStringLiteral("PNG");
    case EncodedFormat::Tiff: return QStringLiteral("TIFF");
    case EncodedFormat::Webp: return QStringLiteral("WebP");
    case EncodedFormat::Other: break;
    }
    return {};
}

}  // namespace

EncodeOptionsWidget::EncodeOptionsWidget(QWidget* parent) : QWidget(parent)
{
    jpeg_ = new QSpinBox(this);
    jpeg_->setObjectName(QStringLiteral("jpegQualitySpin"));
    jpeg_->setRange(1, 100);
    auto* slider = new QSlider(Qt::Horizontal, this);
    slider->setRange(1, 100);
    slider->setAccessibleName(tr("JPEG quality"));
    connect(slider, &QSlider::valueChanged, jpeg_, &QSpinBox::setValue);
    connect(jpeg_, &QSpinBox::valueChanged, slider, &QSlider::setValue);
    png_ = new QSpinBox(this);
    png_->setObjectName(QStringLiteral("pngCompressionSpin"));
    png_->setRange(0, 9);
    tiff_ = new QComboBox(this);
    tiff_->setObjectName(QStringLiteral("tiffCompressionCombo"));
    tiff_->addItem(tr("None"), static_cast<int>(TiffCompression::None));
    tiff_->addItem(tr("LZW"), static_cast<int>(TiffCompression::Lzw));
    tiff_->addItem(tr("Deflate"), static_cast<int>(TiffCompression::Deflate));
    webpLossless_ = new QCheckBox(tr("Lossless"), this);
    webpLossless_->setObjectName(QStringLiteral("webpLosslessCheck"));
    webpQuality_ = new QSpinBox(this);
    webpQuality_->setObjectName(QStringLiteral("webpQualitySpin"));
    webpQuality_->setRange(1, 100);
    webpQuality_->setPrefix(tr("quality "));
    connect(webpLossless_, &QCheckBox::toggled, webpQuality_, [this](bool on) { webpQuality_->setEnabled(!on); });

    form_ = new QFormLayout(this);
    form_->setContentsMargins(0, 0, 0, 0);
    rows_[0] =
        row(this, &lines_[0], jpeg_, tr("Higher keeps more detail in a larger file; 92 is the default."), slider);
    rows_[1] =
        row(this, &lines_[1], png_, tr("Lossless at every level: 9 is the smallest file and the slowest to write."));
    rows_[2] = row(this, &lines_[2], tiff_, tr("Lossless; Deflate is usually the smallest, None the fastest to read."));
    rows_[3] =
        row(this, &lines_[3], webpLossless_,
            tr("Lossless keeps every value; a quality makes a much smaller file that loses detail."), webpQuality_);
    form_->addRow(tr("JPEG quality:"), rows_[0]);
    form_->addRow(tr("PNG compression:"), rows_[1]);
    form_->addRow(tr("TIFF compression:"), rows_[2]);
    form_->addRow(tr("WebP:"), rows_[3]);

    for (QSpinBox* spin : {jpeg_, png_, webpQuality_}) {
        connect(spin, &QSpinBox::valueChanged, this, &EncodeOptionsWidget::changed);
    }
    connect(tiff_, &QComboBox::currentIndexChanged, this, &EncodeOptionsWidget::changed);
    connect(webpLossless_, &QCheckBox::toggled, this, &EncodeOptionsWidget::changed);
    setOptions(EncodeOptions{});
}

void EncodeOptionsWidget::showFormat(EncodedFormat format)
{
    const EncodedFormat order[4] = {EncodedFormat::Jpeg, EncodedFormat::Png, EncodedFormat::Tiff, EncodedFormat::Webp};
    for (int i = 0; i < 4; ++i) {
        form_->setRowVisible(rows_[i], format == EncodedFormat::Other || format == order[i]);
    }
}

void EncodeOptionsWidget::setCompact(bool compact)
{
    for (QLabel* line : lines_) {
        line->setVisible(!compact);
    }
}

void EncodeOptionsWidget::setOptions(const EncodeOptions& options)
{
    jpeg_->setValue(options.jpegQuality);
    png_->setValue(options.pngCompression);
    tiff_->setCurrentIndex(tiff_->findData(static_cast<int>(options.tiffCompression)));
    const bool lossless = options.webpQuality > 100;
    webpLossless_->setChecked(lossless);
    webpQuality_->setValue(lossless ? 80 : std::max(options.webpQuality, 1));
    webpQuality_->setEnabled(!lossless);
}

EncodeOptions EncodeOptionsWidget::options() const
{
    EncodeOptions o;
    o.jpegQuality = jpeg_->value();
    o.pngCompression = png_->value();
    o.tiffCompression = static_cast<TiffCompression>(tiff_->currentData().toInt());
    o.webpQuality = webpLossless_->isChecked() ? 101 : webpQuality_->value();
    return o;
}

EncodeOptions rememberedEncodeOptions()
{
    const QSettings settings;
    EncodeOptions o;
    o.jpegQuality = std::clamp(settings.value(kJpegKey, o.jpegQuality).toInt(), 1, 100);
    o.pngCompression = std::clamp(settings.value(kPngKey, o.pngCompression).toInt(), 0, 9);
    o.tiffCompression = static_cast<TiffCompression>(
        std::clamp(settings.value(kTiffKey, static_cast<int>(o.tiffCompression)).toInt(), 0, 2));
    o.webpQuality = std::clamp(settings.value(kWebpKey, o.webpQuality).toInt(), 1, 101);
    return o;
}

void rememberEncodeOptions(const EncodeOptions& options)
{
    QSettings settings;
    settings.setValue(kJpegKey, options.jpegQuality);
    settings.setValue(kPngKey, options.pngCompression);
    settings.setValue(kTiffKey, static_cast<int>(options.tiffCompression));
    settings.setValue(kWebpKey, options.webpQuality);
}

EncodeOptionsDialog::EncodeOptionsDialog(const QString& path, const EncodeOptions& initial, const QString& note,
                                         QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("encodeOptionsDialog"));
    const EncodedFormat format = values::encodedFormatOf(path.toStdString());
    setWindowTitle(tr("Write as %1").arg(formatName(format)));
    auto* name = new QLabel(tr("Writing <b>%1</b>").arg(QFileInfo(path).fileName().toHtmlEscaped()), this);
    choices_ = new EncodeOptionsWidget(this);
    choices_->setOptions(initial);
    choices_->showFormat(format);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Write"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(name);
    if (!note.isEmpty()) {
        auto* line = new QLabel(note, this);
        line->setObjectName(QStringLiteral("encodeNote"));
        line->setWordWrap(true);
        layout->addWidget(line);
    }
    layout->addWidget(choices_);
    layout->addWidget(buttons);
    setMinimumWidth(420);
}

EncodeOptions EncodeOptionsDialog::options() const
{
    return choices_->options();
}

}  // namespace tessera::ui
