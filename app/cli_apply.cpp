#include "app/cli.h"
#include "app/cli_commands.h"
#include "app/image_io.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "filters/preset_io.h"
#include "filters/registry.h"
#include "gpu/device_info.h"
#include "gpu/executor.h"
#include "gpu/gpu_apply.h"
#include "gpu/multi_executor.h"

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

/// A command-line mistake: reported with the usage hint and exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Step {
    filters::FilterSpec spec;
    json description;  // id and the parameters as given, for --json
};

struct ApplyOptions {
    std::string input;
    std::string output;
    std::vector<Step> steps;
    std::optional<filters::Border> border;
    std::optional<double> borderValue;
    std::optional<double> scale;
    std::optional<double> offset;
    std::optional<filters::OutputDepth> depth;
    std::string device = "auto";
    gpu::Method method = gpu::Method::Auto;
    std::size_t gpuMemoryLimit = 0;  ///< per GPU; 0: from free memory
    std::optional<gpu::TileSize> tile;
    bool json = false;
    bool help = false;
};

void printApplyUsage(std::ostream& os)
{
    os << "Usage: tessera-cli apply INPUT -o OUTPUT [--filter ID [--param KEY=VALUE]...]...\n"
          "         [--kernel SPEC|@FILE] [--preset FILE] [--border MODE] [--border-value V]\n"
          "         [--scale S] [--offset O] [--depth same|u8|u16|f32]\n"
          "         [--device auto|cpu|gpu|gpu:N[,M...]|all] [--method auto|direct|separable|fft]\n"
          "         [--gpu-memory-limit BYTES] [--tile WxH] [--json]\n"
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
          "  --device D         where to run (default auto: GPUs when present, else CPU)\n"
          "  --method M         GPU method (default auto: chosen per filter by a cost model)\n"
          "  --gpu-memory-limit BYTES  most device memory each GPU may use (suffix K, M, G:\n"
          "                     binary units); larger images stream through in tiles\n"
          "  --tile WxH         tile size of the GPU run (default: chosen from the memory)\n"
          "  --json             print one JSON object describing the run\n"
          "Filters run in the order given; the output is written to a temporary file and renamed.\n";
}

std::size_t parseBytes(const std::string& option, const std::string& text)
{
    std::size_t used = 0;
    double v = 0.0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    const std::string suffix = used > 0 ? text.substr(used) : "";
    const double unit = suffix.empty() ? 1.0
                        : (suffix == "K" || suffix == "k") ? 1024.0
                        : (suffix == "M" || suffix == "m") ? 1024.0 * 1024.0
                        : (suffix == "G" || suffix == "g") ? 1024.0 * 1024.0 * 1024.0
                                                           : 0.0;
    if (used == 0 || unit == 0.0 || !(v >= 1.0) || v * unit > 1e15) {
        throw UsageError(option + " expects a byte count such as 268435456 or 256M, got '" + text + "'");
    }
    return static_cast<std::size_t>(v * unit);
}

gpu::TileSize parseTile(const std::string& option, const std::string& text)
{
    const auto x = text.find('x');
    try {
        if (x != std::string::npos) {
            std::size_t a = 0;
            std::size_t b = 0;
            const int w = std::stoi(text.substr(0, x), &a);
            const int h = std::stoi(text.substr(x + 1), &b);
            if (a == x && b == text.size() - x - 1 && w > 0 && h > 0) {
                return {w, h};
            }
        }
    } catch (const std::exception&) {
    }
    throw UsageError(option + " expects WIDTHxHEIGHT in pixels, e.g. 1024x512, got '" + text + "'");
}

double parseNumber(const std::string& option, const std::string& text)
{
    try {
        size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size()) {
            return v;
        }
    } catch (const std::exception&) {
    }
    throw UsageError(option + " expects a number, got '" + text + "'");
}

std::string readTextFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error(path + ": cannot open kernel file");
    }
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

