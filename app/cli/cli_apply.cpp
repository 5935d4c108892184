// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli.h"
#include "app/batch/batch_devices.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_filter_options.h"
#include "app/io/file_roles.h"
#include "app/io/image_io.h"
#include "app/io/path_text.h"
#include "app/io/trace_export.h"
#include "values/run_report_json.h"
#include "files/output_file.h"
#include "app/cli/interrupt.h"
#include "filters/factories.h"
#include "filters/preset_io.h"
#include "filters/registry.h"
#include "values/device_selection.h"
#include "tessera/gpu/engine.h"

#include <nlohmann/json.hpp>
#include <opencv2/core/utility.hpp>

#include <chrono>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace tessera::app {

namespace {

using nlohmann::json;

struct ApplyOptions {
    std::string input;
    std::string output;
    FilterOptions filters;
    std::string trace;  ///< Chrome trace of the run's timing records
    bool json = false;
    bool help = false;
    bool stripMetadata = false;
};

void printApplyUsage(std::ostream& os)
{
    os << "Usage: tessera-cli apply INPUT -o OUTPUT [--filter ID [--param KEY=VALUE]...]...\n"
          "         [--kernel SPEC|@FILE] [--preset FILE] [--border MODE] [--border-value V]\n"
          "         [--scale S] [--offset O] [--depth same|u8|u16|f32]\n"
          "         [--device auto|cpu|gpu|gpu:N[,M...]|all] [--method auto|direct|separable|fft]\n"
          "         [--gpu-memory-limit BYTES] [--tile WxH] [--trace FILE] [--strip-metadata] [--json]\n"
          "\n"
          "  --filter ID        add a filter to the chain (see 'tessera-cli filters')\n"
          "  --param KEY=VALUE  set a parameter of the --filter before it\n"
          "  --kernel SPEC      add a custom kernel: rows by ';', values by ','\n"
          "                     (\"0,-1,0;-1,5,-1;0,-1,0\"), or @FILE with the same text or JSON\n"
          "  --preset FILE      add the filters of a JSON preset\n"
          "  --border MODE      reflect101 (default), reflect, replicate, constant, wrap; all steps\n"
          "  --border-value V   value outside the image for --border constant\n"
          "  --scale, --offset  result = scale * sum + offset (last step)\n"
          "  --depth D          output depth of the last step (default: same as input)\n"
          "  --device D         where to run (default auto: every GPU, else the CPU)\n"
          "  --method M         GPU method (default auto: chosen per filter by a cost model)\n"
       << kGpuOptionsHelp
       << "  --trace FILE       write the run's timeline (every tile's upload, kernels, download)\n"
          "                     as Chrome trace JSON, for Perfetto or chrome://tracing\n"
          "  --strip-metadata   write no EXIF, XMP or ICC profile (by default they are carried\n"
          "                     from the input to JPEG, PNG, TIFF and WebP outputs)\n"
          "  --json             print one JSON object describing the run\n"
          "  --                 end of options: what follows is the input, even if it starts with '-'\n"
          "Filters run in the order given; the output is written to a temporary file and renamed.\n"
          "A photo's EXIF orientation is applied on reading, so the output is upright.\n";
}

ApplyOptions parseApply(const std::vector<std::string>& args)
{
    ApplyOptions o;
    o.filters = readCommandLine(args, [&o](ArgumentReader& in) {
        const std::string& a = in.current();
        if (!in.isOption()) {
            takeOnlyInput(o.input, a);
        } else if (a == "-h" || a == "--help") {
            o.help = true;
        } else if (a == "-o" || a == "--output") {
            o.output = in.value();
        } else if (a == "--trace") {
            o.trace = in.value();
        } else if (a == "--json") {
            o.json = true;
        } else if (a == "--strip-metadata") {
            o.stripMetadata = true;
        } else {
            return false;
        }
        return true;
    });
    return o;
}
}  // namespace

