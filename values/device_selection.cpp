// SPDX-License-Identifier: Apache-2.0
#include "values/device_selection.h"

#include <algorithm>
#include <array>

namespace tessera::values {

namespace {

// One table for the words and for the order in which messages list the forms.
struct Word {
    std::string_view text;
    DeviceSelection::Kind kind;
    DeviceForm form;
};
constexpr std::array<Word, 5> kWords{{
    {"auto", DeviceSelection::Kind::Auto, DeviceForm::Auto},
    {"cpu", DeviceSelection::Kind::Cpu, DeviceForm::Cpu},
    {"gpu", DeviceSelection::Kind::AllGpus, DeviceForm::AllGpus},
    {"all", DeviceSelection::Kind::All, DeviceForm::All},
    {"each", DeviceSelection::Kind::Each, DeviceForm::Each},
}};

constexpr std::string_view kListPrefix = "gpu:";
// Ids longer than this are typing slips, not devices; it also keeps the number far from overflow.
constexpr std::size_t kMaxIdDigits = 4;

std::string quoted(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

[[noreturn]] void refuseForm(std::string_view text, const SelectionContext& context)
{
    throw DeviceSelectionError(std::string(context.name) + " expects " + describeForms(context.accepted) + ", got " +
                                   quoted(text),
                               std::string(text));
}

[[noreturn]] void refuseList(std::string_view text, const SelectionContext& context, const std::string& why)
{
    throw DeviceSelectionError(std::string(context.name) + ": " + quoted(text) + " " + why, std::string(text));
}

// The ids of "gpu:N,M,...", refused item by item so that "gpu:1,,2" and "gpu:1," are errors too.
std::vector<DeviceId> parseIds(std::string_view text, const SelectionContext& context)
{
    const std::string_view list = text.substr(kListPrefix.size());
    if (list.empty()) {
        refuseList(text, context, "names no GPU");
    }
    std::vector<DeviceId> ids;
    std::size_t from = 0;
    while (true) {
        const std::size_t comma = std::min(list.find(',', from), list.size());
        const std::string_view item = list.substr(from, comma - from);
        if (item.empty() || item.size() > kMaxIdDigits ||
            !std::ranges::all_of(item, [](char c) { return c >= '0' && c <= '9'; })) {
            refuseList(text, context, "is not a list of GPU numbers");
        }
        const DeviceId id{std::stoi(std::string(item))};
        if (std::ranges::find(ids, id) != ids.end()) {
            refuseList(text, context, "names GPU " + std::to_string(id.value()) + " twice");
        }
        ids.push_back(id);
        if (comma == list.size()) {
            return ids;
        }
        from = comma + 1;
    }
}

std::vector<DeviceId> everyGpu(const DeviceSnapshot& snapshot)
{
    std::vector<DeviceId> ids;
    for (const DeviceInfo& d : snapshot.devices) {
        ids.push_back(d.id);
    }
    return ids;
}

}  // namespace

DeviceSelection DeviceSelection::gpus(std::vector<DeviceId> ids)
{
    std::string text(kListPrefix);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        text += (i ? "," : "") + std::to_string(ids[i].value());
    }
    if (ids.empty()) {
        throw DeviceSelectionError("a GPU list needs at least one GPU", text);
    }
    for (auto it = ids.begin(); it != ids.end(); ++it) {
        if (it->isCpu()) {
            throw DeviceSelectionError(quoted(text) + " names the CPU in a GPU list", text);
        }
        if (std::find(ids.begin(), it, *it) != it) {
            throw DeviceSelectionError(quoted(text) + " names GPU " + std::to_string(it->value()) + " twice", text);
        }
    }
    DeviceSelection selection(Kind::Gpus);
    selection.ids_ = std::move(ids);
    return selection;
}

DeviceForm formOf(const DeviceSelection& selection)
{
    if (selection.kind() == DeviceSelection::Kind::Gpus) {
        return selection.ids().size() == 1 ? DeviceForm::OneGpu : DeviceForm::GpuList;
    }
    for (const Word& w : kWords) {
        if (w.kind == selection.kind()) {
            return w.form;
        }
    }
    return DeviceForm::None;
}

std::string describeForms(DeviceForm forms)
{
    std::vector<std::string> names;
    for (const Word& w : kWords) {
        if (accepts(forms, w.form)) {
            names.emplace_back(w.text);
        }
        // The lists read best right after "gpu", before "all" and "each".
        if (w.form == DeviceForm::AllGpus) {
            if (accepts(forms, DeviceForm::OneGpu | DeviceForm::GpuList)) {
                names.emplace_back("gpu:N[,M...]");
            } else if (accepts(forms, DeviceForm::OneGpu)) {
                names.emplace_back("gpu:N");
            } else if (accepts(forms, DeviceForm::GpuList)) {
                names.emplace_back("gpu:N,M[,...]");
            }
        }
    }
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i) {
        text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    }
    return text.empty() ? std::string("nothing") : text;
}

