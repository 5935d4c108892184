// SPDX-License-Identifier: Apache-2.0
// tessera-bench: the benchmark contract of docs/performance.md (cases, JSON lines, closing table).

#include "app/bench/bench_batch.h"
#include "app/bench/bench_cases.h"
#include "app/bench/bench_check.h"
#include "app/bench/bench_options.h"
#include "app/bench/bench_multi.h"
#include "values/device_label.h"
#include "app/bench/bench_preview.h"
#include "app/bench/bench_result.h"
#include "app/bench/bench_runner.h"
#include "app/build_config.h"
#include "tessera/gpu/device_info.h"
#include "values/device_selection.h"
#include "values/log.h"

#include <nlohmann/json.hpp>
#include <QCoreApplication>
#include <opencv2/core.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench = tessera::app::bench;
namespace gpu = tessera::gpu;
namespace values = tessera::values;

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;
constexpr int kExitCheckFailed = 4;

/// Resolves --devices against the devices present, in order and without repeats. Throws
/// values::DeviceUnavailableError (not an invalid_argument) when a named GPU, or any, is absent.
std::vector<bench::Target> resolveTargets(const std::vector<values::DeviceSelection>& devices,
                                          const values::DeviceSnapshot& snap)
{
    std::vector<bench::Target> targets;
    auto add = [&](bench::Target t) {
        if (std::find(targets.begin(), targets.end(), t) == targets.end()) {
            targets.push_back(t);
        }
    };
    for (const values::DeviceSelection& selection : devices) {
        if (selection.kind() == values::DeviceSelection::Kind::Cpu) {
            add({true, values::DeviceId::cpu()});
            continue;
        }
        std::string note;
        for (const values::DeviceId id : values::resolve(selection, snap, note, bench::kBenchDevices)) {
            add({false, id});
        }
    }
    return targets;
}

cv::Mat randomImage(const bench::BenchCase& c, int width, int height, unsigned seed)
{
    cv::Mat m(height, width, c.cvType);
    cv::RNG rng(seed);
    if (CV_MAT_DEPTH(c.cvType) == CV_32F) {
        rng.fill(m, cv::RNG::UNIFORM, 0.0, 1.0);
    } else {
        rng.fill(m, cv::RNG::UNIFORM, 0, 256);
    }
    return m;
}

std::string targetKey(const bench::Target& t)
{
    return t.cpu ? values::deviceLabel(values::DeviceId::cpu(), nullptr, values::LabelForm::Key)
                 : std::to_string(t.device.value());
}

/// One bench run after its options are read: the results so far and whether any failed.
class BenchRun {
public:
    BenchRun(const bench::Options& options, const bench::CaseSelection& selection,
             const values::DeviceSnapshot& snapshot, std::vector<bench::Target> targets)
        : options_(options), selection_(selection), snapshot_(snapshot), targets_(std::move(targets))
    {
    }

    /// One JSON line per result on stdout, as it comes.
    void report(const bench::Result& r)
    {
        std::cout << bench::toJson(r).dump() << std::endl;
        anyError_ = anyError_ || !r.error.empty();
        anyCheckFailed_ = anyCheckFailed_ || (!r.check.empty() && !r.checkOk);
        results_.push_back(r);
    }

    /// The copy ceiling of each target first; the floors of the kernel cases refer to it.
    void measureCeilings()
    {
        for (const auto& t : targets_) {
            try {
                bench::Result r = t.cpu ? bench::measureCopyCpu(options_) : bench::measureCopyGpu(gpuOf(t), options_);
                report(r);
                ceilings_[targetKey(t)] = r.bytes / r.median() / 1e6;
            } catch (const std::exception& e) {
                std::cerr << "tessera-bench: copy ceiling on " << targetKey(t) << " failed: " << e.what() << "\n";
                anyError_ = true;
            }
        }
    }

    void runKernelCases()
    {
        for (std::size_t i = 0; i < selection_.cases.size(); ++i) {
            const bench::BenchCase& c = selection_.cases[i];
            if (!options_.quiet()) {
                std::cerr << "tessera-bench: case " << c.name << "\n";
            }
            const cv::Mat input =
                randomImage(c, options_.width, options_.height, options_.seed + static_cast<unsigned>(i));
            std::optional<bench::Reference> reference;
            const bench::ReferenceSource source = [&]() -> const bench::Reference& {
                if (!reference) {
                    reference.emplace(input, c.spec);
                }
                return *reference;
            };
            for (const auto& t : targets_) {
                const auto it = ceilings_.find(targetKey(t));
                const std::optional<double> ceiling = it == ceilings_.end() ? std::nullopt : std::optional(it->second);
                if (t.cpu) {
                    report(bench::runCaseCpu(c, input, options_, ceiling));
                    continue;
                }
                try {
                    bench::runCaseGpu(c, input, source, gpuOf(t), options_, ceiling,
                                      [this](const bench::Result& r) { report(r); });
                } catch (const std::exception& e) {
                    std::cerr << "tessera-bench: " << c.name << " on " << values::deviceLabel(t.device)
                              << " failed: " << e.what() << "\n";
                    anyError_ = true;
                }
            }
        }
    }

    void runMultiCases()
    {
        std::vector<values::DeviceInfo> gpus;
        for (const auto& t : targets_) {
            if (!t.cpu) {
                gpus.push_back(gpuOf(t));
            }
        }
        if (gpus.empty()) {
            std::cerr << "tessera-bench: the multi cases need GPUs (--devices all); skipping them\n";
            return;
        }
        if (!options_.quiet()) {
            std::cerr << "tessera-bench: multi cases on " << gpus.size() << " GPU(s)\n";
        }
        bench::runMulti(gpus, options_, [this](const bench::Result& r) { report(r); });
    }

