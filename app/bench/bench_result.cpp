// SPDX-License-Identifier: Apache-2.0
#include "app/bench/bench_result.h"

#include "values/device_label.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace tessera::app::bench {

namespace {

/// Rounds to `digits` significant digits so lines stay readable; keeps 0 and tiny values.
double significant(double v, int digits = 5)
{
    if (v == 0.0 || !std::isfinite(v)) {
        return v;
    }
    const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::abs(v)))));
    return std::round(v * scale) / scale;
}

nlohmann::ordered_json orNull(const std::optional<double>& v)
{
    return v ? nlohmann::ordered_json(significant(*v)) : nlohmann::ordered_json(nullptr);
}

}  // namespace

double Result::median() const
{
    if (ms.empty()) {
        return 0.0;
    }
    std::vector<double> v = ms;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double Result::minimum() const
{
    return ms.empty() ? 0.0 : *std::min_element(ms.begin(), ms.end());
}

double Result::maximum() const
{
    return ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end());
}

double Result::percentile(double q) const
{
    if (ms.empty()) {
        return 0.0;
    }
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size()))) - 1;
    return sorted[std::min(rank, sorted.size() - 1)];
}

namespace {

/// The timings of r (median med) and what they are against: the floors, the naive kernel.
void addTimings(nlohmann::ordered_json& j, const Result& r, double med)
{
    const double pixels = static_cast<double>(r.width) * r.height;
    j["ms_median"] = significant(med);
    j["ms_min"] = significant(r.minimum());
    j["ms_max"] = significant(r.maximum());
    j["ms_p95"] = significant(r.percentile(0.95));
    j["runs"] = r.ms.size();
    j["mpix_s"] = med > 0 ? significant(pixels / med / 1e3) : 0.0;
    j["bytes"] = static_cast<std::uint64_t>(r.bytes);
    j["gbps"] = med > 0 ? significant(r.bytes / med / 1e6) : 0.0;
    // Floors: the bytes at the documented 4.15 TB/s, and at the copy bandwidth measured now.
    const double floorMs = r.bytes / (kReferenceCeilingGBs * 1e6);
    j["floor_ms"] = significant(floorMs);
    j["pct_of_floor"] = !r.device.isCpu() && med > 0 ? nlohmann::ordered_json(significant(100.0 * floorMs / med, 4))
                                                     : nlohmann::ordered_json(nullptr);
    if (r.ceilingGBs && *r.ceilingGBs > 0 && med > 0) {
        const double measured = r.bytes / (*r.ceilingGBs * 1e6);
        j["measured_floor_ms"] = significant(measured);
        j["pct_of_measured_floor"] = significant(100.0 * measured / med, 4);
    } else {
        j["measured_floor_ms"] = nullptr;
        j["pct_of_measured_floor"] = nullptr;
    }
    j["x_vs_naive"] = r.naiveMs && med > 0 ? nlohmann::ordered_json(significant(*r.naiveMs / med, 4))
                                           : nlohmann::ordered_json(nullptr);
}

/// How r's output compared with the CPU path's.
void addCheck(nlohmann::ordered_json& j, const Result& r)
{
    if (r.check.empty()) {
        j["check"] = "none";
        j["max_abs_err"] = nullptr;
        j["check_ok"] = nullptr;
    } else {
        j["check"] = r.check;
        j["max_abs_err"] =
            r.checkFinite ? nlohmann::ordered_json(significant(r.maxAbsErr, 4)) : nlohmann::ordered_json(nullptr);
        j["check_ok"] = r.checkOk;
        if (!r.checkFinite) {
            j["check_note"] = "output holds NaN or infinity (unwritten pixels?)";
        }
    }
}

/// Several GPUs against one, and a host-to-host case against a pinned copy.
void addScaling(nlohmann::ordered_json& j, const Result& r, double med)
{
    if (!r.gpus.empty()) {
        j["gpu_count"] = r.gpus.size();
        j["speedup_vs_1gpu"] =
            r.speedup ? nlohmann::ordered_json(significant(*r.speedup, 4)) : nlohmann::ordered_json(nullptr);
        j["scaling_efficiency"] =
            r.speedup ? nlohmann::ordered_json(significant(*r.speedup / static_cast<double>(r.gpus.size()), 4))
                      : nlohmann::ordered_json(nullptr);
    }
    if (r.baselineMs) {
        j["pinned_copy_ms"] = significant(*r.baselineMs);
        j["x_pinned_copy"] = significant(med / *r.baselineMs, 4);
    }
}

}  // namespace

