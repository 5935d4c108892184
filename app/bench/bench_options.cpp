// SPDX-License-Identifier: Apache-2.0
#include "app/bench/bench_options.h"

#include "tessera/gpu/engine.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace tessera::app::bench {

namespace {

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, ',')) {
        if (!item.empty()) {
            out.push_back(item);
        }
    }
    return out;
}

int parseInt(const std::string& option, const std::string& text, int lo, int hi)
{
    int value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || value < lo || value > hi) {
        throw std::invalid_argument(option + ": expected an integer in " + std::to_string(lo) + ".." +
                                    std::to_string(hi) + ", got '" + text + "'");
    }
    return value;
}

void parseSize(const std::string& text, Options& o)
{
    const auto x = text.find_first_of("xX");
    if (x == std::string::npos) {
        o.width = o.height = parseInt("--size", text, 1, 65536);
    } else {
        o.width = parseInt("--size", text.substr(0, x), 1, 65536);
        o.height = parseInt("--size", text.substr(x + 1), 1, 65536);
    }
}

void parseMethods(const std::string& text, Options& o)
{
    static const std::vector<std::string> known{"auto", "direct", "separable", "fft", "naive"};
    o.methods.clear();
    for (const auto& m : splitList(text)) {
        if (m == "all") {
            o.methods = known;
            return;
        }
        if (std::find(known.begin(), known.end(), m) == known.end()) {
            throw std::invalid_argument("--method: unknown method '" + m +
                                        "' (expected auto, direct, separable, fft, naive or all)");
        }
        if (std::find(o.methods.begin(), o.methods.end(), m) == o.methods.end()) {
            o.methods.push_back(m);
        }
    }
    if (o.methods.empty()) {
        throw std::invalid_argument("--method: empty list");
    }
}

// --devices keeps its own list, GPU ids, "all" and "cpu" mixed ("0,2,cpu"): each item is one
// selection, a bare id standing for gpu:N.
values::DeviceSelection parseDevicesItem(const std::string& item)
{
    const bool id = !item.empty() && std::ranges::all_of(item, [](char c) { return c >= '0' && c <= '9'; });
    try {
        return values::parseDeviceSelection(id ? "gpu:" + item : item, kBenchDevices);
    } catch (const values::DeviceSelectionError&) {
        throw std::invalid_argument("--devices: expected GPU ids, 'all' or 'cpu', got '" + item + "'");
    }
}

void readOption(ArgumentReader& in, Options& o)
{
    if (!in.isOption()) {
        throw std::invalid_argument("unexpected argument '" + in.current() + "' (see --help)");
    }
    const std::string arg = in.current();
    const auto value = [&in] { return in.value(); };
    if (arg == "-h" || arg == "--help") {
        o.help = true;
    } else if (arg == "--version") {
        o.version = true;
    } else if (arg == "--devices") {
        o.devices.clear();
        for (const std::string& item : splitList(value())) {
            o.devices.push_back(parseDevicesItem(item));
        }
        if (o.devices.empty()) {
            throw std::invalid_argument("--devices: empty list");
        }
    } else if (arg == "--device") {
        const values::SelectionContext context{"--device", kBenchDevices.accepted | values::DeviceForm::AllGpus};
        const values::DeviceSelection device = values::parseDeviceSelection(value(), context);
        // "gpu" is the bench's default device here, not every GPU as for apply.
        o.devices = {device.kind() == values::DeviceSelection::Kind::AllGpus
                         ? values::DeviceSelection::gpu(values::DeviceId{0})
                         : device};
    } else if (arg == "--size") {
        parseSize(value(), o);
    } else if (arg == "--cases") {
        o.cases = splitList(value());
        if (o.cases.empty()) {
            throw std::invalid_argument("--cases: empty list");
        }
    } else if (arg == "--runs") {
        o.runs = parseInt(arg, value(), 1, 100000);
    } else if (arg == "--warmup") {
        o.warmup = parseInt(arg, value(), 0, 1000);
    } else if (arg == "--method" || arg == "--methods") {
        parseMethods(value(), o);
    } else if (arg == "--variant" || arg == "--variants") {
        o.variants.clear();
        for (const std::string& name : splitList(value())) {
            try {
                gpu::parseKernelVariant(name);
            } catch (const std::exception& e) {
                throw std::invalid_argument(std::string("--variant: ") + e.what());
            }
            o.variants.push_back(name);
        }
        if (o.variants.empty()) {
            throw std::invalid_argument("--variant: empty list");
        }
    } else if (arg == "--seed") {
        o.seed = static_cast<unsigned>(parseInt(arg, value(), 0, 2147483647));
    } else if (arg == "--batch-files") {
        o.batchFiles = parseInt(arg, value(), 1, 100000);
    } else if (arg == "--batch-dir") {
        o.batchDir = value();
    } else if (arg == "--batch-mp") {
        const std::string text = value();
        char* end = nullptr;
        const double mp = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0' || !(mp >= 0.01 && mp <= 200.0)) {
            throw std::invalid_argument("--batch-mp expects megapixels from 0.01 to 200, got '" + text + "'");
        }
        o.batchMegapixels = mp;
    } else if (arg == "--json-only") {
        o.jsonOnly = true;
    } else if (arg == "--no-check") {
        o.check = false;
    }
}

