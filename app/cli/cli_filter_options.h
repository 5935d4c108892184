// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/cli/cli_arguments.h"
#include "app/io/codec/codec.h"
#include "app/io/file_roles.h"
#include "filters/filter_spec.h"
#include "filters/filter_stack_model.h"
#include "filters/registry.h"
#include "values/geometry.h"
#include "values/method.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// The filter, chain and device options that `apply`, `batch` and the GUI share; app/ sources only.
namespace tessera::app {

/// One filter of the chain with how it was given (id and parameters as typed, for --json).
struct CliStep {
    filters::FilterSpec spec;
    nlohmann::json description;
};

/// Everything the shared options set.
struct FilterOptions {
    std::vector<CliStep> steps;
    std::optional<filters::Border> border;
    std::optional<double> borderValue;
    std::optional<double> scale;
    std::optional<double> offset;
    std::optional<filters::OutputDepth> depth;
    std::string device = "auto";
    values::Method method = values::Method::Auto;
    std::size_t gpuMemoryLimit = 0;        ///< bytes each GPU may use; 0: from its free memory
    std::optional<values::TileSize> tile;  ///< GPU tile size; empty: chosen from the memory
};

/// Reads --filter/--param, --kernel, --preset, --border, --border-value, --scale, --offset,
/// --depth (same or keep, u8, u16, f32), --device, --method, --gpu-memory-limit and --tile
/// from an argument list.
class FilterOptionParser {
public:
    /// When the reader's current argument is one of the shared options, reads it and its value
    /// and returns true; otherwise returns false. Throws UsageError for a bad value and
    /// std::runtime_error for a kernel or preset file that cannot be read.
    bool consume(ArgumentReader& in);
    /// The options read so far, the last --filter included. Throws UsageError as consume().
    FilterOptions finish();

private:
    struct PendingFilter;
    void flush();

    FilterOptions options_;
    std::shared_ptr<PendingFilter> pending_;
};

/// The chain the options give: border and border value on every step, scale, offset and depth
/// on the last. options.steps must not be empty.
filters::FilterChain chainFromOptions(const FilterOptions& options);

/// The filter --filter id names; throws UsageError for an id registry does not know.
const filters::FilterDesc& filterOption(const std::string& id, const filters::FilterRegistry& registry);

/// Reads one --param KEY=VALUE of desc into values and returns the key and the value as typed;
/// throws UsageError for a malformed pair, an unknown key or a bad value.
std::pair<std::string, std::string> readParamOption(const filters::FilterDesc& desc, const std::string& kv,
                                                    filters::ParamValues& values);

/// The GUI's --filter id with its --param values as a stack entry's choice, read as the CLI reads
/// them but not built, so that a combination the filter refuses reaches the window as a notice.
/// Throws UsageError as filterOption() and readParamOption().
filters::FilterChoice filterChoiceOption(const std::string& id, const std::vector<std::string>& params,
                                         const filters::FilterRegistry& registry);

/// A byte count such as 268435456 or 256M (K, M, G: binary units); throws UsageError.
std::size_t parseBytes(const std::string& option, const std::string& text);

/// WIDTHxHEIGHT in pixels, both positive; throws UsageError.
values::TileSize parseTileSize(const std::string& option, const std::string& text);

/// The usage lines of --gpu-memory-limit and --tile.
extern const char* const kGpuOptionsHelp;

/// When in's current argument is --quality or --compression, reads its value into options and
/// returns true; otherwise returns false. Throws UsageError for a value the option refuses.
bool readEncodeOption(ArgumentReader& in, codec::EncodeOptions& options);
/// The usage lines of --quality and --compression.
extern const char* const kEncodeOptionsHelp;

/// Reads a whole number or a decimal; throws UsageError naming option otherwise.
double parseNumber(const std::string& option, const std::string& text);

/// The shared options FilterOptionParser reads, as the reader and the shell completion see them.
std::span<const OptionSpec> filterOptionTable();

/// Reads a sub-command's arguments against ownOptions and filterOptionTable(): the shared options
/// go to a FilterOptionParser, every other argument to `own`, called with the reader on it; `own`
/// reads the positional arguments and the command's own options (with their values) and returns
/// true. An option of neither table is a UsageError; -v and -q go to verbosity. Throws
/// std::logic_error when `own` returns false for an option of ownOptions. Returns the shared
/// options read.
FilterOptions readCommandLine(const std::vector<std::string>& args, std::span<const OptionSpec> ownOptions,
                              Verbosity& verbosity, const std::function<bool(ArgumentReader&)>& own);

/// The file a side-file option (--trace, --report, --csv) names; throws UsageError for "-", which
/// names a standard stream everywhere else and no file here (/dev/stdout is standard output, ./-
/// a file named "-").
std::string sideFile(const std::string& option, std::string path);

/// Keeps the one input a command takes: throws UsageError when one was given already.
void takeOnlyInput(std::string& input, const std::string& argument);

/// Adds the files the filter options read (--preset FILE, --kernel @FILE) to roles.
void addFilterFiles(const FilterOptions& options, FileRoles& roles);

}  // namespace tessera::app