Step kernelStep(const std::string& arg)
{
    if (!arg.empty() && arg.front() == '@') {
        const std::string path = arg.substr(1);
        const std::string text = readTextFile(path);
        const auto first = text.find_first_not_of(" \t\r\n");
        if (first != std::string::npos && text[first] == '{') {
            const auto preset = filters::parsePreset(text, path, filters::builtinRegistry());
            if (preset.steps.size() != 1) {
                throw std::runtime_error(path + ": --kernel expects a single kernel, the file has " +
                                         std::to_string(preset.steps.size()) + " filters");
            }
            return {preset.steps.front().spec, {{"id", "custom"}, {"kernel_file", path}}};
        }
        // Plain text: newlines separate rows as ';' does.
        std::string rows;
        for (char c : text) {
            rows += (c == '\n') ? ';' : c;
        }
        while (!rows.empty() && (rows.back() == ';' || rows.back() == ' ' || rows.back() == '\r')) {
            rows.pop_back();
        }
        try {
            return {filters::makeCustom(filters::parseInlineKernel(rows)),
                    {{"id", "custom"}, {"kernel_file", path}}};
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(path + ": " + e.what());
        }
    }
    try {
        auto spec = filters::makeCustom(filters::parseInlineKernel(arg));
        return {spec, {{"id", "custom"}, {"kernel", arg}}};
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--kernel: ") + e.what());
    }
}

struct PendingFilter {
    const filters::FilterDesc* desc = nullptr;
    filters::ParamValues values;
    json params = json::object();
};

ApplyOptions parseApply(const std::vector<std::string>& args)
{
    ApplyOptions o;
    const auto& reg = filters::builtinRegistry();
    std::optional<PendingFilter> pending;
    auto flush = [&] {
        if (pending) {
            Step s;
            try {
                s.spec = pending->desc->build(pending->values);
            } catch (const std::invalid_argument& e) {
                throw UsageError("--filter " + pending->desc->id + ": " + e.what());
            }
            s.description = {{"id", pending->desc->id}, {"params", pending->params}};
            o.steps.push_back(std::move(s));
            pending.reset();
        }
    };
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size()) {
                throw UsageError(a + " needs a value");
            }
            return args[++i];
        };
        if (a == "-h" || a == "--help") {
            o.help = true;
        } else if (a == "-o" || a == "--output") {
            o.output = value();
        } else if (a == "--filter") {
            flush();
            const std::string& id = value();
            const auto* desc = reg.find(id);
            if (desc == nullptr) {
                throw UsageError("unknown filter '" + id + "' (see 'tessera-cli filters')");
            }
            pending = PendingFilter{desc, desc->defaults(), json::object()};
        } else if (a == "--param") {
            const std::string& kv = value();
            if (!pending) {
                throw UsageError("--param " + kv + " must follow the --filter it belongs to");
            }
            const auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0) {
                throw UsageError("--param expects KEY=VALUE, got '" + kv + "'");
            }
            const std::string key = kv.substr(0, eq);
            try {
                pending->values.values[key] = pending->desc->parseValue(key, kv.substr(eq + 1));
            } catch (const std::invalid_argument& e) {
                throw UsageError(e.what());
            }
            pending->params[key] = kv.substr(eq + 1);
        } else if (a == "--kernel") {
            flush();
            o.steps.push_back(kernelStep(value()));
        } else if (a == "--preset") {
            flush();
            const std::string& path = value();
            const auto preset = filters::loadPreset(path, reg);
            for (const auto& ps : preset.steps) {
                o.steps.push_back({ps.spec, {{"id", ps.id}, {"preset", path}}});
            }
        } else if (a == "--border") {
            try {
                o.border = filters::parseBorder(value());
            } catch (const std::invalid_argument& e) {
                throw UsageError(std::string("--border: ") + e.what());
            }
        } else if (a == "--border-value") {
            o.borderValue = parseNumber(a, value());
        } else if (a == "--scale") {
            o.scale = parseNumber(a, value());
        } else if (a == "--offset") {
            o.offset = parseNumber(a, value());
        } else if (a == "--depth") {
            try {
                o.depth = filters::parseOutputDepth(value());
            } catch (const std::invalid_argument& e) {
                throw UsageError(std::string("--depth: ") + e.what());
            }
        } else if (a == "--device") {
            o.device = value();
        } else if (a == "--method") {
            try {
                o.method = gpu::parseMethod(value());
            } catch (const std::invalid_argument& e) {
                throw UsageError(std::string("--method: ") + e.what());
            }
        } else if (a == "--gpu-memory-limit") {
            o.gpuMemoryLimit = parseBytes(a, value());
        } else if (a == "--tile") {
            o.tile = parseTile(a, value());
        } else if (a == "--json") {
            o.json = true;
        } else if (!a.empty() && a.front() == '-' && a != "-") {
            throw UsageError("unknown option '" + a + "'");
        } else if (o.input.empty()) {
            o.input = a;
        } else {
            throw UsageError("more than one input given ('" + o.input + "' and '" + a + "')");
        }
    }
    flush();
    return o;
}