int runApply(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ApplyOptions o;
    try {
        o = parseApply(args);
        if (o.help) {
            printApplyUsage(out);
            return kExitOk;
        }
        if (o.input.empty()) {
            throw UsageError("no input image given");
        }
        if (o.output.empty()) {
            throw UsageError("no output given (-o OUTPUT)");
        }
        if (o.filters.steps.empty()) {
            throw UsageError("nothing to apply: give --filter, --kernel or --preset");
        }
    } catch (const UsageError& e) {
        err << "tessera-cli apply: " << e.what() << "\n\n";
        printApplyUsage(err);
        return kExitUsage;
    }

    std::string note;
    std::vector<values::DeviceId> gpus;  // empty: the CPU path
    try {
        gpus = values::resolve(values::parseDeviceSelection(o.filters.device, values::kDeviceOption), gpu::enumerateDevices(),
                            note, values::kDeviceOption);
        if (!gpus.empty()) {
            gpu::requireMethod(o.filters.method);  // --method fft without cuFFT: said here, not per tile
        }
    } catch (const std::invalid_argument& e) {
        err << "tessera-cli apply: " << e.what() << "\n";
        return kExitUsage;
    }

    const filters::FilterChain chain = chainFromOptions(o.filters);
    try {
        FileRoles roles;
        roles.reads(o.input, "the input image");
        addFilterFiles(o.filters, roles);
        roles.writes(o.output, "the output image");
        if (!o.trace.empty()) {
            roles.writes(o.trace, "the --trace file");
        }
        roles.check();
    } catch (const FilesOverlap& e) {
        err << "tessera-cli apply: " << e.what() << "\nNothing was written.\n";
        return kExitUsage;
    }
    // Every file the run writes passes the output rule before any is written: a trace that
    // cannot be written must not fail the run after the image was, and an image aimed at a
    // device or FIFO is refused before the work (a trace may go to one: /dev/stdout, a pipe).
    files::checkOutputFile(o.output, files::Streams::Refuse);
    if (!o.trace.empty()) {
        files::checkOutputFile(o.trace, files::Streams::Write);
    }

    // Ctrl+C or SIGTERM ends the run at once with 130 or 143, its temporary output removed.
    const InterruptGuard guard(InterruptGuard::Mode::Exit);
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    refuseSameFile(o.input, o.output);
    ImageMetadata metadata;
    const cv::Mat src = readImage(o.input, {}, &metadata);
    const auto t1 = Clock::now();
    cv::Mat dst;
    values::RunReport gpuReport;
    std::string ranOn = "cpu";
    {
        // One GPU or several, or the CPU slot when there is none or the CPU is asked for: the
        // same tiled run.
        gpu::RunOptions so;
        so.deviceSlots = gpus.empty() ? gpu::cpuSlots() : gpu::slotsFor(gpus, {}, o.filters.gpuMemoryLimit);
        so.method = o.filters.method;
        so.tileSize = o.filters.tile;
        try {
            dst = gpu::runStreamed(src, chain, so, &gpuReport);
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(o.input + ": " + e.what());
        }
        if (!gpus.empty()) {
            ranOn = values::toString(values::selectionOf(gpus));
            // What fell back is the pipeline's to say; the events tell the rest.
            note = gpuReport.fellBack.describe();
            for (const auto& e : gpuReport.events) {
                note += (note.empty() ? "" : "; ") + e;
            }
        }
    }
    const auto t2 = Clock::now();
    // What the output holds is what its writer put there, not what was offered.
    const MetadataReport kept = writeImage(o.output, dst, o.stripMetadata ? nullptr : &metadata);
    if (!o.trace.empty()) {
        writeTrace(o.trace, TraceFormat::ChromeTrace, gpuReport.records,
                   gpus.empty() ? values::DeviceSnapshot{} : gpu::enumerateDevices());
    }
    const auto t3 = Clock::now();
    auto ms = [](Clock::time_point a, Clock::time_point b) {
        return std::chrono::duration<double, std::milli>(b - a).count();
    };

    if (o.json) {
        json steps = json::array();
        for (size_t i = 0; i < o.filters.steps.size(); ++i) {
            json d = o.filters.steps[i].description;
            const auto& spec = chain.steps[i];
            d["kernel_size"] = {spec.kernel.width, spec.kernel.height};
            d["separable"] = spec.separable.has_value();
            d["border"] = filters::toString(spec.border);
            if (!gpus.empty() && i < gpuReport.stepMethods.size()) {
                d["method"] = values::toString(gpuReport.stepMethods[i]);
                d["plan"] = gpuReport.methods[i];
            }
            steps.push_back(d);
        }
        json doc = {{"width", src.cols},
                    {"height", src.rows},
                    {"format_in", describeFormat(src)},
                    {"format_out", describeFormat(dst)},
                    {"filters", steps},
                    {"border", filters::toString(chain.steps.front().border)},
                    {"device", ranOn},
                    {"threads", cv::getNumThreads()},
                    {"milliseconds", ms(t1, t2)},
                    {"read_milliseconds", ms(t0, t1)},
                    {"write_milliseconds", ms(t2, t3)},
                    {"metadata", kept.kept.summary()},
                    {"metadata_left_out", kept.dropped}};
        // What the pipeline did, in the shape every front end reports (values/run_report_json.h).
        doc["run"] = json::parse(values::runReportJson(gpuReport));
        putPath(doc, "input", o.input);
        putPath(doc, "output", o.output);
        if (metadata.orientation != 1) {
            doc["orientation_applied"] = describeOrientation(metadata.orientation);
        }
        if (!gpus.empty()) {
            double phase[4] = {0, 0, 0, 0};
            for (const auto& r : gpuReport.records) {
                phase[static_cast<int>(r.phase)] += r.durationUs() / 1000.0;
            }
            doc["gpu_kernel_milliseconds"] = phase[static_cast<int>(values::Phase::Kernel)];
            doc["gpu_upload_milliseconds"] = phase[static_cast<int>(values::Phase::Upload)];
            doc["gpu_download_milliseconds"] = phase[static_cast<int>(values::Phase::Download)];
            doc["tiles"] = gpuReport.tiles.size();
            doc["tile_plan"] = gpuReport.plan;
            json slotList = json::array();
            for (const auto& s : gpuReport.slotReports) {
                slotList.push_back({{"device", s.slot.name()}, {"tiles", s.tiles}, {"busy_milliseconds", s.busyMs},
                                 {"failure", s.failure}});
            }
            doc["slots"] = slotList;
            doc["events"] = gpuReport.events;
            doc["cpu_fallback_tiles"] = gpuReport.cpuFallbackTiles;
        }
        if (gpuReport.fellBack.happened()) {
            json from = json::array();
            json to = json::array();
            for (const values::DeviceId id : gpuReport.fellBack.from) {
                from.push_back(values::describe(id));
            }
            for (const values::DeviceId id : gpuReport.fellBack.to) {
                to.push_back(values::describe(id));
            }
            doc["fell_back"] = {{"policy", values::toString(gpuReport.policy)},
                                {"from", from},
                                {"to", to},
                                {"tiles", gpuReport.fellBack.tiles},
                                {"reason", gpuReport.fellBack.reason}};
        }
        if (!o.trace.empty()) {
            putPath(doc, "trace", o.trace);
        }
        if (!note.empty()) {
            doc["note"] = note;
        }
        out << jsonText(doc, 2) << "\n";
    } else {
        out << o.output << ": " << src.cols << " x " << src.rows << " " << describeFormat(src)
            << " -> " << describeFormat(dst) << ", " << chain.steps.size() << " filter(s) on "
            << ranOn << " in "
            << ms(t1, t2) << " ms";
        if (metadata.orientation != 1) {
            out << ", " << describeOrientation(metadata.orientation) << " to stand upright";
        }
        if (!kept.kept.empty()) {
            out << ", kept " << kept.kept.summary();
        }
        out << "\n";
        for (const std::string& left : kept.dropped) {
            err << "note: metadata left out of " << o.output << ": " << left << "\n";
        }
        if (!note.empty()) {
            err << "note: " << note << "\n";
        }
    }
    return kExitOk;
}

}  // namespace tessera::app
