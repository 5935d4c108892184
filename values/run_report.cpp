// SPDX-License-Identifier: Apache-2.0
#include "values/run_report.h"

#include <algorithm>

namespace tessera::gpu {

std::string DeviceSlot::name() const
{
    return describe(gpu);
}

const char* toString(Placement placement)
{
    return placement == Placement::Resident ? "resident" : "streamed";
}

std::vector<DeviceId> RunReport::devicesUsed() const
{
    std::vector<DeviceId> used;
    for (const auto& r : records) {
        const DeviceId id{r.device};
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

}  // namespace tessera::gpu
