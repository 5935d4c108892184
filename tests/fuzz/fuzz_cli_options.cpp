// SPDX-License-Identifier: Apache-2.0
// The filter, chain and device options apply, batch and the GUI share. The input is split at
// NUL bytes into an argument list and parsed as the commands do; parsing only: values that
// name files (--preset FILE, --kernel @FILE, and their --opt=value forms) are dropped, so no
// file is read or written and no image is filtered (fuzz_preset and fuzz_kernel cover those
// files).
#include "fuzz_support.h"

#include "app/cli/cli_filter_options.h"
#include "values/device_selection.h"

#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::vector<std::string> raw = tessera::fuzz::splitAtNul(data, size);
    // Dropping a pair can bring two others side by side ("--kernel --preset X @F" leaves
    // "--kernel @F"), so each argument is judged against the list kept so far: what reaches the
    // parser has no "--preset" with a value after it and no "--kernel" before an "@" value. The
    // joined forms ("--preset=F", "--kernel=@F") name a file in one argument and are dropped alone.
    std::vector<std::string> args;
    for (const std::string& a : raw) {
        if (a.starts_with("--preset=") || a.starts_with("--kernel=@")) {
            continue;
        }
        const bool namesFile = !args.empty() && (args.back() == "--preset" ||
                                                 (args.back() == "--kernel" && !a.empty() && a.front() == '@'));
        if (namesFile) {
            args.pop_back();
            continue;
        }
        args.push_back(a);
    }
    tessera::app::FilterOptionParser parser;
    tessera::app::FilterOptions options;
    try {
        // The reader also walks "--" and positional arguments, as every sub-command's loop does;
        // what the shared parser does not take is the sub-command's own.
        tessera::app::ArgumentReader in(args, {tessera::app::filterOptionTable()});
        while (in.next()) {
            parser.consume(in);
        }
        options = parser.finish();
    } catch (const tessera::app::UsageError&) {
        return 0;
    }
    if (options.steps.size() > tessera::filters::kMaxChainSteps) {
        std::abort();
    }
    if (!options.steps.empty()) {
        const tessera::filters::FilterChain chain = tessera::app::chainFromOptions(options);
        if (chain.steps.size() != options.steps.size()) {
            std::abort();
        }
    }
    try {
        tessera::values::parseDeviceSelection(options.device, tessera::values::kDeviceOption);
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
