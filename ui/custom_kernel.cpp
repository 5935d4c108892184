#include "ui/custom_kernel.h"

#include "filters/preset_io.h"
#include "filters/registry.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <exception>
#include <string>
#include <vector>

namespace tessera::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("tessera::ui::KernelEditor", text);
}

std::string localPath(const QString& path) { return QFile::encodeName(path).toStdString(); }

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

std::optional<filters::Kernel2D> unitSumKernel(const filters::Kernel2D& k)
{
    double magnitude = 0.0;
    for (const double w : k.weights) {
        magnitude += std::abs(w);
    }
    const double sum = k.sum();
    if (magnitude == 0.0 || std::abs(sum) <= 1e-9 * magnitude) {
        return std::nullopt;
    }
    filters::Kernel2D out = k;
    for (double& w : out.weights) {
        w /= sum;
    }
    return out;
}

filters::FilterSpec customSpecOf(const CustomKernel& value)
{
    filters::FilterSpec spec;
    try {
        spec = filters::builtinRegistry().get("custom").build(
            filters::ParamValues{{}, value.kernel, value.anchor});
    } catch (const std::exception&) {
        spec.id = "custom";
        spec.kernel = value.kernel;
        spec.separable = filters::detectSeparable(value.kernel);
        spec.anchor = value.anchor;
    }
    spec.scale = value.scale;
    spec.offset = value.offset;
    return spec;
}

std::optional<CustomKernel> readKernelPreset(const QString& path, QString* error, QString* note)
{
    setText(note, QString());
    filters::Preset preset;
    try {
        preset = filters::loadPreset(localPath(path), filters::builtinRegistry());
    } catch (const std::exception& e) {
        setText(error, QString::fromUtf8(e.what()));
        return std::nullopt;
    }
    if (preset.steps.size() != 1) {
        setText(error, tr("%1: holds a chain of %2 filters; the kernel editor opens a single "
                          "kernel")
                           .arg(path)
                           .arg(preset.steps.size()));
        return std::nullopt;
    }
    const filters::FilterSpec& spec = preset.steps.front().spec;
    if (spec.border != filters::Border::Reflect101 || spec.depth != filters::OutputDepth::Same) {
        setText(note, tr("Its border and depth settings belong to the filter panel and were not "
                         "applied here."));
    }
    return CustomKernel{spec.kernel, spec.anchor, spec.scale, spec.offset};
}

bool writeKernelPreset(const CustomKernel& value, const QString& path, QString* error)
{
    filters::PresetStep step;
    step.id = "custom";
    step.params.kernel = value.kernel;
    step.params.anchor = value.anchor;
    step.spec = customSpecOf(value);
    filters::Preset preset;
    preset.name = QFileInfo(path).completeBaseName().toStdString();
    preset.steps.push_back(std::move(step));
    try {
        filters::savePreset(preset, localPath(path));
    } catch (const std::exception& e) {
        setText(error, QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}

QString separabilityText(const filters::Kernel2D& kernel, QString* details)
{
    if (const std::optional<filters::SeparablePair> pair = filters::detectSeparable(kernel)) {
        setText(details, tr("Row %1\nColumn %2")
                             .arg(formatTaps(pair->row, true), formatTaps(pair->column, true)));
        return tr("Separable (rank 1): row %1, column %2")
            .arg(formatTaps(pair->row, false), formatTaps(pair->column, false));
    }
    setText(details, tr("A rank-1 kernel runs as two 1-D passes, much faster at large sizes"));
    const bool allZero = std::all_of(kernel.weights.begin(), kernel.weights.end(),
                                     [](double w) { return w == 0.0; });
    return allZero ? tr("Not separable: every weight is 0") : tr("Not separable");
}

}  // namespace tessera::ui
