// SPDX-License-Identifier: Apache-2.0
#include "values/run_report.h"

#include <algorithm>

namespace tessera::values {

std::string DeviceSlot::name() const
{
    return describe(gpu);
}

const char* toString(Placement placement)
{
    switch (placement) {
    case Placement::Resident: return "resident";
    case Placement::Device: return "device";
    case Placement::Streamed: break;
    }
    return "streamed";
}

FallbackStep decideFallback(Fallback policy, bool lost, bool othersCanTake, int orphaned)
{
    using Action = FallbackStep::Action;
    if (!lost && orphaned == 0) {
        return {};
    }
    const std::string under = std::string(" under the fallback policy ") + toString(policy);
    if (policy == Fallback::None && lost) {
        return {Action::Refuse, "no other device may run its work" + under};
    }
    if (orphaned == 0 && othersCanTake) {
        return {};
    }
    if (policy == Fallback::Cpu) {
        return {Action::CpuTakes, {}};
    }
    return {Action::Refuse, (orphaned > 0 ? std::to_string(orphaned) + (orphaned == 1 ? " piece" : " pieces") +
                                                " of work left with no slot to run it"
                                          : std::string("no slot is left to run the work")) +
                                under};
}

const char* toString(Fallback fallback)
{
    switch (fallback) {
    case Fallback::None: return "none";
    case Fallback::OtherGpus: return "other-gpus";
    case Fallback::Cpu: break;
    }
    return "cpu";
}

namespace {

std::string names(const std::vector<DeviceId>& ids)
{
    std::string text;
    for (const DeviceId id : ids) {
        text += (text.empty() ? "" : ", ") + describe(id);
    }
    return text;
}

}  // namespace

std::string FallbackRecord::describe() const
{
    if (!happened()) {
        return {};
    }
    std::string text = names(from) + " failed";
    if (!reason.empty()) {
        text += " (" + reason + ")";
    }
    if (!to.empty()) {
        text += ": ";
        if (tiles > 0) {
            text += std::to_string(tiles) + (tiles == 1 ? " tile on " : " tiles on ");
        } else {
            text += "computed on ";
        }
        text += names(to);
    }
    return text;
}

std::vector<DeviceId> RunReport::devicesUsed() const
{
    std::vector<DeviceId> used;
    for (const auto& r : records) {
        const DeviceId id = r.device;
        if (!id.isCpu() && std::find(used.begin(), used.end(), id) == used.end()) {
            used.push_back(id);
        }
    }
    std::sort(used.begin(), used.end());
    return used;
}

double RunReport::kernelMs() const
{
    double longest = 0.0;
    for (const auto& r : records) {
        if (r.phase == Phase::Kernel) {
            longest = std::max(longest, r.durationUs() / 1000.0);
        }
    }
    return longest;
}

double RunReport::totalMs(Phase phase) const
{
    double sum = 0.0;
    for (const auto& r : records) {
        if (r.phase == phase) {
            sum += r.durationUs() / 1000.0;
        }
    }
    return sum;
}

}  // namespace tessera::values
