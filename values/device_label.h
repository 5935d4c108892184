// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_id.h"
#include "values/device_info.h"

#include <span>
#include <string>

namespace tessera::values {

/// The spellings of a device's name that the front ends show or store.
enum class LabelForm {
    Short,      ///< "GPU 1", "CPU"
    WithModel,  ///< "GPU 1 (NVIDIA H200)"; "GPU 1" when the snapshot lacks the model, "CPU"
    Listing,    ///< "GPU 1: NVIDIA H200" (a chooser's entry); "GPU 1" without a model, "CPU"
    Model,      ///< "NVIDIA H200"; the Short form when the snapshot lacks the model
    Key,        ///< "gpu:1", "cpu": the spelling of settings, calibration keys and JSON reports
};

/// The one place a device's name is spelled. `devices` supplies the model name where the form
/// wants it; null or a snapshot without the device falls back as each form says. Never throws
/// (beyond allocation).
std::string deviceLabel(DeviceId id, const DeviceSnapshot* devices = nullptr, LabelForm form = LabelForm::Short);

/// deviceLabel for a device whose properties are at hand (its own name is the model). Never
/// throws (beyond allocation).
std::string deviceLabel(const DeviceInfo& device, LabelForm form);

/// Several GPUs in one label: "GPU 0" for one, "GPUs 0,2" for more, ids joined by `separator`;
/// empty for none. Never throws (beyond allocation).
std::string gpusLabel(std::span<const DeviceId> gpus, const std::string& separator = ",");

}  // namespace tessera::values
