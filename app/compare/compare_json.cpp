// SPDX-License-Identifier: Apache-2.0
#include "app/compare/compare_json.h"

#include "files/input_file.h"
#include "files/json_bounds.h"
#include "files/output_file.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace tessera::app {

namespace {

using nlohmann::json;

constexpr int kFormatVersion = 1;

// A comparison holds a few devices' results: far below this.
constexpr std::uintmax_t kMaxComparisonBytes = std::uintmax_t{64} << 20;

json number(double v)
{
    return std::isfinite(v) ? json(v) : json(nullptr);
}

double numberOr(const json& j, const char* key, double missing)
{
    const auto it = j.find(key);
    return it == j.end() || it->is_null() ? missing : it->get<double>();
}

/// The array under key, or an empty one.
const json& listOf(const json& j, const char* key)
{
    static const json empty = json::array();
    const auto it = j.find(key);
    return it != j.end() && it->is_array() ? *it : empty;
}

/// A whole number of type T from v; throws std::runtime_error naming what when v is a number
/// outside T's range or a fraction (a cast would be undefined or silently wrong), and
/// json::type_error when v is no number.
template <typename T>
T integerOf(const json& v, const char* what)
{
    using Limits = std::numeric_limits<T>;
    bool fits = false;
    if (v.is_number_unsigned()) {
        fits = v.get<std::uint64_t>() <= static_cast<std::uint64_t>(Limits::max());
    } else if (v.is_number_integer()) {
        const auto i = v.get<std::int64_t>();
        fits = i >= 0 ? static_cast<std::uint64_t>(i) <= static_cast<std::uint64_t>(Limits::max())
                      : Limits::is_signed && i >= static_cast<std::int64_t>(Limits::lowest());
    } else if (v.is_number_float()) {
        // lowest() is exact as a double, max() + 1 is 2^digits.
        const double d = v.get<double>();
        fits = d >= static_cast<double>(Limits::lowest()) && d < std::ldexp(1.0, Limits::digits) && d == std::trunc(d);
    } else {
        return v.get<T>();  // throws json::type_error, reported as a malformed comparison
    }
    if (!fits) {
        throw std::runtime_error(std::string(what) + ": " + v.dump() + " is not a whole number in range");
    }
    return v.get<T>();
}

template <typename T>
T integerOr(const json& j, const char* key, T missing)
{
    const auto it = j.find(key);
    return it == j.end() ? missing : integerOf<T>(*it, key);
}

json calibrationJson(const values::DeviceCalibration& c)
{
    return {
        {"copy_gbs", c.copyGBs}, {"fma_gflops", c.fmaGflops}, {"filter_mpix_s", c.filterMpixS}, {"method", c.method}};
}

values::DeviceCalibration calibrationFrom(const json& j)
{
    return {j.value("copy_gbs", 0.0), j.value("fma_gflops", 0.0), j.value("filter_mpix_s", 0.0),
            j.value("method", std::string())};
}

json deviceJson(const values::DeviceInfo& d)
{
    return {{"id", d.id.value()},
            {"name", d.name},
            {"cc", std::to_string(d.ccMajor) + "." + std::to_string(d.ccMinor)},
            {"sms", d.smCount},
            {"memory_total", d.memoryTotal},
            {"pci_bus_id", d.pciBusId},
            {"clock_khz", d.clockKHz},
            {"memory_clock_khz", d.memoryClockKHz}};
}

values::DeviceInfo deviceFrom(const json& j)
{
    values::DeviceInfo d;
    d.id = values::DeviceId{integerOr(j, "id", -1)};
    d.name = j.value("name", std::string());
    const std::string cc = j.value("cc", std::string("0.0"));
    if (const auto dot = cc.find('.'); dot != std::string::npos) {
        d.ccMajor = std::atoi(cc.substr(0, dot).c_str());
        d.ccMinor = std::atoi(cc.substr(dot + 1).c_str());
    }
    d.smCount = integerOr(j, "sms", 0);
    d.memoryTotal = integerOr(j, "memory_total", std::uint64_t(0));
    d.pciBusId = j.value("pci_bus_id", std::string());
    d.clockKHz = integerOr(j, "clock_khz", 0);
    d.memoryClockKHz = integerOr(j, "memory_clock_khz", 0);
    return d;
}

json resultJson(const TargetResult& r)
{
    json roofline = json::array();
    for (const auto& p : r.roofline) {
        roofline.push_back({{"device", p.device.value()},
                            {"method", p.method},
                            {"intensity", p.intensity},
                            {"gflops", p.gflops},
                            {"gbs", p.gbs}});
    }
    return {{"key", r.key},
            {"label", r.label},
            {"gpus", r.gpus},
            {"runs_ms", r.runMs},
            {"min_ms", r.minMs},
            {"median_ms", r.medianMs},
            {"max_ms", r.maxMs},
            {"mpix_s", r.mpixS},
            {"mpix_s_min", r.mpixMin},
            {"mpix_s_max", r.mpixMax},
            {"speedup", r.speedup},
            {"efficiency", r.efficiency},
            {"max_abs_error", r.maxAbsError},
            {"psnr_db", number(r.psnr)},
            {"roofline", roofline},
            {"error", r.error}};
}

TargetResult resultFrom(const json& j)
{
    TargetResult r;
    r.key = j.at("key").get<std::string>();
    r.label = j.value("label", r.key);
    for (const auto& g : listOf(j, "gpus")) {
        r.gpus.push_back(integerOf<int>(g, "gpus"));
    }
    r.runMs = j.value("runs_ms", std::vector<double>{});
    r.minMs = j.value("min_ms", 0.0);
    r.medianMs = j.value("median_ms", 0.0);
    r.maxMs = j.value("max_ms", 0.0);
    r.mpixS = j.value("mpix_s", 0.0);
    r.mpixMin = j.value("mpix_s_min", 0.0);
    r.mpixMax = j.value("mpix_s_max", 0.0);
    r.speedup = j.value("speedup", 0.0);
    r.efficiency = j.value("efficiency", 0.0);
    r.maxAbsError = j.value("max_abs_error", 0.0);
    r.psnr = numberOr(j, "psnr_db", std::numeric_limits<double>::infinity());
    for (const auto& p : listOf(j, "roofline")) {
        r.roofline.push_back({values::DeviceId{integerOr(p, "device", -1)}, p.value("method", std::string()),
                              p.value("intensity", 0.0), p.value("gflops", 0.0), p.value("gbs", 0.0)});
    }
    r.error = j.value("error", std::string());
    return r;
}

}  // namespace

