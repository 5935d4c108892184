// SPDX-License-Identifier: Apache-2.0
#include "app/gui/stack_memory.h"

#include "app/document/stack_chain.h"
#include "filters/preset_io.h"

#include <QSettings>

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

namespace tessera::app::gui {

namespace {

const QString kArray = QStringLiteral("imageStacks");
const QString kPath = QStringLiteral("path");
const QString kPreset = QStringLiteral("preset");
// Where one stack was kept before each image had its own.
const QString kOldImage = QStringLiteral("lastStack/image");
const QString kOldPreset = QStringLiteral("lastStack/preset");

/// (path, preset JSON), most recent first.
using Kept = std::vector<std::pair<QString, QString>>;

Kept readAll(QSettings& settings)
{
    Kept kept;
    const int n = settings.beginReadArray(kArray);
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        kept.emplace_back(settings.value(kPath).toString(), settings.value(kPreset).toString());
    }
    settings.endArray();
    if (settings.contains(kOldImage)) {
        kept.emplace_back(settings.value(kOldImage).toString(), settings.value(kOldPreset).toString());
    }
    return kept;
}

void writeAll(QSettings& settings, const Kept& kept)
{
    settings.remove(kArray);
    settings.remove(kOldImage);
    settings.remove(kOldPreset);
    settings.beginWriteArray(kArray, static_cast<int>(kept.size()));
    for (int i = 0; i < static_cast<int>(kept.size()); ++i) {
        settings.setArrayIndex(i);
        settings.setValue(kPath, kept[i].first);
        settings.setValue(kPreset, kept[i].second);
    }
    settings.endArray();
}

}  // namespace

void StackMemory::keep(const QString& path, const filters::StackState& stack) const
{
    if (path.isEmpty()) {
        return;
    }
    QSettings settings;
    Kept kept = readAll(settings);
    std::erase_if(kept, [&path](const auto& k) { return k.first == path; });
    const bool anyEnabled =
        std::any_of(stack.entries.begin(), stack.entries.end(), [](const filters::StackEntry& e) { return e.enabled; });
    if (anyEnabled) {
        try {
            const filters::Preset preset = presetFromStack(stack, "image stack", registry_);
            kept.insert(kept.begin(), {path, QString::fromStdString(filters::presetToJson(preset))});
        } catch (const std::exception&) {
            // A stack that does not build is not worth keeping.
        }
    }
    if (kept.size() > static_cast<std::size_t>(kMaxImages)) {
        kept.resize(kMaxImages);
    }
    writeAll(settings, kept);
}

std::vector<filters::StackEntry> StackMemory::recall(const QString& path) const
{
    QSettings settings;
    for (const auto& [kept, json] : readAll(settings)) {
        if (kept == path) {
            try {
                return entriesFromPreset(filters::parsePreset(json.toStdString(), "image stack", registry_));
            } catch (const std::exception&) {
                return {};  // a filter this version no longer knows: the image opens with none
            }
        }
    }
    return {};
}

}  // namespace tessera::app::gui
