// SPDX-License-Identifier: Apache-2.0
#include "ui/kernel_grid_model.h"

#include <QFont>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace tessera::ui {

namespace {

using filters::Kernel2D;
using filters::Point;

std::optional<double> parseNumber(const QString& text)
{
    bool ok = false;
    double value = QLocale::c().toDouble(text, &ok);
    if (!ok) {
        value = QLocale().toDouble(text, &ok);
    }
    if (!ok || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

// Cell text that fits a narrow column (about "0.0131" wide): three significant digits, and for
// very small or large magnitudes two digits and a compact exponent ("1.7e-4"), which fits as
// well: an elided "1.67..." would read as a weight of 1.67. Full precision is in the tooltip and
// the editor.
QString compactWeight(double value)
{
    const double magnitude = std::abs(value);
    if (value == 0.0) {
        return QStringLiteral("0");
    }
    if (magnitude >= 1e-3 && magnitude < 1e3) {
        // Below 0.01 two digits, so that "0.0029" fits where "0.00292" would be cut to "0.00...".
        return QString::number(value, 'g', magnitude < 1e-2 ? 2 : 3);
    }
    if (magnitude >= 1e3 && magnitude < 1e5) {
        return QString::number(value, 'f', 0);
    }
    const QString text = QString::number(value, 'e', 1);
    const qsizetype e = text.indexOf(QLatin1Char('e'));
    QString mantissa = text.left(e);
    while (mantissa.endsWith(QLatin1Char('0'))) {
        mantissa.chop(1);
    }
    if (mantissa.endsWith(QLatin1Char('.'))) {
        mantissa.chop(1);
    }
    return mantissa + QLatin1Char('e') + QString::number(text.mid(e + 1).toInt());
}

QColor mix(const QColor& a, const QColor& b, double t)
{
    const auto channel = [t](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * t)); };
    return QColor(channel(a.red(), b.red()), channel(a.green(), b.green()), channel(a.blue(), b.blue()));
}

bool isDark(const QColor& c)
{
    return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue() < 140.0;
}

}  // namespace

std::optional<double> parseWeight(const QString& text)
{
    const QString trimmed = text.trimmed();
    const qsizetype slash = trimmed.indexOf(QLatin1Char('/'));
    if (slash < 0) {
        return parseNumber(trimmed);
    }
    const std::optional<double> num = parseNumber(trimmed.left(slash).trimmed());
    const std::optional<double> den = parseNumber(trimmed.mid(slash + 1).trimmed());
    if (!num || !den || *den == 0.0 || !std::isfinite(*num / *den)) {
        return std::nullopt;
    }
    return *num / *den;
}

QString formatWeight(double value)
{
    if (value == 0.0) {
        return QStringLiteral("0");  // never "-0"
    }
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QString::fromLatin1(buffer, result.ptr - buffer);
}

Kernel2D resizeCentred(const Kernel2D& k, int width, int height)
{
    Kernel2D out{width, height, std::vector<double>(static_cast<size_t>(width) * static_cast<size_t>(height))};
    const int dx = width / 2 - k.width / 2;
    const int dy = height / 2 - k.height / 2;
    for (int y = 0; y < k.height; ++y) {
        const int ny = y + dy;
        for (int x = 0; x < k.width && ny >= 0 && ny < height; ++x) {
            const int nx = x + dx;
            if (nx >= 0 && nx < width) {
                out.weights[static_cast<size_t>(ny) * width + nx] = k.at(x, y);
            }
        }
    }
    return out;
}

KernelGridModel::KernelGridModel(QObject* parent) : QAbstractTableModel(parent)
{
}

void KernelGridModel::setKernel(const filters::Kernel2D& kernel, std::optional<filters::Point> anchor)
{
    beginResetModel();
    kernel_ = kernel;
    kernel_.width = std::max(1, kernel_.width);
    kernel_.height = std::max(1, kernel_.height);
    // A kernel whose weights do not match its size is padded or cut rather than read past.
    kernel_.weights.resize(static_cast<size_t>(kernel_.width) * kernel_.height, 0.0);
    anchor_.reset();
    endResetModel();
    setAnchor(anchor);
    rememberBase();
    refreshAll();
}

void KernelGridModel::resize(int width, int height)
{
    std::optional<Point> anchor;
    if (baseAnchor_) {
        anchor = Point{std::clamp(baseAnchor_->x + width / 2 - base_.width / 2, 0, width - 1),
                       std::clamp(baseAnchor_->y + height / 2 - base_.height / 2, 0, height - 1)};
    }
    beginResetModel();
    kernel_ = resizeCentred(base_, width, height);
    anchor_ = anchor;
    endResetModel();
    refreshAll();
}

filters::Point KernelGridModel::effectiveAnchor() const
{
    return anchor_.value_or(Point{kernel_.width / 2, kernel_.height / 2});
}

