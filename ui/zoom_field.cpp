// SPDX-License-Identifier: Apache-2.0
#include "ui/zoom_field.h"

#include <QFocusEvent>
#include <QKeyEvent>
#include <QLocale>

#include <cmath>

namespace tessera::ui {

ZoomField::ZoomField(QWidget* parent) : QLineEdit(parent)
{
    setObjectName(QStringLiteral("zoomField"));
    tip_ = tr("Zoom in percent: type a value and press Enter (100% shows every image pixel as one screen pixel)");
    setToolTip(tip_);
    setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    setMaxLength(12);
    // Room for "6400%" and the frame, no more: the toolbar must fit a 1280-pixel window.
    setFixedWidth(fontMetrics().horizontalAdvance(QStringLiteral("00000.0%")) + 16);
    connect(this, &QLineEdit::returnPressed, this, &ZoomField::apply);
}

std::optional<double> ZoomField::parsePercent(const QString& text)
{
    QString number = text.trimmed();
    if (number.endsWith(QLatin1Char('%'))) {
        number.chop(1);
        number = number.trimmed();
    }
    bool ok = false;
    double percent = QLocale().toDouble(number, &ok);
    if (!ok) {
        percent = number.toDouble(&ok);  // "12.5" also where the locale writes "12,5"
    }
    if (!ok || !std::isfinite(percent) || percent <= 0.0) {
        return std::nullopt;
    }
    return percent / 100.0;
}

QString ZoomField::formatPercent(double factor)
{
    return QStringLiteral("%1%").arg(QLocale().toString(std::round(factor * 1000.0) / 10.0, 'g', 8));
}

void ZoomField::showZoom(double factor)
{
    factor_ = factor;
    if (!hasFocus() || !isModified()) {
        restore();
    }
}

void ZoomField::apply()
{
    const std::optional<double> factor = parsePercent(text());
    if (!factor) {
        const QString typed = text();
        restore();
        setToolTip(tr("\u201c%1\u201d is not a zoom; type a percentage such as 150%").arg(typed) + QLatin1Char('\n') +
                   tip_);
        return;
    }
    setToolTip(tip_);
    setModified(false);
    emit zoomRequested(*factor);
    restore();  // the view may have clamped the value; show what it took
}

void ZoomField::restore()
{
    setText(formatPercent(factor_));
    setModified(false);
}

void ZoomField::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape && isModified()) {
        restore();
        event->accept();
        return;
    }
    QLineEdit::keyPressEvent(event);
}

void ZoomField::focusOutEvent(QFocusEvent* event)
{
    restore();
    QLineEdit::focusOutEvent(event);
}

}  // namespace tessera::ui
