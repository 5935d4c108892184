// SPDX-License-Identifier: Apache-2.0
#include "app/document/kernel_preset.h"

#include "app/document/qt_text.h"
#include "filters/filter_stack_model.h"
#include "filters/preset_io.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <exception>
#include <string>
#include <utility>

namespace tessera::app::document {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("tessera::app::KernelPreset", text);
}

// Paths go to the filesystem in its own encoding, not as UTF-8 by assumption.
std::string localPath(const QString& path)
{
    return QFile::encodeName(path).toStdString();
}

}  // namespace

std::optional<LoadedKernel> readKernelPreset(const QString& path, const filters::FilterRegistry& registry,
                                             QString* error)
{
    filters::Preset preset;
    try {
        preset = filters::loadPreset(localPath(path), registry);
    } catch (const std::exception& e) {
        *error = namingFile(path, e);
        return std::nullopt;
    }
    if (preset.steps.size() != 1) {
        *error = tr("%1: holds a chain of %2 filters; the kernel editor opens a single kernel")
                     .arg(path)
                     .arg(preset.steps.size());
        return std::nullopt;
    }
    const filters::FilterSpec& spec = preset.steps.front().spec;
    LoadedKernel loaded{filters::CustomKernel{spec.kernel, spec.anchor, spec.scale, spec.offset}, QString()};
    if (spec.border != filters::Border::Reflect101 || spec.depth != filters::OutputDepth::Same) {
        loaded.note = tr("Its border and depth settings belong to the filter panel and were not applied here.");
    }
    return loaded;
}

bool writeKernelPreset(const filters::CustomKernel& value, const QString& path, const filters::FilterRegistry& registry,
                       QString* error)
{
    try {
        filters::PresetStep step;
        step.id = filters::kCustomFilterId;
        step.params.kernel = value.kernel;
        step.params.anchor = value.anchor;
        step.spec = filters::customSpecOf(value, registry);
        filters::Preset preset;
        preset.name = QFileInfo(path).completeBaseName().toStdString();
        preset.steps.push_back(std::move(step));
        filters::savePreset(preset, localPath(path));
    } catch (const std::exception& e) {
        *error = namingFile(path, e);
        return false;
    }
    return true;
}

}  // namespace tessera::app::document
