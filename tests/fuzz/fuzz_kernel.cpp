// SPDX-License-Identifier: Apache-2.0
// Custom kernels: the inline text of --kernel SPEC and the file of --kernel @FILE (text rows or
// a JSON kernel), through the CLI's own option parser. Only the documented exceptions may come
// out; a kernel that parses has finite weights and a size matching its weight count.
#include "fuzz_support.h"

#include "app/cli/cli_filter_options.h"
#include "filters/filter_spec.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

void checkSteps(const tessera::app::FilterOptions& options)
{
    for (const auto& step : options.steps) {
        const auto& k = step.spec.kernel;
        if (k.width <= 0 || k.height <= 0 || k.weights.size() != static_cast<std::size_t>(k.width) * k.height) {
            std::abort();
        }
        for (const double w : k.weights) {
            if (!std::isfinite(w)) {
                std::abort();
            }
        }
    }
}

void parseKernelOption(const std::string& value)
{
    tessera::app::FilterOptionParser parser;
    const std::vector<std::string> args{"--kernel", value};
    tessera::app::ArgumentReader in(args, {tessera::app::filterOptionTable()});
    try {
        if (!in.next() || !parser.consume(in)) {
            std::abort();
        }
        checkSteps(parser.finish());
    } catch (const tessera::app::UsageError&) {
    } catch (const std::runtime_error&) {  // a kernel file that cannot be read or parsed
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const tessera::filters::Kernel2D k = tessera::filters::parseInlineKernel(text);
        if (k.weights.size() != static_cast<std::size_t>(k.width) * k.height) {
            std::abort();
        }
    } catch (const std::invalid_argument&) {
    }
    if (text.empty() || text.front() != '@') {
        parseKernelOption(text);
    }
    parseKernelOption("@" + tessera::fuzz::writeScratch("kernel.txt", data, size));
    return 0;
}
