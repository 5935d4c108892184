// SPDX-License-Identifier: Apache-2.0
#include "values/run_report_json.h"

#include "values/device_label.h"

#include <nlohmann/json.hpp>

namespace tessera::values {

namespace {

using nlohmann::json;

std::string deviceName(DeviceId id)
{
    return deviceLabel(id, nullptr, LabelForm::Key);
}

}  // namespace

std::string runReportJson(const RunReport& report, int indent)
{
    json devices = json::array();
    bool cpu = false;
    for (const auto& r : report.records) {
        cpu = cpu || r.device.isCpu();
    }
    for (const DeviceId id : report.devicesUsed()) {
        devices.push_back(deviceName(id));
    }
    if (cpu) {
        devices.push_back(deviceName(DeviceId::cpu()));
    }
    json stepMethods = json::array();
    for (const Method m : report.stepMethods) {
        stepMethods.push_back(toString(m));
    }
    json records = json::array();
    for (const auto& r : report.records) {
        records.push_back(json{{"device", r.device.value()},
                               {"stream", r.stream},
                               {"tile", r.tile},
                               {"phase", toString(r.phase)},
                               {"label", r.label},
                               {"begin_us", r.beginUs},
                               {"end_us", r.endUs},
                               {"bytes", r.bytes},
                               {"x", r.x},
                               {"y", r.y},
                               {"width", r.width},
                               {"height", r.height}});
    }
    json slots = json::array();
    for (const auto& s : report.slotReports) {
        slots.push_back(json{
            {"device", deviceName(s.slot.gpu)}, {"tiles", s.tiles}, {"busy_ms", s.busyMs}, {"failure", s.failure}});
    }
    std::string fallback = report.fallback;
    if (const std::string moved = report.fellBack.describe();
        !moved.empty() && fallback.find(moved) == std::string::npos) {
        fallback += (fallback.empty() ? "" : "; ") + moved;
    }
    const json doc{{"placement", toString(report.placement)},
                   {"devices", std::move(devices)},
                   {"methods", report.methods},
                   {"step_methods", std::move(stepMethods)},
                   {"plan", report.plan},
                   {"wall_ms", report.wallMs},
                   {"kernel_ms", report.kernelMs()},
                   {"host_ms", report.totalMs(Phase::Host)},
                   {"fallback", fallback},
                   {"fallback_policy", toString(report.policy)},
                   {"events", report.events},
                   {"retries", report.retries},
                   {"tiles", static_cast<int>(report.tiles.size())},
                   {"slots", std::move(slots)},
                   {"records", std::move(records)}};
    return doc.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace tessera::values
