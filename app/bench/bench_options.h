// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/cli/cli_arguments.h"
#include "values/device_selection.h"

#include <span>
#include <string>
#include <vector>

namespace tessera::app::bench {

/// Where one series of runs happens: a CUDA device id, or the OpenCV CPU path.
struct Target {
    bool cpu = false;
    values::DeviceId device;
    bool operator==(const Target&) const = default;
};

/// What tessera-bench's --devices and --device take: one device or every GPU, each timed alone.
inline constexpr values::SelectionContext kBenchDevices{"--devices",
                                                        values::DeviceForm::Cpu | values::DeviceForm::OneGpu |
                                                            values::DeviceForm::GpuList | values::DeviceForm::All};

/// Parsed command line of tessera-bench.
struct Options {
    /// Each resolved on its own, every GPU it names timed alone; GPU 0 unless told.
    std::vector<values::DeviceSelection> devices{values::DeviceSelection::gpu(values::DeviceId{0})};
    int width = 8192;
    int height = 8192;
    std::vector<std::string> cases{"all"};
    std::vector<std::string> methods{"auto", "direct", "separable", "fft", "naive"};
    /// Kernel variants to time as well, each planned by name (none unless asked for).
    std::vector<std::string> variants;
    int runs = 20;
    int warmup = 3;
    unsigned seed = 20261129;
    int batchFiles = 64;            ///< files of each set in the batch case
    double batchMegapixels = 12.0;  ///< the batch case's JPEGs; its TIFFs are twice this
    std::string batchDir;           ///< where the batch case's files are made and kept; empty: a temporary folder
    bool jsonOnly = false;
    bool check = true;
    bool help = false;
    bool version = false;
    Verbosity verbosity = Verbosity::Normal;  ///< -v: every diagnostic; -q: no progress lines

    bool quiet() const { return verbosity == Verbosity::Quiet; }
};

/// tessera-bench's options, as its reader takes them.
std::span<const OptionSpec> optionTable();

/// Parses argv (--opt=value as --opt value; -v and -q anywhere); throws std::invalid_argument
/// with a message naming the bad option or value.
Options parseOptions(int argc, char** argv);

/// The --help text.
std::string usage();

}  // namespace tessera::app::bench
