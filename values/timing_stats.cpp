// SPDX-License-Identifier: Apache-2.0
#include "values/timing_stats.h"

#include "values/device_label.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace tessera::values {

namespace {

constexpr int kCpuOrder = 1 << 30;

/// Sort key that puts GPUs (ids 0, 1, ...) before the CPU.
int deviceOrder(DeviceId device)
{
    return device.isCpu() ? kCpuOrder : device.value();
}

const DeviceInfo* findDevice(const DeviceSnapshot& devices, DeviceId id)
{
    for (const DeviceInfo& d : devices.devices) {
        if (d.id == id) {
            return &d;
        }
    }
    return nullptr;
}

double median(std::vector<double>& values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

std::vector<TimingStats> computeTimingStats(const std::vector<TimingRecord>& records, const DeviceSnapshot& devices)
{
    using Key = std::tuple<int, int, std::string>;
    std::map<Key, std::vector<const TimingRecord*>> groups;
    for (const TimingRecord& r : records) {
        groups[{deviceOrder(r.device), static_cast<int>(r.phase), r.label}].push_back(&r);
    }
    std::vector<TimingStats> out;
    out.reserve(groups.size());
    for (const auto& [key, members] : groups) {
        TimingStats s;
        s.device = members.front()->device;
        s.phase = members.front()->phase;
        s.label = std::get<2>(key);
        s.count = static_cast<int>(members.size());
        std::vector<double> durations;
        durations.reserve(members.size());
        for (const TimingRecord* r : members) {
            durations.push_back(std::max(0.0, r->durationUs()));
            s.pixels +=
                static_cast<std::uint64_t>(std::max(0, r->width)) * static_cast<std::uint64_t>(std::max(0, r->height));
            s.bytes += r->bytes;
        }
        for (const double d : durations) {
            s.totalUs += d;
        }
        s.minUs = *std::min_element(durations.begin(), durations.end());
        s.maxUs = *std::max_element(durations.begin(), durations.end());
        s.medianUs = median(durations);
        if (s.totalUs > 0.0) {
            // Pixels per microsecond is Mpixel/s; bytes per microsecond is MB/s.
            s.mpixelsPerS = static_cast<double>(s.pixels) / s.totalUs;
            s.gbPerS = static_cast<double>(s.bytes) / s.totalUs / 1e3;
        }
        const DeviceInfo* info = s.device.isCpu() ? nullptr : findDevice(devices, s.device);
        if (info != nullptr && info->peakBandwidthGBs() > 0.0 && s.bytes > 0 && s.totalUs > 0.0) {
            s.percentOfPeak = 100.0 * s.gbPerS / info->peakBandwidthGBs();
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<TimingLane> timingLanes(const std::vector<TimingRecord>& records)
{
    std::set<std::pair<int, int>> keys;
    for (const TimingRecord& r : records) {
        keys.insert({deviceOrder(r.device), r.stream});
    }
    std::vector<TimingLane> lanes;
    lanes.reserve(keys.size());
    for (const auto& [order, stream] : keys) {
        lanes.push_back({order == kCpuOrder ? DeviceId::cpu() : DeviceId{order}, stream});
    }
    return lanes;
}

std::string deviceTitle(DeviceId device, const DeviceSnapshot& devices)
{
    return deviceLabel(device, &devices, LabelForm::WithModel);
}

std::pair<double, double> timeSpan(const std::vector<TimingRecord>& records)
{
    if (records.empty()) {
        return {0.0, 0.0};
    }
    double begin = records.front().beginUs;
    double end = records.front().endUs;
    for (const TimingRecord& r : records) {
        begin = std::min(begin, r.beginUs);
        end = std::max(end, r.endUs);
    }
    return {begin, end};
}

}  // namespace tessera::values