void KernelGridModel::setAnchor(std::optional<filters::Point> anchor)
{
    if (anchor && (anchor->x < 0 || anchor->y < 0 || anchor->x >= kernel_.width || anchor->y >= kernel_.height)) {
        return;
    }
    const Point before = effectiveAnchor();
    anchor_ = anchor;
    const Point after = effectiveAnchor();
    // The resize base keeps its weights; its anchor follows, in the base's own coordinates.
    baseAnchor_.reset();
    if (anchor) {
        const Point inBase{anchor->x + base_.width / 2 - kernel_.width / 2,
                           anchor->y + base_.height / 2 - kernel_.height / 2};
        if (inBase.x < 0 || inBase.y < 0 || inBase.x >= base_.width || inBase.y >= base_.height) {
            rememberBase();
        } else {
            baseAnchor_ = inBase;
        }
    }
    emit dataChanged(cell(before), cell(before));
    emit dataChanged(cell(after), cell(after));
}

bool KernelGridModel::fill(const QModelIndexList& cells, double value)
{
    bool changed = false;
    for (const QModelIndex& index : cells) {
        if (!index.isValid() || index.model() != this) {
            continue;
        }
        double& weight = kernel_.weights[static_cast<size_t>(index.row()) * kernel_.width + index.column()];
        changed = changed || weight != value;
        weight = value;
    }
    if (changed) {
        rememberBase();
        refreshAll();
    }
    return changed;
}

void KernelGridModel::setReadOnly(bool readOnly)
{
    readOnly_ = readOnly;
    // Views ask flags() again only on a data change.
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int KernelGridModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kernel_.height;
}

int KernelGridModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kernel_.width;
}

QVariant KernelGridModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) {
        return {};
    }
    const int x = index.column();
    const int y = index.row();
    const double weight = kernel_.at(x, y);
    const bool isAnchor = effectiveAnchor() == Point{x, y};
    switch (role) {
    case Qt::DisplayRole: return compactWeight(weight);
    case Qt::EditRole: return formatWeight(weight);
    case Qt::ToolTipRole:
        return tr("(%1, %2): %3%4").arg(x).arg(y).arg(formatWeight(weight), isAnchor ? tr(", anchor") : QString());
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignCenter);
    case Qt::BackgroundRole:
    case Qt::ForegroundRole: {
        // The square root lifts small weights (a Gaussian's tails) so the shape shows.
        const double t = maxAbs_ > 0.0 ? std::sqrt(std::abs(weight) / maxAbs_) : 0.0;
        const QColor base = QGuiApplication::palette().color(QPalette::Base);
        const QColor tint = weight < 0.0 ? QColor(30, 90, 200) : QColor(205, 40, 40);
        const QColor background = mix(base, tint, 0.85 * t);
        if (role == Qt::BackgroundRole) {
            return background;
        }
        return isDark(background) ? QColor(Qt::white) : QColor(Qt::black);
    }
    case Qt::FontRole:
        if (isAnchor) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case AnchorRole: return isAnchor;
    default: return {};
    }
}

bool KernelGridModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || readOnly_ || !index.isValid()) {
        return false;
    }
    const int x = index.column();
    const int y = index.row();
    std::optional<double> weight;
    if (value.typeId() == QMetaType::QString) {
        weight = parseWeight(value.toString());
    } else {
        bool ok = false;
        const double number = value.toDouble(&ok);
        if (ok && std::isfinite(number)) {
            weight = number;
        }
    }
    if (!weight) {
        emit weightRefused(x, y, value.toString());
        return false;
    }
    double& stored = kernel_.weights[static_cast<size_t>(y) * kernel_.width + x];
    if (stored == *weight) {
        return true;
    }
    stored = *weight;
    rememberBase();
    refreshAll();
    emit weightEdited(x, y, *weight);
    return true;
}

Qt::ItemFlags KernelGridModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags flags = QAbstractTableModel::flags(index) | Qt::ItemNeverHasChildren;
    if (!readOnly_ && index.isValid()) {
        flags |= Qt::ItemIsEditable;
    }
    return flags;
}

QVariant KernelGridModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role == Qt::DisplayRole) {
        return QString::number(section);
    }
    if (role == Qt::ToolTipRole) {
        return orientation == Qt::Horizontal ? tr("Column x = %1").arg(section) : tr("Row y = %1").arg(section);
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

void KernelGridModel::rememberBase()
{
    base_ = kernel_;
    baseAnchor_ = anchor_;
}

void KernelGridModel::refreshAll()
{
    maxAbs_ = 0.0;
    for (const double w : kernel_.weights) {
        maxAbs_ = std::max(maxAbs_, std::abs(w));
    }
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

}  // namespace tessera::ui