constexpr std::array kOptions{
    OptionSpec{"--help", "-h"},
    OptionSpec{"--version"},
    OptionSpec{"--devices", {}, ValueKind::Choice, "all cpu 0"},
    OptionSpec{"--device", {}, ValueKind::Choice, "all cpu gpu"},
    OptionSpec{"--size", {}, ValueKind::Text},
    OptionSpec{
        "--cases", {}, ValueKind::Text, "all small large custom separable f32c1 rgba8 preview multi extra batch"},
    OptionSpec{"--runs", {}, ValueKind::Text},
    OptionSpec{"--warmup", {}, ValueKind::Text},
    OptionSpec{"--method", {}, ValueKind::Text, "auto direct separable fft naive all"},
    OptionSpec{"--methods", {}, ValueKind::Text, "auto direct separable fft naive all"},
    OptionSpec{"--variant", {}, ValueKind::Text},
    OptionSpec{"--variants", {}, ValueKind::Text},
    OptionSpec{"--seed", {}, ValueKind::Text},
    OptionSpec{"--batch-files", {}, ValueKind::Text},
    OptionSpec{"--batch-dir", {}, ValueKind::Directory},
    OptionSpec{"--batch-mp", {}, ValueKind::Text},
    OptionSpec{"--json-only"},
    OptionSpec{"--no-check"},
};

}  // namespace

std::span<const OptionSpec> optionTable()
{
    return kOptions;
}

Options parseOptions(int argc, char** argv)
{
    Options o;
    const std::vector<std::string> args(argv + 1, argv + argc);
    // The shared reader: --opt=value, "--", -v and -q as tessera-cli spells them; its
    // UsageError becomes this parser's std::invalid_argument.
    try {
        ArgumentReader in(args, {kOptions}, &o.verbosity);
        while (in.next()) {
            readOption(in, o);
        }
    } catch (const UsageError& e) {
        throw std::invalid_argument(e.what());
    }
    return o;
}

std::string usage()
{
    return R"(Usage: tessera-bench [options]

Times Tessera's GPU convolution on the cases of docs/performance.md with the image resident on
the device, next to a naive one-thread-per-pixel kernel. Prints one JSON object per line on stdout
(a "copy" line per device first: the measured device-to-device copy ceiling), then a table.

Options:
  --devices LIST   GPU ids separated by commas, "all", or "cpu" (OpenCV path, wall clock);
                   mixable, e.g. "0,cpu". Each case runs on each device separately. Default 0.
  --device D       the same as the CLI spells it: all, cpu, gpu, gpu:0,2
  --size N|WxH     image size (default 8192). Targets apply at 8192x8192 only.
  --cases LIST     case names or groups, separated by commas (default all):
                     groups: all, small (3x3), large (15x15, 31x31), custom, separable,
                             f32c1, rgba8; preview (Engine latency of a 1920x1080
                             view, and of a 24 MP photo at fit zoom 1/4 with a
                             Gaussian and a sharpen; not in all); multi (resident RGBA8 31x31 and 3x3
                             on 1, 2, 4 and all of --devices' GPUs with the speed-up,
                             and host-to-host RGBA8 3x3 next to a pinned copy; not in all);
                             extra (rgba8-gaussian3, -5, -15, f32c1-gaussian3,
                             -5, -15, rgba8-custom5, -9, f32c1-custom7, -9, -11,
                             -21, -63, f32c4-custom15, u16c3-custom15,
                             f32c3-custom31, f32c4-custom31: no target, not
                             in all); batch (not in all: the batch of
                             --batch-files 12 MP JPEGs of quality 92 and 24 MP
                             16-bit TIFFs against its codec floor, decode and
                             encode alone on the same files and workers, with
                             a Gaussian of sigma 3 on each of --devices)
                     cases:  f32c1-custom3 f32c1-custom15 f32c1-custom31
                             rgba8-custom3 rgba8-custom15 rgba8-custom31
                             rgba8-gaussian31 f32c1-gaussian31
  --method LIST    auto, direct, separable, fft, naive or all (default all); a method that
                   does not apply to a case (separable on a full-rank kernel) is skipped
  --variant LIST   also time these kernel variants, each planned by name (for example
                   fft-rows,fft to set the FFT method's two forms side by side); a
                   variant that cannot run a case gives a line with its reason
  --runs N         timed runs per line (default 20), after --warmup N untimed (default 3)
  --seed N         seed of the random images and kernels (default 20261129)
  --no-check       skip the comparison with the CPU path
  --batch-files N  files of each set in the batch case (default 64)
  --batch-mp X     megapixels of the batch case's JPEGs (default 12; its TIFFs: 2X)
  --batch-dir DIR  make the batch case's files in DIR (sets jpeg/ and tiff/) and keep them
  --json-only      no table
  -v, --verbose    print every diagnostic (TESSERA_LOG=all) on stderr
  -q, --quiet      no progress lines on stderr; failures still show
  --version        print the version and exit
  -h, --help       this text

A long option takes its value as the next argument or after '=' (--cases=small).
Exit status: 0 done, 1 no usable GPU or a failure, 2 bad arguments, 4 a result differed
from the CPU path by more than its tolerance.
)";
}

}  // namespace tessera::app::bench