/// Where a run goes: the CPU, or a list of GPU ids (this build runs on the first of them).
struct DeviceChoice {
    bool cpu = true;
    std::vector<int> gpus;
    std::string label() const
    {
        if (cpu) {
            return "cpu";
        }
        std::string text = "gpu:";
        for (size_t i = 0; i < gpus.size(); ++i) {
            text += (i ? "," : "") + std::to_string(gpus[i]);
        }
        return text;
    }
};

/// Checks the --device text against the machine. `auto` is the GPUs when there are any, else
/// the CPU (with a note saying why). Throws UsageError for bad syntax, runtime_error for
/// GPUs that are not there.
DeviceChoice resolveDevice(const std::string& text, const gpu::DeviceSnapshot& snap, std::string& note)
{
    DeviceChoice choice;
    if (text == "cpu") {
        return choice;
    }
    auto allGpus = [&] {
        choice.cpu = false;
        for (const auto& d : snap.devices) {
            choice.gpus.push_back(d.id);
        }
    };
    if (text == "auto") {
        if (snap.hasGpu()) {
            allGpus();
        } else {
            note = "no GPU (" + snap.reason + "); ran on the CPU";
        }
        return choice;
    }
    std::vector<int> ids;
    if (text != "gpu" && text != "all") {
        if (text.rfind("gpu:", 0) != 0) {
            throw UsageError("--device expects auto, cpu, gpu, gpu:N[,M...] or all, got '" + text + "'");
        }
        std::stringstream list(text.substr(4));
        std::string id;
        while (std::getline(list, id, ',')) {
            if (id.empty() || id.size() > 4 || id.find_first_not_of("0123456789") != std::string::npos) {
                throw UsageError("--device: '" + text + "' is not a list of GPU numbers");
            }
            ids.push_back(std::stoi(id));
        }
        if (ids.empty()) {
            throw UsageError("--device: '" + text + "' names no GPU");
        }
    }
    if (!snap.hasGpu()) {
        throw std::runtime_error("--device " + text + ": no GPU is available (" + snap.reason +
                                 "); use --device cpu or auto");
    }
    if (ids.empty()) {
        allGpus();
        return choice;
    }
    for (int id : ids) {
        if (id >= static_cast<int>(snap.devices.size())) {
            throw std::runtime_error("--device " + text + ": there is no GPU " + std::to_string(id) + " (this machine has " +
                                     std::to_string(snap.devices.size()) + ")");
        }
    }
    choice.cpu = false;
    choice.gpus = ids;
    return choice;
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
        if (o.steps.empty()) {
            throw UsageError("nothing to apply: give --filter, --kernel or --preset");
        }
    } catch (const UsageError& e) {
        err << "tessera-cli apply: " << e.what() << "\n\n";
        printApplyUsage(err);
        return kExitUsage;
    }

    std::string note;
    DeviceChoice device;
    try {
        device = resolveDevice(o.device, gpu::enumerateDevices(), note);
    } catch (const UsageError& e) {
        err << "tessera-cli apply: " << e.what() << "\n";
        return kExitUsage;
    }

    filters::FilterChain chain;
    for (auto& s : o.steps) {
        if (o.border) {
            s.spec.border = *o.border;
        }
        if (o.borderValue) {
            s.spec.borderValue = *o.borderValue;
        }
        chain.steps.push_back(s.spec);
    }
    auto& last = chain.steps.back();
    if (o.scale) {
        last.scale = *o.scale;
    }
    if (o.offset) {
        last.offset = *o.offset;
    }
    if (o.depth) {
        last.depth = *o.depth;
    }

    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    refuseSameFile(o.input, o.output);
    const cv::Mat src = readImage(o.input);
    const auto t1 = Clock::now();
    cv::Mat dst;
    gpu::MultiRunReport gpuReport;
    std::string ranOn = "cpu";
    if (device.cpu) {
        dst = filters::applyCpu(src, chain);
    } else {
        // One GPU or several: the same tiled run, one slot per GPU.
        gpu::StreamedOptions so;
        for (const int id : device.gpus) {
            so.slots.push_back({id, o.gpuMemoryLimit, 1.0});
        }
        so.method = o.method;
        so.tileSize = o.tile;
        try {
            dst = gpu::runStreamed(src, chain, so, &gpuReport);
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(o.input + ": " + e.what());
        }
        ranOn = "gpu:";
        for (std::size_t i = 0; i < device.gpus.size(); ++i) {
            ranOn += (i ? "," : "") + std::to_string(device.gpus[i]);
        }
        if (gpuReport.cpuFallbackTiles > 0) {
            note = std::to_string(gpuReport.cpuFallbackTiles) + " tile(s) ran on the CPU path after GPU failures";
        }
        for (const auto& e : gpuReport.events) {
            note += (note.empty() ? "" : "; ") + e;
        }
    }
    const auto t2 = Clock::now();
    writeImage(o.output, dst);
    const auto t3 = Clock::now();
    auto ms = [](Clock::time_point a, Clock::time_point b) {
        return std::chrono::duration<double, std::milli>(b - a).count();
    };

    if (o.json) {
        json steps = json::array();
        for (size_t i = 0; i < o.steps.size(); ++i) {
            json d = o.steps[i].description;
            const auto& spec = chain.steps[i];
            d["kernel_size"] = {spec.kernel.width, spec.kernel.height};
            d["separable"] = spec.separable.has_value();
            d["border"] = filters::toString(spec.border);
            if (!device.cpu && i < gpuReport.stepMethods.size()) {
                d["method"] = gpu::toString(gpuReport.stepMethods[i]);
                d["plan"] = gpuReport.methods[i];
            }
            steps.push_back(d);
        }
        json doc = {{"input", o.input},
                    {"output", o.output},
                    {"width", src.cols},
                    {"height", src.rows},
                    {"format_in", describeFormat(src)},
                    {"format_out", describeFormat(dst)},
                    {"filters", steps},
                    {"border", filters::toString(chain.steps.front().border)},
                    {"device", ranOn},
                    {"threads", cv::getNumThreads()},
                    {"milliseconds", ms(t1, t2)},
                    {"read_milliseconds", ms(t0, t1)},
                    {"write_milliseconds", ms(t2, t3)}};
        if (!device.cpu) {
            double phase[4] = {0, 0, 0, 0};
            for (const auto& r : gpuReport.records) {
                phase[static_cast<int>(r.phase)] += r.durationUs() / 1000.0;
            }
            doc["gpu_kernel_milliseconds"] = phase[static_cast<int>(gpu::Phase::Kernel)];
            doc["gpu_upload_milliseconds"] = phase[static_cast<int>(gpu::Phase::Upload)];
            doc["gpu_download_milliseconds"] = phase[static_cast<int>(gpu::Phase::Download)];
            doc["tiles"] = gpuReport.tiles.size();
            doc["tile_plan"] = gpuReport.plan;
            json slots = json::array();
            for (const auto& s : gpuReport.slots) {
                slots.push_back({{"device", s.slot.name()}, {"tiles", s.tiles}, {"busy_milliseconds", s.busyMs},
                                 {"failure", s.failure}});
            }
            doc["slots"] = slots;
            doc["events"] = gpuReport.events;
            doc["cpu_fallback_tiles"] = gpuReport.cpuFallbackTiles;
        }
        if (!note.empty()) {
            doc["note"] = note;
        }
        out << doc.dump(2) << "\n";
    } else {
        out << o.output << ": " << src.cols << " x " << src.rows << " " << describeFormat(src)
            << " -> " << describeFormat(dst) << ", " << chain.steps.size() << " filter(s) on "
            << ranOn << " in "
            << ms(t1, t2) << " ms\n";
        if (!note.empty()) {
            err << "note: " << note << "\n";
        }
    }
    return kExitOk;
}

}  // namespace tessera::app
