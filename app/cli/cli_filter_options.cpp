// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli_filter_options.h"

#include "app/io/encode_choice.h"
#include "filters/factories.h"
#include "filters/preset_io.h"
#include "filters/registry.h"
#include "files/input_file.h"

#include <array>
#include <cmath>
#include <cstdint>

namespace tessera::app {

namespace {

using nlohmann::json;

// Kernel files are small text, read under the input rule: a FIFO would block and a device
// never end, so only regular files up to this size are read.
constexpr std::uintmax_t kMaxKernelFileBytes = std::uintmax_t{4} << 20;

std::string readTextFile(const std::string& path)
{
    return files::readInputFile(path, {"a kernel file", kMaxKernelFileBytes, false});
}

CliStep kernelStep(const std::string& arg)
{
    if (!arg.empty() && arg.front() == '@') {
        const std::string path = arg.substr(1);
        const std::string text = readTextFile(path);
        const auto first = text.find_first_not_of(" \t\r\n");
        // What the file says is part of the command: a kernel that does not parse is a usage
        // error (2) as an inline one is; a file that cannot be read stays a file error (1).
        if (first != std::string::npos && text[first] == '{') {
            filters::Preset preset;
            try {
                preset = filters::parsePreset(text, path, filters::builtinRegistry());
            } catch (const filters::PresetError& e) {
                throw UsageError(std::string("--kernel @") + e.what());
            }
            if (preset.steps.size() != 1) {
                throw UsageError("--kernel @" + path + ": expects a single kernel, the file has " +
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
            return {filters::makeCustom(filters::parseInlineKernel(rows)), {{"id", "custom"}, {"kernel_file", path}}};
        } catch (const std::invalid_argument& e) {
            throw UsageError("--kernel @" + path + ": " + e.what());
        }
    }
    try {
        auto spec = filters::makeCustom(filters::parseInlineKernel(arg));
        return {spec, {{"id", "custom"}, {"kernel", arg}}};
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--kernel: ") + e.what());
    }
}

}  // namespace

const filters::FilterDesc& filterOption(const std::string& id, const filters::FilterRegistry& registry)
{
    const auto* desc = registry.find(id);
    if (desc == nullptr) {
        throw UsageError("unknown filter '" + id + "' (see 'tessera-cli filters')");
    }
    return *desc;
}

std::pair<std::string, std::string> readParamOption(const filters::FilterDesc& desc, const std::string& kv,
                                                    filters::ParamValues& values)
{
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
        throw UsageError("--param expects KEY=VALUE, got '" + kv + "'");
    }
    const std::string key = kv.substr(0, eq);
    try {
        values.values[key] = desc.parseValue(key, kv.substr(eq + 1));
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    return {key, kv.substr(eq + 1)};
}

filters::FilterChoice filterChoiceOption(const std::string& id, const std::vector<std::string>& params,
                                         const filters::FilterRegistry& registry)
{
    const filters::FilterDesc& desc = filterOption(id, registry);
    filters::FilterChoice choice = filters::defaultChoice(desc);
    for (const std::string& kv : params) {
        readParamOption(desc, kv, choice.values);
    }
    return choice;
}

namespace {

// The completion and the reader take these; consume() reads each of them.
constexpr std::array kFilterOptions{
    OptionSpec{"--filter", {}, ValueKind::FilterId},
    OptionSpec{"--param", {}, ValueKind::FilterParam},
    OptionSpec{"--kernel", {}, ValueKind::Text},
    OptionSpec{"--preset", {}, ValueKind::File},
    OptionSpec{"--border", {}, ValueKind::Choice, "reflect101 reflect replicate constant wrap"},
    OptionSpec{"--border-value", {}, ValueKind::Text},
    OptionSpec{"--scale", {}, ValueKind::Text},
    OptionSpec{"--offset", {}, ValueKind::Text},
    OptionSpec{"--depth", {}, ValueKind::Choice, "same keep u8 u16 f32"},
    OptionSpec{"--device", {}, ValueKind::Choice, "auto cpu gpu all"},
    OptionSpec{"--method", {}, ValueKind::Choice, "auto direct separable fft"},
    OptionSpec{"--gpu-memory-limit", {}, ValueKind::Text},
    OptionSpec{"--tile", {}, ValueKind::Text},
};

}  // namespace

std::span<const OptionSpec> filterOptionTable()
{
    return kFilterOptions;
}

struct FilterOptionParser::PendingFilter {
    const filters::FilterDesc* desc = nullptr;
    filters::ParamValues values;
    json params = json::object();
};

const char* const kGpuOptionsHelp = "  --gpu-memory-limit BYTES  most device memory each GPU may use (suffix K, M, G:\n"
                                    "                     binary units); larger images stream through in tiles\n"
                                    "  --tile WxH         GPU tile size (default: chosen from the memory)\n";

const char* const kEncodeOptionsHelp =
    "  --quality Q        JPEG quality 1-100 (default 92); for WebP a quality makes it lossy,\n"
    "                     'lossless' (the default) keeps every value\n"
    "  --compression C    PNG zlib level 0-9 (default 6), or TIFF none, lzw (default), deflate\n";

bool readEncodeOption(ArgumentReader& in, codec::EncodeOptions& options)
{
    const std::string& a = in.current();
    if (a != "--quality" && a != "--compression") {
        return false;
    }
    const std::string text = in.value();
    try {
        if (a == "--quality") {
            setQuality(options, text);
        } else {
            setCompression(options, text);
        }
    } catch (const std::invalid_argument& e) {
        throw UsageError(a + ": " + e.what());
    }
    return true;
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
    const double unit = suffix.empty()                     ? 1.0
                        : (suffix == "K" || suffix == "k") ? 1024.0
                        : (suffix == "M" || suffix == "m") ? 1024.0 * 1024.0
                        : (suffix == "G" || suffix == "g") ? 1024.0 * 1024.0 * 1024.0
                                                           : 0.0;
    if (used == 0 || unit == 0.0 || !(v >= 1.0) || v * unit > 1e15) {
        throw UsageError(option + " expects a byte count such as 268435456 or 256M, got '" + text + "'");
    }
    return static_cast<std::size_t>(v * unit);
}

values::TileSize parseTileSize(const std::string& option, const std::string& text)
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
            if (!std::isfinite(v)) {
                throw UsageError(option + " expects a finite number, got '" + text + "'");
            }
            return v;
        }
    } catch (const UsageError&) {
        throw;
    } catch (const std::out_of_range&) {
        throw UsageError(option + " expects a finite number, got '" + text + "'");
    } catch (const std::exception&) {
    }
    throw UsageError(option + " expects a number, got '" + text + "'");
}

