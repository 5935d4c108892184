// SPDX-License-Identifier: Apache-2.0
#include "values/device_label.h"

namespace tessera::values {

namespace {

const DeviceInfo* findDevice(const DeviceSnapshot* devices, DeviceId id)
{
    if (devices == nullptr || id.isCpu()) {
        return nullptr;
    }
    for (const DeviceInfo& d : devices->devices) {
        if (d.id == id) {
            return &d;
        }
    }
    return nullptr;
}

std::string labelOf(DeviceId id, const DeviceInfo* info, LabelForm form)
{
    if (form == LabelForm::Key) {
        return id.isCpu() ? std::string("cpu") : "gpu:" + std::to_string(id.value());
    }
    const std::string shortText = id.isCpu() ? std::string("CPU") : "GPU " + std::to_string(id.value());
    const bool named = !id.isCpu() && info != nullptr && !info->name.empty();
    switch (form) {
    case LabelForm::WithModel: return named ? shortText + " (" + info->name + ")" : shortText;
    case LabelForm::Listing: return named ? shortText + ": " + info->name : shortText;
    case LabelForm::Model: return named ? info->name : shortText;
    case LabelForm::Short:
    case LabelForm::Key: break;
    }
    return shortText;
}

}  // namespace

std::string deviceLabel(DeviceId id, const DeviceSnapshot* devices, LabelForm form)
{
    return labelOf(id, findDevice(devices, id), form);
}

std::string deviceLabel(const DeviceInfo& device, LabelForm form)
{
    return labelOf(device.id, &device, form);
}

std::string gpusLabel(std::span<const DeviceId> gpus, const std::string& separator)
{
    if (gpus.empty()) {
        return {};
    }
    std::string text = gpus.size() == 1 ? "GPU " : "GPUs ";
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        text += (i ? separator : std::string()) + std::to_string(gpus[i].value());
    }
    return text;
}

std::string describe(DeviceId id)
{
    return deviceLabel(id);
}

}  // namespace tessera::values
