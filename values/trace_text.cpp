// SPDX-License-Identifier: Apache-2.0
#include "values/trace_text.h"

#include "values/timing_stats.h"

#include <nlohmann/json.hpp>

#include <set>
#include <sstream>
#include <stdexcept>

namespace tessera::values {

namespace {

using nlohmann::json;

// Trace viewers want positive pids, and some treat pid 0 as the idle task: GPU n is pid n + 1,
// the CPU a pid no GPU count reaches.
constexpr int kCpuPid = 1000;

int pidOf(DeviceId device)
{
    return device.isCpu() ? kCpuPid : device.value() + 1;
}

Phase phaseFromString(const std::string& text)
{
    if (const auto phase = parsePhase(text)) {
        return *phase;
    }
    throw std::runtime_error("unknown phase \"" + text + "\" in trace");
}

/// Kernels are named by their method; copies and host work by their phase, with the label
/// when it says more ("host: stage input").
std::string eventName(const TimingRecord& r)
{
    if (r.phase == Phase::Kernel && !r.label.empty()) {
        return r.label;
    }
    std::string name = toString(r.phase);
    if (!r.label.empty()) {
        name += ": " + r.label;
    }
    return name;
}

json recordObject(const TimingRecord& r)
{
    return json{{"device", r.device.value()},
                {"stream", r.stream},
                {"tile", r.tile},
                {"phase", toString(r.phase)},
                {"label", r.label},
                {"begin_us", r.beginUs},
                {"end_us", r.endUs},
                {"duration_us", r.durationUs()},
                {"bytes", r.bytes},
                {"x", r.x},
                {"y", r.y},
                {"width", r.width},
                {"height", r.height}};
}

json metadata(const char* name, int pid, int tid, json args)
{
    return json{{"name", name}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
}

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (const char c : text) {
        quoted += c;
        if (c == '"') {
            quoted += '"';
        }
    }
    return quoted + "\"";
}

}  // namespace

std::string toChromeTrace(const std::vector<TimingRecord>& records, const DeviceSnapshot& devices)
{
    json events = json::array();
    std::set<DeviceId> seenDevices;
    for (const TimingLane& lane : timingLanes(records)) {
        const int pid = pidOf(lane.device);
        if (seenDevices.insert(lane.device).second) {
            events.push_back(metadata("process_name", pid, 0, {{"name", deviceTitle(lane.device, devices)}}));
            // GPUs in id order, then the CPU, as in the profiler's timeline.
            events.push_back(metadata("process_sort_index", pid, 0,
                                      {{"sort_index", lane.device.isCpu() ? 1000 : lane.device.value()}}));
        }
        const std::string thread =
            lane.device.isCpu() ? "thread " + std::to_string(lane.stream) : "stream " + std::to_string(lane.stream);
        events.push_back(metadata("thread_name", pid, lane.stream, {{"name", thread}}));
    }
    for (const TimingRecord& r : records) {
        const double dur = r.durationUs();
        json args{{"device", r.device.value()}, {"stream", r.stream}, {"tile", r.tile}, {"phase", toString(r.phase)},
                  {"label", r.label},           {"bytes", r.bytes},   {"x", r.x},       {"y", r.y},
                  {"width", r.width},           {"height", r.height}};
        if (r.bytes > 0 && dur > 0.0) {
            args["GB/s"] = static_cast<double>(r.bytes) / dur / 1e3;
        }
        if (r.phase == Phase::Kernel) {
            args["method"] = r.label;
        }
        // end_us too: ts + dur need not give back the exact end in floating point.
        args["end_us"] = r.endUs;
        events.push_back(json{{"name", eventName(r)},
                              {"cat", toString(r.phase)},
                              {"ph", "X"},
                              {"ts", r.beginUs},
                              {"dur", dur},
                              {"pid", pidOf(r.device)},
                              {"tid", r.stream},
                              {"args", std::move(args)}});
    }
    const json trace{{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
    return trace.dump(1, ' ', false, json::error_handler_t::replace);
}

std::vector<TimingRecord> parseChromeTrace(const std::string& text)
{
    const json trace = json::parse(text, nullptr, false);
    if (trace.is_discarded()) {
        throw std::runtime_error("the trace is not valid JSON");
    }
    // Both forms Chrome accepts: an object with traceEvents, or the bare array.
    const json* events = trace.is_array() ? &trace : nullptr;
    if (trace.is_object() && trace.contains("traceEvents") && trace["traceEvents"].is_array()) {
        events = &trace["traceEvents"];
    }
    if (events == nullptr) {
        throw std::runtime_error("the trace has no traceEvents array");
    }
    std::vector<TimingRecord> records;
    for (const json& e : *events) {
        if (!e.is_object() || e.value("ph", "") != "X" || !e.contains("args") || !e["args"].contains("phase")) {
            continue;
        }
        try {
            const json& a = e["args"];
            TimingRecord r;
            r.device = DeviceId{a.value("device", -1)};
            r.stream = a.value("stream", e.value("tid", 0));
            r.tile = a.value("tile", -1);
            r.phase = phaseFromString(a["phase"].get<std::string>());
            r.label = a.value("label", std::string());
            r.beginUs = e.at("ts").get<double>();
            r.endUs = a.contains("end_us") ? a["end_us"].get<double>() : r.beginUs + e.value("dur", 0.0);
            r.bytes = a.value("bytes", std::uint64_t{0});
            r.x = a.value("x", 0);
            r.y = a.value("y", 0);
            r.width = a.value("width", 0);
            r.height = a.value("height", 0);
            records.push_back(std::move(r));
        } catch (const json::exception& err) {
            throw std::runtime_error(std::string("malformed trace event: ") + err.what());
        }
    }
    return records;
}

std::string timingCsvHeader()
{
    return "device,stream,tile,phase,label,begin_us,end_us,duration_us,bytes,x,y,width,height";
}

std::string timingCsv(const std::vector<TimingRecord>& records)
{
    std::ostringstream out;
    // Round-trip precision: the times are microseconds with fractions.
    out.precision(17);
    out << timingCsvHeader() << "\n";
    for (const TimingRecord& r : records) {
        out << r.device.value() << ',' << r.stream << ',' << r.tile << ',' << toString(r.phase) << ','
            << csvField(r.label) << ',' << r.beginUs << ',' << r.endUs << ',' << r.durationUs() << ',' << r.bytes << ','
            << r.x << ',' << r.y << ',' << r.width << ',' << r.height << "\n";
    }
    return out.str();
}

std::string timingJson(const std::vector<TimingRecord>& records)
{
    json array = json::array();
    for (const TimingRecord& r : records) {
        array.push_back(recordObject(r));
    }
    return array.dump(1, ' ', false, json::error_handler_t::replace);
}

}  // namespace tessera::values