DeviceSelection parseDeviceSelection(std::string_view text, const SelectionContext& context)
{
    DeviceSelection selection;
    if (text.starts_with(kListPrefix)) {
        selection = DeviceSelection::gpus(parseIds(text, context));
    } else {
        const auto word = std::ranges::find(kWords, text, &Word::text);
        if (word == kWords.end()) {
            refuseForm(text, context);
        }
        switch (word->kind) {
        case DeviceSelection::Kind::Cpu: selection = DeviceSelection::cpu(); break;
        case DeviceSelection::Kind::AllGpus: selection = DeviceSelection::allGpus(); break;
        case DeviceSelection::Kind::All: selection = DeviceSelection::all(); break;
        case DeviceSelection::Kind::Each: selection = DeviceSelection::each(); break;
        default: break;
        }
    }
    if (!accepts(context.accepted, formOf(selection))) {
        refuseForm(text, context);
    }
    return selection;
}

std::string toString(const DeviceSelection& selection)
{
    if (selection.kind() == DeviceSelection::Kind::Gpus) {
        std::string text(kListPrefix);
        for (std::size_t i = 0; i < selection.ids().size(); ++i) {
            text += (i ? "," : "") + std::to_string(selection.ids()[i].value());
        }
        return text;
    }
    const auto word = std::ranges::find(kWords, selection.kind(), &Word::kind);
    return std::string(word->text);
}

void requireAccepted(const DeviceSelection& selection, const SelectionContext& context)
{
    if (!accepts(context.accepted, formOf(selection))) {
        refuseForm(toString(selection), context);
    }
}

std::vector<DeviceId> resolve(const DeviceSelection& selection, const DeviceSnapshot& snapshot, std::string& note,
                              const SelectionContext& context)
{
    using Kind = DeviceSelection::Kind;
    const Kind kind = selection.kind();
    if (kind == Kind::Cpu) {
        return {};
    }
    const bool stored = !context.chosenIn.empty();
    if (kind == Kind::Auto) {
        if (!snapshot.hasGpu()) {
            note = stored ? "no GPU: " + snapshot.reason : "no GPU (" + snapshot.reason + "); ran on the CPU";
        }
        return everyGpu(snapshot);
    }
    // Where the CPU runs beside the GPUs anyway, a machine without one still has work to do.
    if (kind == Kind::Each || (kind == Kind::All && context.allIncludesCpu)) {
        return everyGpu(snapshot);
    }
    if (stored) {
        // A choice made in a dialog names the GPU and the place, not an option to retype.
        const std::string where = " (chosen in " + std::string(context.chosenIn) + ")";
        const std::vector<DeviceId> present = everyGpu(snapshot);
        if (kind != Kind::Gpus) {
            if (present.empty()) {
                throw DeviceUnavailableError("a GPU" + where + " is not present: " + snapshot.reason);
            }
            return present;
        }
        for (const DeviceId id : selection.ids()) {
            if (std::ranges::find(present, id) == present.end()) {
                throw DeviceUnavailableError(describe(id) + where + " is not present");
            }
        }
        return selection.ids();
    }
    const std::string prefix = std::string(context.name) + " " + toString(selection) + ": ";
    if (!snapshot.hasGpu()) {
        throw DeviceUnavailableError(prefix + "no GPU is available (" + snapshot.reason + "); use " +
                                     std::string(context.name) + " cpu" +
                                     (accepts(context.accepted, DeviceForm::Auto) ? " or auto" : ""));
    }
    if (kind != Kind::Gpus) {
        return everyGpu(snapshot);
    }
    const std::vector<DeviceId> present = everyGpu(snapshot);
    for (const DeviceId id : selection.ids()) {
        if (std::ranges::find(present, id) == present.end()) {
            throw DeviceUnavailableError(prefix + "there is no GPU " + std::to_string(id.value()) +
                                         " (this machine has " + std::to_string(snapshot.devices.size()) + ")");
        }
    }
    return selection.ids();
}

DeviceSelection selectionOf(const std::vector<DeviceId>& gpus)
{
    return gpus.empty() ? DeviceSelection::cpu() : DeviceSelection::gpus(gpus);
}

}  // namespace tessera::values