void FilterOptionParser::flush()
{
    if (!pending_) {
        return;
    }
    CliStep s;
    try {
        s.spec = pending_->desc->build(pending_->values);
    } catch (const std::invalid_argument& e) {
        throw UsageError("--filter " + pending_->desc->id + ": " + e.what());
    }
    s.description = {{"id", pending_->desc->id}, {"params", pending_->params}};
    options_.steps.push_back(std::move(s));
    pending_.reset();
}

bool FilterOptionParser::consume(ArgumentReader& in)
{
    if (!in.isOption()) {
        return false;
    }
    const auto& reg = filters::builtinRegistry();
    const std::string& a = in.current();
    const auto value = [&in]() { return in.value(); };
    FilterOptions& o = options_;
    if (a == "--filter") {
        flush();
        const filters::FilterDesc& desc = filterOption(value(), reg);
        pending_ = std::make_shared<PendingFilter>(PendingFilter{&desc, desc.defaults(), json::object()});
    } else if (a == "--param") {
        const std::string kv = value();
        if (!pending_) {
            throw UsageError("--param " + kv + " must follow the --filter it belongs to");
        }
        const auto [key, text] = readParamOption(*pending_->desc, kv, pending_->values);
        pending_->params[key] = text;
    } else if (a == "--kernel") {
        flush();
        o.steps.push_back(kernelStep(value()));
    } else if (a == "--preset") {
        flush();
        const std::string path = value();
        if (path.empty()) {  // "--preset=" or --preset ""
            throw UsageError("--preset needs a file name");
        }
        // As with --kernel @FILE: a file that cannot be read is a file error (1), contents that
        // do not make a chain are a usage error (2).
        const std::string text = filters::readPresetFile(path);
        filters::Preset preset;
        try {
            preset = filters::parsePreset(text, path, reg);
        } catch (const filters::PresetError& e) {
            throw UsageError(std::string("--preset ") + e.what());
        }
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
            const std::string text = value();
            o.depth = filters::parseOutputDepth(text == "keep" ? std::string("same") : text);
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--depth: ") + e.what());
        }
    } else if (a == "--device") {
        o.device = value();
    } else if (a == "--method") {
        try {
            o.method = values::parseMethod(value());
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--method: ") + e.what());
        }
    } else if (a == "--gpu-memory-limit") {
        o.gpuMemoryLimit = parseBytes(a, value());
    } else if (a == "--tile") {
        o.tile = parseTileSize(a, value());
    } else {
        return false;
    }
    return true;
}

FilterOptions FilterOptionParser::finish()
{
    flush();
    if (options_.steps.size() > filters::kMaxChainSteps) {
        throw UsageError(std::to_string(options_.steps.size()) + " filters in the chain; at most " +
                         std::to_string(filters::kMaxChainSteps) + " are allowed");
    }
    return options_;
}

filters::FilterChain chainFromOptions(const FilterOptions& options)
{
    filters::FilterChain chain;
    for (const auto& s : options.steps) {
        chain.steps.push_back(s.spec);
    }
    filters::applyOverrides(chain, {options.border, options.borderValue, options.scale, options.offset, options.depth});
    return chain;
}

void addFilterFiles(const FilterOptions& options, FileRoles& roles)
{
    for (const CliStep& step : options.steps) {
        if (const auto preset = step.description.find("preset"); preset != step.description.end()) {
            roles.reads(preset->get<std::string>(), "the preset");
        }
        if (const auto kernel = step.description.find("kernel_file"); kernel != step.description.end()) {
            roles.reads(kernel->get<std::string>(), "the kernel file");
        }
    }
}

FilterOptions readCommandLine(const std::vector<std::string>& args, std::span<const OptionSpec> ownOptions,
                              Verbosity& verbosity, const std::function<bool(ArgumentReader&)>& own)
{
    FilterOptionParser shared;
    ArgumentReader in(args, {ownOptions, filterOptionTable()}, &verbosity);
    while (in.next()) {
        if (!shared.consume(in) && !own(in)) {
            // In a table but read by no one: the table and the parser disagree.
            throw std::logic_error("option " + in.current() + " is in a table but not read");
        }
    }
    return shared.finish();
}

std::string sideFile(const std::string& option, std::string path)
{
    if (path == "-") {
        throw UsageError(option + " -: this option writes a file; name one (/dev/stdout is standard output, "
                                  "./- a file named '-')");
    }
    return path;
}

void takeOnlyInput(std::string& input, const std::string& argument)
{
    if (!input.empty()) {
        throw UsageError("more than one input given ('" + input + "' and '" + argument + "')");
    }
    input = argument;
}

}  // namespace tessera::app
