// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli.h"
#include "app/apply/apply_run.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_filter_options.h"
#include "app/io/encode_choice.h"
#include "app/io/file_roles.h"
#include "app/io/image_io.h"
#include "app/io/path_text.h"
#include "values/run_report_json.h"
#include "files/output_file.h"
#include "app/cli/interrupt.h"
#include "filters/factories.h"
#include "filters/preset_io.h"
#include "filters/registry.h"
#include "filters/cpu_executor.h"

#include <nlohmann/json.hpp>
#include <opencv2/core/utility.hpp>

#include <array>
#include <optional>
#include <ostream>
#include <stdexcept>

namespace tessera::app {

namespace {

using nlohmann::json;

constexpr std::array kApplyOptions{
    OptionSpec{"--output", "-o", ValueKind::File},
    OptionSpec{"--format", {}, ValueKind::Choice, "png jpg tif bmp webp exr"},
    OptionSpec{"--trace", {}, ValueKind::File},
    OptionSpec{"--json"},
    OptionSpec{"--strip-metadata"},
    OptionSpec{"--quality", {}, ValueKind::Text, "lossless"},
    OptionSpec{"--compression", {}, ValueKind::Text, "none lzw deflate"},
    OptionSpec{"--help", "-h"},
};

struct ApplyOptions {
    std::string input;   ///< a path or "-"
    std::string output;  ///< a path or "-"
    std::string format;  ///< --format as given
    FilterOptions filters;
    std::string trace;  ///< Chrome trace of the run's timing records
    bool json = false;
    bool help = false;
    bool stripMetadata = false;
    codec::EncodeOptions encode;
};

void printApplyUsage(std::ostream& os)
{
    os << "Usage: tessera-cli apply INPUT -o OUTPUT [--format EXT] [--filter ID [--param KEY=VALUE]...]...\n"
          "         [--kernel SPEC|@FILE] [--preset FILE] [--border MODE] [--border-value V]\n"
          "         [--scale S] [--offset O] [--depth same|u8|u16|f32]\n"
          "         [--device auto|cpu|gpu|gpu:N[,M...]|all] [--method auto|direct|separable|fft]\n"
          "         [--gpu-memory-limit BYTES] [--tile WxH] [--trace FILE] [--strip-metadata] [--json]\n"
          "         [--quality Q] [--compression C]\n"
          "\n"
          "  INPUT              the image; \"-\" reads it from standard input (its format from its bytes)\n"
          "  -o, --output FILE  the output; its extension names the format; \"-\" writes it to\n"
          "                     standard output (then --format is needed, and --json is refused)\n"
          "  --format EXT       output format png, jpg, tif, bmp, webp or exr (default: the\n"
          "                     output's extension, which must then agree)\n"
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
       << kEncodeOptionsHelp
       << "  --json             print one JSON object describing the run\n"
          "  -v, --verbose      print every diagnostic (TESSERA_LOG=all) on stderr\n"
          "  -q, --quiet        print no summary or notes; errors still show\n"
          "  --                 end of options: what follows is the input, even if it starts with '-'\n"
          "A long option takes its value as the next argument or after '=' (--param=sigma=2).\n"
          "Filters run in the order given; the output is written to a temporary file and renamed.\n"
          "A photo's EXIF orientation is applied on reading, so the output is upright.\n";
}

ApplyOptions parseApply(const std::vector<std::string>& args, Verbosity& verbosity)
{
    ApplyOptions o;
    o.filters = readCommandLine(args, kApplyOptions, verbosity, [&o](ArgumentReader& in) {
        const std::string& a = in.current();
        if (!in.isOption()) {
            takeOnlyInput(o.input, a);
        } else if (a == "-h" || a == "--help") {
            o.help = true;
        } else if (a == "-o" || a == "--output") {
            o.output = in.value();
        } else if (a == "--format") {
            o.format = in.value();
        } else if (a == "--trace") {
            o.trace = sideFile(a, in.value());
        } else if (a == "--json") {
            o.json = true;
        } else if (a == "--strip-metadata") {
            o.stripMetadata = true;
        } else if (readEncodeOption(in, o.encode)) {
        } else {
            return false;
        }
        return true;
    });
    return o;
}

/// "u8x3", as describeFormat says it of an image of that type.
std::string formatText(int type)
{
    return describeFormat(cv::Mat(1, 1, type));
}

/// The GPU run's own figures: time per phase, tiles, slots, events.
void putGpuDetails(json& doc, const values::RunReport& report)
{
    double phase[4] = {0, 0, 0, 0};
    for (const auto& r : report.records) {
        phase[static_cast<int>(r.phase)] += r.durationUs() / 1000.0;
    }
    doc["gpu_kernel_milliseconds"] = phase[static_cast<int>(values::Phase::Kernel)];
    doc["gpu_upload_milliseconds"] = phase[static_cast<int>(values::Phase::Upload)];
    doc["gpu_download_milliseconds"] = phase[static_cast<int>(values::Phase::Download)];
    doc["tiles"] = report.tiles.size();
    doc["tile_plan"] = report.plan;
    json slotList = json::array();
    for (const auto& s : report.slotReports) {
        slotList.push_back(
            {{"device", s.slot.name()}, {"tiles", s.tiles}, {"busy_milliseconds", s.busyMs}, {"failure", s.failure}});
    }
    doc["slots"] = slotList;
    doc["events"] = report.events;
    doc["cpu_fallback_tiles"] = report.cpuFallbackTiles;
}

/// The --json document of a finished run.
json applyJson(const ApplyOptions& o, const filters::FilterChain& chain, const ApplyResult& r)
{
    const values::RunReport& report = r.report;
    const bool onGpu = !r.gpus.empty();
    json steps = json::array();
    for (size_t i = 0; i < o.filters.steps.size(); ++i) {
        json d = o.filters.steps[i].description;
        const auto& spec = chain.steps[i];
        d["kernel_size"] = {spec.kernel.width, spec.kernel.height};
        d["separable"] = spec.separable.has_value();
        d["border"] = filters::toString(spec.border);
        if (onGpu && i < report.stepMethods.size()) {
            d["method"] = values::toString(report.stepMethods[i]);
            d["plan"] = report.methods[i];
        }
        steps.push_back(d);
    }
    json doc = {{"width", r.size.width},
                {"height", r.size.height},
                {"format_in", formatText(r.typeIn)},
                {"format_out", formatText(r.typeOut)},
                {"filters", steps},
                {"border", filters::toString(chain.steps.front().border)},
                {"device", r.ranOn},
                {"threads", cv::getNumThreads()},
                {"milliseconds", r.runMs},
                {"read_milliseconds", r.readMs},
                {"write_milliseconds", r.writeMs},
                {"metadata", r.kept.kept.summary()},
                {"metadata_left_out", r.kept.dropped}};
    const std::string formatPath = o.format.empty() ? o.output : "x." + o.format;
    if (const std::string encoding = values::describeEncoding(values::encodedFormatOf(formatPath), o.encode);
        !encoding.empty()) {
        doc["encoding"] = encoding;
    }
    // What the pipeline did, in the shape every front end reports (values/run_report_json.h).
    doc["run"] = json::parse(values::runReportJson(report));
    putPath(doc, "input", o.input);
    putPath(doc, "output", o.output);
    if (r.metadata.orientation != 1) {
        doc["orientation_applied"] = describeOrientation(r.metadata.orientation);
    }
    if (onGpu) {
        putGpuDetails(doc, report);
    }
    if (report.fellBack.happened()) {
        json from = json::array();
        json to = json::array();
        for (const values::DeviceId id : report.fellBack.from) {
            from.push_back(values::describe(id));
        }
        for (const values::DeviceId id : report.fellBack.to) {
            to.push_back(values::describe(id));
        }
        doc["fell_back"] = {{"policy", values::toString(report.policy)},
                            {"from", from},
                            {"to", to},
                            {"tiles", report.fellBack.tiles},
                            {"reason", report.fellBack.reason}};
    }
    if (!o.trace.empty()) {
        putPath(doc, "trace", o.trace);
    }
    if (!r.note.empty()) {
        doc["note"] = r.note;
    }
    return doc;
}

void printApplyText(const ApplyOptions& o, const filters::FilterChain& chain, const ApplyResult& r, std::ostream& out,
                    std::ostream& err)
{
    out << (o.output == "-" ? std::string(kStandardOutputName) : o.output) << ": " << r.size.width << " x "
        << r.size.height << " " << formatText(r.typeIn) << " -> " << formatText(r.typeOut) << ", " << chain.steps.size()
        << " filter(s) on " << r.ranOn << " in " << r.runMs << " ms";
    if (r.metadata.orientation != 1) {
        out << ", " << describeOrientation(r.metadata.orientation) << " to stand upright";
    }
    if (!r.kept.kept.empty()) {
        out << ", kept " << r.kept.kept.summary();
    }
    out << "\n";
    for (const std::string& left : r.kept.dropped) {
        err << "note: metadata left out of " << o.output << ": " << left << "\n";
    }
    if (!r.note.empty()) {
        err << "note: " << r.note << "\n";
    }
}

/// Every file the run touches has one role: refused before anything else is checked. Throws
/// FilesOverlap.
void checkApplyRoles(const ApplyOptions& o)
{
    FileRoles roles;
    if (o.input != "-") {
        roles.reads(o.input, "the input image");
    }
    addFilterFiles(o.filters, roles);
    if (o.output != "-") {
        roles.writes(o.output, "the output image");
    }
    if (!o.trace.empty()) {
        roles.writes(o.trace, "the --trace file");
    }
    roles.check();
}

/// Every file the run writes passes the output rule before any is written. Throws
/// files::OutputFileError.
void checkApplyOutputs(const ApplyOptions& o)
{
    // A trace that cannot be written must not fail the run after the image was, and an image
    // aimed at a device or FIFO is refused before the work (a trace may go to one: /dev/stdout,
    // a pipe).
    if (o.output != "-") {
        files::checkOutputFile(o.output, files::Streams::Refuse);
    }
    if (!o.trace.empty()) {
        files::checkOutputFile(o.trace, files::Streams::Write);
    }
}

/// The output's format, from --format or the output's name; throws UsageError for one that is
/// unknown, missing (standard output), in disagreement with the name, or that cannot hold the
/// depth --depth asks for.
void checkOutputFormat(const ApplyOptions& o)
{
    std::string format;
    if (!o.format.empty()) {
        format = outputFormatName(o.format);
        if (format.empty()) {
            throw UsageError("--format: unknown output format '" + o.format + "' (use " +
                             std::string(kOutputFormatList) + ")");
        }
        const std::string named = o.output == "-" ? std::string() : outputFormatOfPath(o.output);
        if (!named.empty() && named != format) {
            throw UsageError("--format " + o.format + " asks for " + format + ", but the name " + o.output + " says " +
                             named + "; give one or make them agree");
        }
    } else if (o.output == "-") {
        throw UsageError("-o - (standard output) needs --format (" + std::string(kOutputFormatList) + ")");
    } else {
        format = outputFormatOfPath(o.output);
        if (format.empty()) {
            throw UsageError(o.output + ": " + outputFormatProblem(o.output, CV_8U));
        }
    }
    if (o.filters.depth && *o.filters.depth != filters::OutputDepth::Same) {
        const int depth = filters::resolveOutputDepth(*o.filters.depth, CV_8U);
        if (const std::string problem = outputFormatProblem("x." + format, depth); !problem.empty()) {
            throw UsageError("--depth " + filters::toString(*o.filters.depth) + ": " + problem);
        }
    }
}

/// The standard streams "-" names are there for images: refused when they are a terminal, and
/// standard output carries the image alone.
void checkStandardStreams(const ApplyOptions& o, const CliContext& cli)
{
    if (o.input == "-" && cli.inputIsTerminal()) {
        throw UsageError("the input - (standard input) is a terminal; pipe or redirect an image into it");
    }
    if (o.output == "-") {
        if (o.json) {
            throw UsageError("--json and -o - both want standard output; write the image to a file");
        }
        if (cli.outputIsTerminal()) {
            throw UsageError("-o - (standard output) is a terminal; redirect it to a file or a pipe");
        }
    }
}

}  // namespace

std::span<const OptionSpec> applyOptions()
{
    return kApplyOptions;
}

int runApply(const std::vector<std::string>& args, CliContext& cli)
{
    std::ostream& out = cli.out;
    std::ostream& err = cli.err;
    ApplyOptions o;
    try {
        o = parseApply(args, cli.verbosity);
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
    try {
        checkApplyRoles(o);
    } catch (const FilesOverlap& e) {
        err << "tessera-cli apply: " << e.what() << "\nNothing was written.\n";
        return kExitUsage;
    }
    // Mistakes in the command line, whatever devices this machine has.
    try {
        checkOutputFormat(o);
        checkStandardStreams(o, cli);
    } catch (const UsageError& e) {
        err << "tessera-cli apply: " << e.what() << "\n\n";
        printApplyUsage(err);
        return kExitUsage;
    }
    ApplyRequest request;
    request.input = o.input;
    request.output = o.output;
    request.trace = o.trace;
    request.chain = chainFromOptions(o.filters);
    request.device = o.filters.device;
    request.method = o.filters.method;
    request.gpuMemoryLimit = o.filters.gpuMemoryLimit;
    request.tile = o.filters.tile;
    request.stripMetadata = o.stripMetadata;
    request.encode = o.encode;
    request.format = o.format;
    request.standardInput = &cli.in;
    request.standardOutput = &out;
    std::optional<ApplyRun> run;
    try {
        run.emplace(request);
    } catch (const std::invalid_argument& e) {
        err << "tessera-cli apply: " << e.what() << "\n";
        return kExitUsage;
    }
    checkApplyOutputs(o);
    // Ctrl+C or SIGTERM ends the run at once with 130 or 143, its temporary output removed.
    const InterruptGuard guard(InterruptGuard::Mode::Exit);
    const ApplyResult result = run->run();
    if (o.json) {
        out << jsonText(applyJson(o, request.chain, result), 2) << "\n";
    } else if (!cli.quiet()) {
        // Standard output holds the image alone when it is the output.
        printApplyText(o, request.chain, result, o.output == "-" ? err : out, err);
    }
    return kExitOk;
}

}  // namespace tessera::app
