// SPDX-License-Identifier: Apache-2.0
// A run's report and its Chrome trace as JSON text for the C interface. The trace comes from
// the writer the CLI's --trace uses (values/trace_text.h): one format for every front end.
#include "python/c_report.h"

#include "gpu/device_info.h"
#include "values/trace_text.h"

#include <nlohmann/json.hpp>


namespace tessera::python {

namespace {

using nlohmann::json;

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
    return gpu::toChromeTrace(records, gpu::enumerateDevices());
}

}  // namespace tessera::python