nlohmann::ordered_json toJson(const Result& r)
{
    nlohmann::ordered_json j;
    j["case"] = r.caseName;
    j["format"] = r.format;
    j["width"] = r.width;
    j["height"] = r.height;
    j["kernel"] = r.kernel;
    j["method"] = r.method;
    j["chosen"] = r.chosen;
    // The ordinals as numbers, as earlier versions wrote them.
    nlohmann::ordered_json ids = nlohmann::ordered_json::array();
    for (const values::DeviceId id : r.gpus) {
        ids.push_back(id.value());
    }
    j["devices"] = r.device.isCpu()
                       ? nlohmann::ordered_json(values::deviceLabel(r.device, nullptr, values::LabelForm::Key))
                   : r.gpus.empty() ? nlohmann::ordered_json::array({r.device.value()})
                                    : ids;
    j["device_name"] = r.deviceName;
    if (!r.skipped.empty()) {
        j["skipped"] = r.skipped;
        return j;
    }
    if (!r.error.empty()) {
        j["error"] = r.error;
        return j;
    }
    const double med = r.median();
    addTimings(j, r, med);
    addCheck(j, r);
    j["target_ms"] = orNull(r.targetMs);
    j["target_met"] = r.targetMs ? nlohmann::ordered_json(med <= *r.targetMs) : nlohmann::ordered_json(nullptr);
    j["workspace_bytes"] = r.workspaceBytes;
    j["plan"] = r.plan;
    addScaling(j, r, med);
    return j;
}

std::string formatTable(const std::vector<Result>& results)
{
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "%-18s %-5s %-16s %10s %9s %8s %8s %8s %5s %8s\n", "case", "dev", "method",
                  "median ms", "GB/s", "% floor", "x naive", "target", "met", "max err");
    out += line;
    out += std::string(104, '-') + "\n";
    for (const auto& r : results) {
        if (r.caseName == "copy" || !r.gpus.empty()) {
            continue;  // multi-GPU lines have a table of their own
        }
        const std::string dev = r.device.isCpu() ? values::deviceLabel(r.device, nullptr, values::LabelForm::Key)
                                                 : std::to_string(r.device.value());
        std::string method = r.method;
        if (r.method == "auto" && !r.chosen.empty()) {
            method += "=" + r.chosen;
        }
        if (!r.skipped.empty()) {
            std::snprintf(line, sizeof line, "%-18s %-5s %-16s skipped: %.60s\n", r.caseName.c_str(), dev.c_str(),
                          method.c_str(), r.skipped.c_str());
            out += line;
            continue;
        }
        if (!r.error.empty()) {
            std::snprintf(line, sizeof line, "%-18s %-5s %-16s error: %.60s\n", r.caseName.c_str(), dev.c_str(),
                          method.c_str(), r.error.c_str());
            out += line;
            continue;
        }
        const double med = r.median();
        const double floorMs = r.bytes / (kReferenceCeilingGBs * 1e6);
        char naive[16] = "-";
        if (r.naiveMs && med > 0) {
            std::snprintf(naive, sizeof naive, "%.1fx", *r.naiveMs / med);
        }
        char pct[16] = "-";
        if (!r.device.isCpu() && med > 0) {
            std::snprintf(pct, sizeof pct, "%.1f", 100.0 * floorMs / med);
        }
        char target[16] = "-";
        const char* met = "-";
        if (r.targetMs) {
            std::snprintf(target, sizeof target, "%.3g", *r.targetMs);
            met = med <= *r.targetMs ? "yes" : "no";
        }
        char err[16] = "-";
        if (!r.check.empty()) {
            if (r.checkFinite) {
                std::snprintf(err, sizeof err, "%.2g%s", r.maxAbsErr, r.checkOk ? "" : "!");
            } else {
                std::snprintf(err, sizeof err, "NaN!");
            }
        }
        std::snprintf(line, sizeof line, "%-18s %-5s %-16s %10.4g %9.1f %8s %8s %8s %5s %8s\n", r.caseName.c_str(),
                      dev.c_str(), method.c_str(), med, med > 0 ? r.bytes / med / 1e6 : 0.0, pct, naive, target, met,
                      err);
        out += line;
    }
    return out;
}

}  // namespace tessera::app::bench
