// SPDX-License-Identifier: Apache-2.0
#include "ui/separability_text.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <vector>

namespace tessera::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("tessera::ui::KernelEditor", text);
}

void setText(QString* target, const QString& text)
{
    if (target != nullptr) {
        *target = text;
    }
}

// Long factor lists keep their ends on screen; the full form goes to the tooltip.
QString formatTaps(const std::vector<double>& taps, bool full)
{
    QStringList parts;
    for (size_t i = 0; i < taps.size(); ++i) {
        if (!full && taps.size() > 9 && i == 4) {
            parts << QStringLiteral("\u2026");
            i = taps.size() - 5;
            continue;
        }
        parts << QString::number(taps[i], 'g', full ? 10 : 4);
    }
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

}  // namespace

QString separabilityText(const filters::Kernel2D& kernel, QString* details)
{
    if (const std::optional<filters::SeparablePair> pair = filters::detectSeparable(kernel)) {
        setText(details, tr("Row %1\nColumn %2").arg(formatTaps(pair->row, true), formatTaps(pair->column, true)));
        return tr("Separable (rank 1): row %1, column %2")
            .arg(formatTaps(pair->row, false), formatTaps(pair->column, false));
    }
    setText(details, tr("A rank-1 kernel runs as two 1-D passes, much faster at large sizes"));
    const bool allZero = std::all_of(kernel.weights.begin(), kernel.weights.end(), [](double w) { return w == 0.0; });
    return allZero ? tr("Not separable: every weight is 0") : tr("Not separable");
}

}  // namespace tessera::ui
