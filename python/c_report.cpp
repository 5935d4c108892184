// SPDX-License-Identifier: Apache-2.0
// A run's report and its Chrome trace as JSON text for the C interface. The trace is written
// event for event as app/io/trace_export writes it for the CLI, so tessera's trace reader and
// the same viewers take a trace from Python.
#include "python/c_report.h"

#include "gpu/device_info.h"
#include "values/timing_stats.h"

#include <nlohmann/json.hpp>

#include <set>

namespace tessera::python {

namespace {

using nlohmann::json;

// As the CLI's traces: GPU n is process n + 1, the CPU one no GPU count reaches.
constexpr int kCpuPid = 1000;

int pidOf(int device)
{
    return device < 0 ? kCpuPid : device + 1;
}

std::string eventName(const gpu::TimingRecord& r)
{
    if (r.phase == gpu::Phase::Kernel && !r.label.empty()) {
        return r.label;
    }
    std::string name = gpu::toString(r.phase);
    if (!r.label.empty()) {
        name += ": " + r.label;
    }
    return name;
}

json metadata(const char* name, int pid, int tid, json args)
{
    return json{{"name", name}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
}

std::string dump(const json& doc, int indent)
{
    return doc.dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string deviceName(gpu::DeviceId id)
{
    return id.isCpu() ? std::string("cpu") : "gpu:" + std::to_string(id.value());
}

}  // namespace

std::string reportJson(const gpu::RunReport& report, const std::string& where, const std::string& note)
{
    json devices = json::array();
    bool cpu = false;
    for (const auto& r : report.records) {
        cpu = cpu || r.device < 0;
    }
    for (const gpu::DeviceId id : report.devicesUsed()) {
        devices.push_back(deviceName(id));
    }
    if (cpu) {
        devices.push_back("cpu");
    }
    json stepMethods = json::array();
    for (const gpu::Method m : report.stepMethods) {
        stepMethods.push_back(gpu::toString(m));
    }
    json records = json::array();
    for (const auto& r : report.records) {
        records.push_back(json{{"device", r.device}, {"stream", r.stream}, {"tile", r.tile},
                               {"phase", gpu::toString(r.phase)}, {"label", r.label}, {"begin_us", r.beginUs},
                               {"end_us", r.endUs}, {"bytes", r.bytes}, {"x", r.x}, {"y", r.y},
                               {"width", r.width}, {"height", r.height}});
    }
    json slots = json::array();
    for (const auto& s : report.slotReports) {
        slots.push_back(json{{"device", deviceName(s.slot.gpu)}, {"tiles", s.tiles}, {"busy_ms", s.busyMs},
                             {"failure", s.failure}});
    }
    std::string fallback = report.fallback;
    if (const std::string moved = report.fellBack.describe(); !moved.empty() && fallback.find(moved) == std::string::npos) {
        fallback += (fallback.empty() ? "" : "; ") + moved;
    }
    const json doc{{"where", where},
                   {"note", note},
                   {"placement", gpu::toString(report.placement)},
                   {"devices", std::move(devices)},
                   {"methods", report.methods},
                   {"step_methods", std::move(stepMethods)},
                   {"plan", report.plan},
                   {"wall_ms", report.wallMs},
                   {"kernel_ms", report.kernelMs()},
                   {"host_ms", report.totalMs(gpu::Phase::Host)},
                   {"fallback", fallback},
                   {"fallback_policy", gpu::toString(report.policy)},
                   {"events", report.events},
                   {"retries", report.retries},
                   {"tiles", static_cast<int>(report.tiles.size())},
                   {"slots", std::move(slots)},
                   {"records", std::move(records)}};
    return dump(doc, -1);
}

std::string chromeTrace(const std::vector<gpu::TimingRecord>& records)
{
    const gpu::DeviceSnapshot devices = gpu::enumerateDevices();
    json events = json::array();
    std::set<int> seenDevices;
    for (const gpu::TimingLane& lane : gpu::timingLanes(records)) {
        const int pid = pidOf(lane.device);
        if (seenDevices.insert(lane.device).second) {
            events.push_back(metadata("process_name", pid, 0, {{"name", gpu::deviceTitle(lane.device, devices)}}));
            events.push_back(
                metadata("process_sort_index", pid, 0, {{"sort_index", lane.device < 0 ? 1000 : lane.device}}));
        }
        const std::string thread = lane.device < 0 ? "thread " + std::to_string(lane.stream)
                                                   : "stream " + std::to_string(lane.stream);
        events.push_back(metadata("thread_name", pid, lane.stream, {{"name", thread}}));
    }
    for (const gpu::TimingRecord& r : records) {
        const double dur = r.durationUs();
        json args{{"device", r.device}, {"stream", r.stream}, {"tile", r.tile}, {"phase", gpu::toString(r.phase)},
                  {"label", r.label}, {"bytes", r.bytes}, {"x", r.x}, {"y", r.y}, {"width", r.width},
                  {"height", r.height}};
        if (r.bytes > 0 && dur > 0.0) {
            args["GB/s"] = static_cast<double>(r.bytes) / dur / 1e3;
        }
        if (r.phase == gpu::Phase::Kernel) {
            args["method"] = r.label;
        }
        args["end_us"] = r.endUs;
        events.push_back(json{{"name", eventName(r)}, {"cat", gpu::toString(r.phase)}, {"ph", "X"}, {"ts", r.beginUs},
                              {"dur", dur}, {"pid", pidOf(r.device)}, {"tid", r.stream}, {"args", std::move(args)}});
    }
    return dump(json{{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}}, 1);
}

}  // namespace tessera::python
