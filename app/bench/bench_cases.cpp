// SPDX-License-Identifier: Apache-2.0
#include "app/bench/bench_cases.h"

#include "filters/factories.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <random>
#include <stdexcept>

namespace tessera::app::bench {

namespace {

struct CaseDef {
    const char* name;
    const char* format;
    int cvType;
    int size;
    bool gaussian;
    double targetMs;     ///< 0: none
    bool extra = false;  ///< not in docs/performance.md's table: only by name or the "extra" group
};

// The table of docs/performance.md, in its order.
constexpr CaseDef kCases[] = {
    {"f32c1-custom3", "f32c1", CV_32FC1, 3, false, 0.16},
    {"f32c1-custom15", "f32c1", CV_32FC1, 15, false, 0.5},
    {"f32c1-custom31", "f32c1", CV_32FC1, 31, false, 1.2},
    {"rgba8-custom3", "rgba8", CV_8UC4, 3, false, 0.16},
    {"rgba8-custom15", "rgba8", CV_8UC4, 15, false, 1.0},
    {"rgba8-custom31", "rgba8", CV_8UC4, 31, false, 2.5},
    {"rgba8-gaussian31", "rgba8", CV_8UC4, 31, true, 0.25},
    {"f32c1-gaussian31", "f32c1", CV_32FC1, 31, true, 0.2},
    // Other sizes of the specialised kernels, to watch them beside the table's cases.
    {"rgba8-gaussian3", "rgba8", CV_8UC4, 3, true, 0.0, true},
    {"f32c1-gaussian3", "f32c1", CV_32FC1, 3, true, 0.0, true},
    {"rgba8-gaussian5", "rgba8", CV_8UC4, 5, true, 0.0, true},
    {"f32c1-gaussian5", "f32c1", CV_32FC1, 5, true, 0.0, true},
    {"rgba8-custom5", "rgba8", CV_8UC4, 5, false, 0.0, true},
    {"rgba8-gaussian15", "rgba8", CV_8UC4, 15, true, 0.0, true},
    {"f32c1-gaussian15", "f32c1", CV_32FC1, 15, true, 0.0, true},
    // Where the direct kernels hand over to the FFT's: the sizes on either side.
    {"f32c1-custom7", "f32c1", CV_32FC1, 7, false, 0.0, true},
    {"f32c1-custom9", "f32c1", CV_32FC1, 9, false, 0.0, true},
    {"f32c1-custom11", "f32c1", CV_32FC1, 11, false, 0.0, true},
    {"f32c1-custom21", "f32c1", CV_32FC1, 21, false, 0.0, true},
    {"f32c1-custom63", "f32c1", CV_32FC1, 63, false, 0.0, true},
    {"rgba8-custom9", "rgba8", CV_8UC4, 9, false, 0.0, true},
    {"f32c4-custom15", "f32c4", CV_32FC4, 15, false, 0.0, true},
    {"u16c3-custom15", "u16c3", CV_16UC3, 15, false, 0.0, true},
    {"f32c3-custom31", "f32c3", CV_32FC3, 31, false, 0.0, true},
    {"f32c4-custom31", "f32c4", CV_32FC4, 31, false, 0.0, true},
};

/// A random full-rank kernel normalised to unit sum: mostly positive weights with some negative
/// ones, so 8-bit results use the whole range without saturating everywhere.
filters::FilterSpec randomCustom(int size, std::mt19937& rng)
{
    std::uniform_real_distribution<double> dist(-0.25, 1.0);
    filters::Kernel2D k{size, size, std::vector<double>(static_cast<std::size_t>(size) * size)};
    for (double& w : k.weights) {
        w = dist(rng);
    }
    auto spec = filters::makeCustom(k, true);
    // The benchmark wants the full-rank path; a random draw is rank 1 with probability zero,
    // but the separable factors would change what auto may pick, so make sure.
    spec.separable.reset();
    return spec;
}

std::vector<std::string> groupsOf(const CaseDef& d)
{
    if (d.extra) {
        return {"extra"};
    }
    std::vector<std::string> g{"all", d.format};
    if (d.gaussian) {
        g.push_back("separable");
    } else {
        g.push_back(d.size <= 3 ? "small" : "large");
        g.push_back("custom");
    }
    return g;
}

bool contains(const std::vector<std::string>& v, const std::string& s)
{
    return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

std::vector<std::string> allCaseNames()
{
    std::vector<std::string> names;
    for (const auto& d : kCases) {
        if (!d.extra) {
            names.emplace_back(d.name);
        }
    }
    return names;
}

CaseSelection selectCases(const std::vector<std::string>& names, unsigned seed)
{
    CaseSelection sel;
    std::vector<bool> chosen(std::size(kCases), false);
    for (const auto& n : names) {
        if (n == "preview") {
            sel.preview = true;
            continue;
        }
        if (n == "multi") {
            sel.multi = true;
            continue;
        }
        if (n == "batch") {
            sel.batch = true;
            continue;
        }
        bool matched = false;
        for (std::size_t i = 0; i < std::size(kCases); ++i) {
            if (n == kCases[i].name || contains(groupsOf(kCases[i]), n)) {
                chosen[i] = true;
                matched = true;
            }
        }
        if (!matched) {
            throw std::invalid_argument("--cases: unknown case or group '" + n + "' (see --help)");
        }
    }
    // Each case draws from its own generator so a kernel does not depend on which others run.
    for (std::size_t i = 0; i < std::size(kCases); ++i) {
        if (!chosen[i]) {
            continue;
        }
        const CaseDef& d = kCases[i];
        BenchCase c;
        c.name = d.name;
        c.format = d.format;
        c.cvType = d.cvType;
        if (d.targetMs > 0.0) {
            c.targetMs = d.targetMs;
        }
        c.groups = groupsOf(d);
        if (d.gaussian) {
            c.kernel = "gaussian" + std::to_string(d.size);
            c.spec = filters::makeGaussian(d.size / 6.0, d.size);
        } else {
            c.kernel = "custom" + std::to_string(d.size);
            std::mt19937 rng(seed + static_cast<unsigned>(i) * 7919u);
            c.spec = randomCustom(d.size, rng);
        }
        sel.cases.push_back(std::move(c));
    }
    return sel;
}

}  // namespace tessera::app::bench