json toJson(const SavedComparison& saved)
{
    const CompareReport& r = saved.report;
    json results = json::array();
    for (const auto& t : r.results) {
        results.push_back(resultJson(t));
    }
    json devices = json::array();
    for (const auto& d : saved.snapshot.devices) {
        devices.push_back(deviceJson(d));
    }
    json calibrations = json::object();
    for (const auto& [key, c] : saved.calibrations) {
        calibrations[key] = calibrationJson(c);
    }
    return {{"tessera_comparison", kFormatVersion},
            {"host", saved.host},
            {"cpu", saved.cpu},
            {"image", {{"width", r.width}, {"height", r.height}, {"channels", r.channels}, {"format", r.format}}},
            {"chain", r.chain},
            {"warmup", r.warmup},
            {"repeats", r.repeats},
            {"baseline", r.baseline},
            {"cancelled", r.cancelled},
            {"driver_version", saved.snapshot.driverVersion},
            {"runtime_version", saved.snapshot.runtimeVersion},
            {"devices", devices},
            {"calibrations", calibrations},
            {"results", results}};
}

SavedComparison comparisonFromJson(const json& doc)
{
    if (!doc.is_object() || !doc.contains("tessera_comparison")) {
        throw std::runtime_error("not a Tessera comparison (no \"tessera_comparison\" field)");
    }
    try {
        SavedComparison s;
        s.host = doc.value("host", std::string());
        s.cpu = doc.value("cpu", std::string());
        static const json none = json::object();
        const auto imageIt = doc.find("image");
        const json& image = imageIt != doc.end() ? *imageIt : none;
        s.report.width = integerOr(image, "width", 0);
        s.report.height = integerOr(image, "height", 0);
        s.report.channels = integerOr(image, "channels", 0);
        s.report.format = image.value("format", std::string());
        s.report.chain = doc.value("chain", std::string());
        s.report.warmup = integerOr(doc, "warmup", 0);
        s.report.repeats = integerOr(doc, "repeats", 0);
        s.report.baseline = doc.value("baseline", std::string());
        s.report.cancelled = doc.value("cancelled", false);
        s.snapshot.driverVersion = integerOr(doc, "driver_version", 0);
        s.snapshot.runtimeVersion = integerOr(doc, "runtime_version", 0);
        for (const auto& d : listOf(doc, "devices")) {
            s.snapshot.devices.push_back(deviceFrom(d));
        }
        if (const auto it = doc.find("calibrations"); it != doc.end() && it->is_object()) {
            for (const auto& [key, c] : it->items()) {
                s.calibrations[key] = calibrationFrom(c);
            }
        }
        for (const auto& t : doc.at("results")) {
            s.report.results.push_back(resultFrom(t));
        }
        return s;
    } catch (const json::exception& e) {
        throw std::runtime_error(std::string("malformed comparison: ") + e.what());
    }
}

void saveComparison(const std::string& path, const SavedComparison& saved)
{
    files::writeOutputFile(path, toJson(saved).dump(2) + "\n");
}

SavedComparison loadComparison(const std::string& path)
{
    const std::string text = files::readInputFile(path, {"a saved comparison", kMaxComparisonBytes, false});
    try {
        return comparisonFromJson(files::parseBoundedJson<json>(text));
    } catch (const files::JsonTooDeep& e) {
        throw std::runtime_error(path + ": not a saved comparison: " + e.what());
    } catch (const json::exception& e) {  // a syntax error, or a number beyond double's range
        throw std::runtime_error(path + ": not JSON (" + e.what() + ")");
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
}

}  // namespace tessera::app
