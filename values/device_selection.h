// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_id.h"
#include "values/device_info.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::values {

/// Where to run, as a user spells it on the command line, in Preferences or in a batch:
///   auto        every GPU when there is one, else the CPU
///   cpu         the CPU path
///   gpu         every GPU (an error without one)
///   gpu:N[,M]   these GPUs, in this order
///   all         every GPU; in a comparison every GPU alone, all together and the CPU
///   each        in a comparison: every GPU alone and the CPU
/// The value keeps the spelling's meaning, not the machine: resolve() looks at the machine.
class DeviceSelection {
public:
    enum class Kind { Auto, Cpu, AllGpus, Gpus, All, Each };

    /// Auto. Never throws.
    DeviceSelection() = default;

    /// Never throws.
    static DeviceSelection automatic() { return DeviceSelection(Kind::Auto); }
    /// Never throws.
    static DeviceSelection cpu() { return DeviceSelection(Kind::Cpu); }
    /// "gpu": every GPU present. Never throws.
    static DeviceSelection allGpus() { return DeviceSelection(Kind::AllGpus); }
    /// Never throws.
    static DeviceSelection all() { return DeviceSelection(Kind::All); }
    /// Never throws.
    static DeviceSelection each() { return DeviceSelection(Kind::Each); }
    /// "gpu:N,M,...". Throws DeviceSelectionError when ids is empty, names the CPU or names a
    /// GPU twice.
    static DeviceSelection gpus(std::vector<DeviceId> ids);
    /// "gpu:N". Throws DeviceSelectionError when id is the CPU.
    static DeviceSelection gpu(DeviceId id) { return gpus({id}); }

    /// Never throws.
    Kind kind() const { return kind_; }
    /// The GPUs of a Kind::Gpus selection, in the order given; empty for every other kind.
    /// Never throws.
    const std::vector<DeviceId>& ids() const { return ids_; }

    /// Never throws.
    bool operator==(const DeviceSelection&) const = default;

private:
    explicit DeviceSelection(Kind kind) : kind_(kind) {}

    Kind kind_ = Kind::Auto;
    std::vector<DeviceId> ids_;
};

/// Bad selection text or a selection a context does not take; the message names the text and
/// the forms accepted. A std::invalid_argument, so callers that map those to usage errors keep
/// doing so.
class DeviceSelectionError : public std::invalid_argument {
public:
    /// Never throws (beyond allocation).
    DeviceSelectionError(const std::string& message, std::string text)
        : std::invalid_argument(message), text_(std::move(text))
    {
    }
    /// The text that was refused. Never throws.
    const std::string& text() const { return text_; }

private:
    std::string text_;
};

/// A well-formed selection the machine cannot satisfy (no GPU, a GPU that is not there). A
/// std::runtime_error: the input was fine, the machine is not.
class DeviceUnavailableError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The spellings a context takes, as bits; messages list them in this order.
enum class DeviceForm : unsigned {
    None = 0,
    Auto = 1u << 0,     ///< auto
    Cpu = 1u << 1,      ///< cpu
    AllGpus = 1u << 2,  ///< gpu
    OneGpu = 1u << 3,   ///< gpu:N
    GpuList = 1u << 4,  ///< gpu:N,M,... (more than one)
    All = 1u << 5,      ///< all
    Each = 1u << 6,     ///< each
    Any = (1u << 7) - 1,
};

/// Never throws.
constexpr DeviceForm operator|(DeviceForm a, DeviceForm b)
{
    return static_cast<DeviceForm>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
/// Whether every form of `wanted` is in `forms`. Never throws.
constexpr bool accepts(DeviceForm forms, DeviceForm wanted)
{
    return (static_cast<unsigned>(forms) & static_cast<unsigned>(wanted)) == static_cast<unsigned>(wanted);
}

/// Where a selection comes from: the name messages give it, the forms it takes, and what "all"
/// means there.
struct SelectionContext {
    std::string_view name = "device selection";  ///< "--device", "--devices", a settings key
    DeviceForm accepted = DeviceForm::Any;
    /// "all" and "each" also run the CPU (comparisons), so a machine without a GPU is no error.
    bool allIncludesCpu = false;
    /// Where a stored choice was made ("Preferences"), for selections that are not typed on a
    /// command line: resolve() then words its refusals after that place ("GPU 7 (chosen in
    /// Preferences) is not present") rather than after an option. Empty for options.
    std::string_view chosenIn = {};
};

/// `tessera-cli apply --device` and `batch --device`.
inline constexpr SelectionContext kDeviceOption{"--device", DeviceForm::Auto | DeviceForm::Cpu | DeviceForm::AllGpus |
                                                                DeviceForm::OneGpu | DeviceForm::GpuList |
                                                                DeviceForm::All};
/// `tessera-cli bench --devices`: comparisons, where all and each include the CPU.
inline constexpr SelectionContext kCompareDevices{
    "--devices", DeviceForm::Each | DeviceForm::All | DeviceForm::Cpu | DeviceForm::OneGpu | DeviceForm::GpuList, true};
/// Preferences' preview device as the settings keep it.
inline constexpr SelectionContext kPreviewPreference{
    "engine/device", DeviceForm::Auto | DeviceForm::Cpu | DeviceForm::OneGpu, false, "Preferences"};

/// The form `selection` is written in. Never throws.
DeviceForm formOf(const DeviceSelection& selection);

/// "auto, cpu, gpu, gpu:N[,M...] or all": the forms of `forms`, in one fixed order, for messages.
/// Never throws (beyond allocation).
std::string describeForms(DeviceForm forms);

/// Reads a selection ("auto", "cpu", "gpu", "gpu:0,2", "all", "each"; ids of up to four digits,
/// no spaces, case as shown). Throws DeviceSelectionError naming context.name and the text
/// for unknown words, a malformed or empty GPU list, a GPU named twice, or a form that
/// context.accepted lacks.
DeviceSelection parseDeviceSelection(std::string_view text, const SelectionContext& context = {});

/// The canonical spelling: parseDeviceSelection(toString(s)) == s. Never throws (beyond allocation).
std::string toString(const DeviceSelection& selection);

/// Throws DeviceSelectionError, worded as parseDeviceSelection's, when context.accepted lacks
/// selection's form: for values built in code rather than parsed.
void requireAccepted(const DeviceSelection& selection, const SelectionContext& context);

/// The GPUs `selection` runs on this machine, in order; empty means the CPU path alone (and
/// for each, and all where context.allIncludesCpu, the GPUs to run beside the CPU). auto
/// without a GPU sets note to why the CPU runs. Throws DeviceUnavailableError, naming
/// context.name, when a GPU is required but there is none or a listed GPU is not there.
std::vector<DeviceId> resolve(const DeviceSelection& selection, const DeviceSnapshot& snapshot, std::string& note,
                              const SelectionContext& context = {});

/// The concrete selection of a resolved list: cpu when gpus is empty, else gpu:N,M. Throws as
/// DeviceSelection::gpus.
DeviceSelection selectionOf(const std::vector<DeviceId>& gpus);

/// Relative speeds of GPUs, in band order: what the Engine's bands are sized by. Kept apart
/// from DeviceSelection because they are measured, not spelled by the user.
using DeviceSpeeds = std::vector<std::pair<DeviceId, double>>;

}  // namespace tessera::values