    /// Needs a QCoreApplication (the Engine's thread and signals).
    void runPreviewCases()
    {
        if (!options_.quiet()) {
            std::cerr << "tessera-bench: case preview\n";
        }
        for (const auto& t : targets_) {
            const std::string name = t.cpu ? values::deviceLabel(values::DeviceId::cpu()) : gpuOf(t).name;
            if (!t.cpu && t.device != values::DeviceId{0}) {
                std::cerr << "tessera-bench: preview runs on GPU 0 only (the Engine's device); skipping "
                          << values::deviceLabel(t.device) << "\n";
                continue;
            }
            report(bench::runPreview(!t.cpu, t.device, name, options_));
            for (const char* filter : {"gaussian", "sharpen"}) {
                report(bench::runFitPreview(!t.cpu, t.device, name, options_, filter));
            }
        }
    }

    void runBatchCases()
    {
        if (!options_.quiet()) {
            std::cerr << "tessera-bench: case batch (" << options_.batchFiles << " files per set)\n";
        }
        batchLines_ = bench::runBatchCases(options_, targets_);
        for (const bench::BatchLine& line : batchLines_) {
            std::cout << bench::toJson(line).dump() << std::endl;
            anyError_ = anyError_ || !line.error.empty();
        }
    }

    /// The tables for people (not with --json-only), then the exit status.
    int finish() const
    {
        if (!options_.jsonOnly && !batchLines_.empty()) {
            std::cout << "\n" << bench::formatBatchTable(batchLines_) << std::flush;
        }
        if (!options_.jsonOnly && !results_.empty()) {
            printTables();
        }
        if (anyError_) {
            return kExitFailure;
        }
        return anyCheckFailed_ ? kExitCheckFailed : 0;
    }

private:
    const values::DeviceInfo& gpuOf(const bench::Target& t) const
    {
        return snapshot_.devices[static_cast<std::size_t>(t.device.value())];
    }

    void printTables() const
    {
        std::cout << "\n";
        for (const auto& r : results_) {
            if (r.caseName == "copy" && r.error.empty()) {
                const values::LabelForm form = r.device.isCpu() ? values::LabelForm::Key : values::LabelForm::Short;
                std::printf("copy ceiling on %s: %.1f GB/s (%.4g ms for %.4g MB read + written)\n",
                            values::deviceLabel(r.device, nullptr, form).c_str(), r.bytes / r.median() / 1e6,
                            r.median(), r.bytes / 1e6);
            }
        }
        std::printf("floor = input + output bytes at %.2f TB/s; targets from docs/performance.md (8192x8192 only)\n\n",
                    bench::kReferenceCeilingGBs / 1000.0);
        std::cout << bench::formatTable(results_) << std::flush;
        if (selection_.multi) {
            std::cout << "\n" << bench::formatMultiTable(results_) << std::flush;
        }
    }

    const bench::Options& options_;
    const bench::CaseSelection& selection_;
    const values::DeviceSnapshot& snapshot_;
    std::vector<bench::Target> targets_;
    std::vector<bench::Result> results_;
    std::vector<bench::BatchLine> batchLines_;
    std::map<std::string, double> ceilings_;
    bool anyError_ = false;
    bool anyCheckFailed_ = false;
};

}  // namespace

int main(int argc, char** argv)
{
    bench::Options options;
    bench::CaseSelection selection;
    try {
        options = bench::parseOptions(argc, argv);
        if (options.help) {
            std::cout << bench::usage();
            return 0;
        }
        if (options.version) {
            std::cout << "tessera-bench " << TESSERA_VERSION << "\n";
            return 0;
        }
        selection = bench::selectCases(options.cases, options.seed);
    } catch (const std::invalid_argument& e) {
        std::cerr << "tessera-bench: " << e.what() << "\n";
        return kExitUsage;
    }
    for (const auto& group : selection.unavailable) {
        std::cerr << "tessera-bench: case group '" << group << "' is not yet available in this build; skipping it\n";
    }
    if (selection.cases.empty() && !selection.preview && !selection.multi && !selection.batch) {
        std::cerr << "tessera-bench: nothing to run\n";
        return kExitUsage;
    }
    const bool wantsGpu = std::ranges::any_of(options.devices, [](const values::DeviceSelection& d) {
        return d.kind() != values::DeviceSelection::Kind::Cpu;
    });
    const values::DeviceSnapshot snapshot = wantsGpu ? gpu::enumerateDevices() : values::DeviceSnapshot{};
    std::vector<bench::Target> targets;
    try {
        targets = resolveTargets(options.devices, snapshot);
    } catch (const std::invalid_argument& e) {
        std::cerr << "tessera-bench: " << e.what() << "\n";
        return kExitUsage;
    } catch (const std::exception& e) {
        std::cerr << "tessera-bench: " << e.what() << "\n";
        return kExitFailure;
    }
    BenchRun run(options, selection, snapshot, std::move(targets));
    if (!selection.cases.empty()) {
        if (!options.quiet()) {
            std::cerr << "tessera-bench: " << options.width << "x" << options.height << ", " << options.runs
                      << " timed runs after " << options.warmup << " warm-up, " << selection.cases.size()
                      << " case(s)\n";
        }
        run.measureCeilings();  // only the kernel cases are held against the copy ceiling
        run.runKernelCases();
    }
    if (selection.multi) {
        run.runMultiCases();
    }
    // Lives until the end of main, before static destructors run.
    int qtArgc = 1;
    std::optional<QCoreApplication> qtApp;
    if (selection.preview) {
        qtApp.emplace(qtArgc, argv);
        run.runPreviewCases();
    }
    if (selection.batch) {
        run.runBatchCases();
    }
    return run.finish();
}
