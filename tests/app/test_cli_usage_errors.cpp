// SPDX-License-Identifier: Apache-2.0
// Exit code 2 for every usage error of the three programs, terminals refused as image streams,
// and option tables that the parsers and the completion agree on.
#include "cli_manners_support.h"

namespace tessera::app {
namespace {

using namespace manners;

struct UsageCase {
    std::string program;  ///< kCli, kBench or kGui
    std::string args;
    int code;
    std::string words;  ///< on stderr
};

/// Every usage error of the three programs, with the words its message must hold; `dir` holds
/// the output names (none may be created) and an existing report.
std::vector<UsageCase> usageCases(const TempFolder& dir)
{
    const std::string in = q(kCamera);
    const std::string out = q(dir.file("o.png"));
    const std::string folder = q(dir.file("outdir"));
    const std::string report = q(dir.file("r.json"));
    return {
        // the dispatcher
        {kCli, "", 2, "Usage: tessera-cli"},
        {kCli, "frobnicate", 2, "unknown command 'frobnicate'"},
        {kCli, "--frob", 2, "unknown option '--frob'"},
        {kCli, "-v", 2, "Usage: tessera-cli"},
        {kCli, "help frob", 2, "unknown command 'frob'"},
        {kCli, "help apply batch", 2, "help takes one command"},
        {kCli, "completion", 2, "give the shell"},
        {kCli, "completion zsh", 2, "no completion for 'zsh'"},
        {kCli, "completion bash --frob", 2, "unknown option '--frob'"},
        // filters, devices
        {kCli, "filters --frob", 2, "unknown option '--frob'"},
        {kCli, "filters extra", 2, "unexpected argument 'extra'"},
        {kCli, "devices --json=1", 2, "--json takes no value"},
        {kCli, "devices --verbose=1", 2, "--verbose takes no value"},
        // apply
        {kCli, "apply " + in + " -o " + q(dir.file("o.gif")) + " --filter box", 2, "unsupported output format '.gif'"},
        {kCli, "apply " + in + " -o " + out + " --preset=", 2, "--preset needs a file name"},
        {kCli, "apply " + in + " -o " + q(dir.file("noext")) + " --filter box", 2, "unsupported output format"},
        {kCli, "apply " + in + " -o " + out + " --format gif --filter box", 2, "unknown output format 'gif'"},
        {kCli, "apply " + in + " -o " + out + " --format jpg --filter box", 2, "--format jpg asks for JPEG"},
        {kCli, "apply " + in + " -o - --filter box", 2, "-o - (standard output) needs --format"},
        {kCli, "apply " + in + " -o - --format png --json --filter box", 2, "--json and -o - both"},
        {kCli, "apply " + in + " -o " + q(dir.file("o.jpg")) + " --filter box --depth f32", 2, "--depth f32: JPEG"},
        {kCli, "apply " + in + " -o " + out + " --filter box --quality 0", 2, "--quality"},
        {kCli, "apply " + in + " -o " + out + " --filter box --compression 12", 2, "--compression"},
        {kCli, "apply " + in + " -o " + out + " --filter box --trace", 2, "--trace needs a value"},
        {kCli, "apply " + in + " -o " + out + " --filter box --trace -", 2, "--trace -: this option writes a file"},
        {kCli, "apply " + in + " -o " + out + " --filter box --tile 0x5", 2, "--tile expects"},
        {kCli, "apply " + in + " -o " + out + " --filter box --gpu-memory-limit lots", 2, "--gpu-memory-limit"},
        {kCli, "apply " + in + " -o " + out + " --filter box --json=1", 2, "--json takes no value"},
        {kCli, "apply " + in + " -o " + out + " --filter=box --param=bogus=1", 2, "bogus"},
        {kCli, "apply " + in + " -o " + out + " --filter box --border-value x", 2, "--border-value expects a number"},
        {kCli, "apply " + in + " -o " + in + " --filter box", 2, "Nothing was written"},
        // batch
        {kCli, "batch " + in + " --filter box", 2, "no output folder given"},
        {kCli, "batch -o " + folder + " --filter box", 2, "no input given"},
        {kCli, "batch " + in + " -o " + folder, 2, "nothing to apply"},
        {kCli, "batch " + in + " -o " + folder + " --filter box --policy maybe", 2, "--policy"},
        {kCli, "batch " + in + " -o " + folder + " --filter box --jobs 0", 2, "--jobs expects"},
        {kCli, "batch " + in + " -o " + folder + " --filter box --jpeg-decoder tpu", 2, "--jpeg-decoder expects"},
        {kCli, "batch " + in + " -o " + folder + " --filter box --shard 3/2", 2, "shard"},
        {kCli, "batch " + in + " -o " + folder + " --filter box --format gif", 2, "gif"},
        {kCli, "batch " + in + " -o " + folder + " --filter box --files-from - --files-from -", 2, "given twice"},
        {kCli, "batch - -o " + folder + " --filter box", 2, "is no input of batch"},
        {kCli, "batch " + in + " -o - --filter box", 2, "batch writes its outputs into a folder"},
        {kCli, "batch " + in + " -o " + folder + " --filter box --report=-", 2, "--report -: this option writes"},
        {kCli, "batch " + in + " -o " + folder + " --filter box --csv -", 2, "--csv -: this option writes"},
        {kCli, "batch " + in + " -o " + folder + " --filter box --recursive=yes", 2, "--recursive takes no value"},
        {kCli, "batch " + in + " -o " + folder + " --filter box --frob", 2, "unknown option '--frob'"},
        // bench
        {kCli, "bench", 2, "no input image given"},
        {kCli, "bench " + in, 2, "nothing to run"},
        {kCli, "bench " + in + " --filter box --devices frob", 2, "--devices"},
        {kCli, "bench " + in + " --filter box --runs 0", 2, "--runs needs a whole number"},
        {kCli, "bench " + in + " --filter box --warmup=-1", 2, "--warmup needs a whole number"},
        {kCli, "bench " + in + " " + in + " --filter box", 2, "more than one input"},
        // batch-report
        {kCli, "batch-report", 2, "give a sub-command"},
        {kCli, "batch-report frob", 2, "unknown sub-command 'frob'"},
        {kCli, "batch-report merge " + report, 2, "no merged report given"},
        {kCli, "batch-report merge -o " + q(dir.file("m.json")), 2, "no report to merge given"},
        {kCli, "batch-report merge -o " + q(dir.file("m.json")) + " --frob " + report, 2, "unknown option '--frob'"},
        {kCli, "batch-report merge -o " + report + " " + report, 2, "Nothing was written"},
        // tessera-bench
        {kBench, "--frob", 2, "unknown option '--frob'"},
        {kBench, "extra", 2, "unexpected argument 'extra'"},
        {kBench, "--runs", 2, "--runs needs a value"},
        {kBench, "--runs=0", 2, "--runs: expected an integer"},
        {kBench, "--devices frob", 2, "--devices"},
        {kBench, "--method magic", 2, "unknown method 'magic'"},
        {kBench, "--json-only=1", 2, "--json-only takes no value"},
        {kBench, "--batch-mp 0", 2, "--batch-mp expects"},
        // tessera (offscreen)
        {kGui, "--frob", 2, "Unknown option 'frob'"},
        {kGui, "--zoom=x", 2, "--zoom: expected a positive number"},
        {kGui, in + " " + in, 2, "expected at most one image"},
        {kGui, in + " --screenshots " + q(dir.file("tour")), 2, "--screenshots needs an IMAGE and --filter"},
    };
}

TEST(CliManners, EveryUsageErrorExitsWithTwo)
{
    const TempFolder dir("manners");
    std::ofstream(dir.file("r.json")) << "{}";
    const std::vector<UsageCase> cases = usageCases(dir);
    for (const UsageCase& c : cases) {
        const std::string env = c.program == kGui ? "QT_QPA_PLATFORM=offscreen " : "";
        const ShellRun r = shell(dir, env + c.program + " " + c.args);
        EXPECT_EQ(r.code, c.code) << c.program << " " << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find(c.words), std::string::npos) << c.program << " " << c.args << "\n" << r.err;
        EXPECT_FALSE(fs::exists(dir.file("o.png"))) << c.args;
        EXPECT_FALSE(fs::exists(dir.file("outdir"))) << c.args;
        fs::remove_all(dir.file("o.png"));
        fs::remove_all(dir.file("outdir"));
    }
}

TEST(CliManners, ATerminalIsNoImageStream)
{
    // script(1) gives the command a pseudo-terminal for standard input and output.
    if (std::system("command -v script >/dev/null 2>&1") != 0) {
        GTEST_SKIP() << "script(1) is not installed";
    }
    const TempFolder dir("manners");
    const auto onTerminal = [&](const std::string& args) {
        return shell(dir, "script -qec " + q(TESSERA_CLI + std::string(" ") + args) + " /dev/null");
    };
    const ShellRun in = onTerminal("apply - -o " + dir.file("t.png") + " --filter box");
    EXPECT_EQ(in.code, 2) << in.out;
    EXPECT_NE(in.out.find("standard input) is a terminal"), std::string::npos) << in.out;
    const ShellRun out = onTerminal("apply " + kCamera + " -o - --format png --filter box");
    EXPECT_EQ(out.code, 2) << out.out;
    EXPECT_NE(out.out.find("standard output) is a terminal"), std::string::npos) << out.out;
    EXPECT_FALSE(fs::exists(dir.file("t.png")));
}

// --- the option tables --------------------------------------------------------------------------

/// A command line that reaches the option of spec in command, with a value where it takes one,
/// and fails later (a missing input) rather than on the arguments, when they are all right.
std::vector<std::string> probeFor(const CommandSpec& command, const OptionSpec& spec, const std::string& value,
                                  const TempFolder& dir)
{
    std::vector<std::string> args;
    const std::string name = std::string(spec.name);
    const auto add = [&](const std::string& option) {
        if (spec.value == ValueKind::None) {
            args.push_back(option);
        } else {
            args.push_back(option + "=" + value);
        }
    };
    const std::string missing = dir.file("missing.png");
    if (command.name == "apply") {
        // TIFF holds every depth; standard output takes any --format.
        args = {"apply", missing, "-o", name == "--format" ? "-" : dir.file("o.tif"), "--filter", "box"};
        if (name == "--output") {
            args = {"apply", missing, "--filter", "box"};
        }
    } else if (command.name == "batch") {
        args = {"batch", missing, "-o", dir.file("outdir"), "--filter", "box"};
        if (name == "--output") {
            args = {"batch", missing, "--filter", "box"};
        }
    } else if (command.name == "bench") {
        args = {"bench", missing, "--filter", "box", "--devices", "cpu"};
    } else if (command.name == "batch-report") {
        args = {"batch-report", "merge", dir.file("missing.json")};
        if (name != "--output") {
            args.insert(args.end(), {"-o", dir.file("m.json")});
        }
    } else {
        args = {std::string(command.name)};
        if (command.name == "completion") {
            args.push_back("bash");
        }
    }
    add(name);
    if (!spec.shortName.empty() && spec.value != ValueKind::None) {
        // The short form takes its value as the next argument.
        args.push_back(std::string(spec.shortName));
        args.push_back(value);
    }
    return args;
}

std::string sampleValue(const OptionSpec& spec, const TempFolder& dir)
{
    // Files and folders that do not exist yet, a new name each time (a run may write one).
    static int made = 0;
    switch (spec.value) {
    case ValueKind::FilterId: return "gaussian";
    case ValueKind::FilterParam: return "size=3";
    case ValueKind::File:
        if (spec.name != "--files-from") {
            return dir.file("probe-" + std::to_string(++made) + ".tif");
        }
        break;
    case ValueKind::Directory: return dir.file("probe-folder-" + std::to_string(++made));
    default: break;
    }
    const std::string name(spec.name);
    if (name == "--files-from") {
        // A list that cannot be read is a refused batch (2): this one names the missing input.
        const std::string list = dir.file("list-" + std::to_string(++made) + ".txt");
        std::ofstream(list) << dir.file("missing.png") << "\n";
        return list;
    }
    if (name == "--kernel") {
        return "1,2,1";
    }
    if (name == "--tile") {
        return "64x64";
    }
    if (name == "--shard") {
        return "1/2";
    }
    if (name == "--quality") {
        return "90";
    }
    if (name == "--compression") {
        return "6";
    }
    if (name == "--gpu-memory-limit") {
        return "64M";
    }
    return "3";  // numbers: --scale, --offset, --border-value, --jobs, --runs, --warmup
}

TEST(CliManners, EveryOptionOfTheTablesIsReadAndEveryChoiceAccepted)
{
    const TempFolder dir("manners");
    for (const CommandSpec& command : cliCommands()) {
        std::vector<const OptionSpec*> options;
        for (const OptionSpec& o : command.options) {
            options.push_back(&o);
        }
        if (command.filterOptions) {
            for (const OptionSpec& o : filterOptionTable()) {
                options.push_back(&o);
            }
        }
        for (const OptionSpec* spec : options) {
            if (spec->name == "--help") {
                continue;
            }
            std::vector<std::string> values{sampleValue(*spec, dir)};
            if (spec->value == ValueKind::Choice) {
                values.clear();
                std::istringstream words{std::string(spec->choices)};
                for (std::string w; words >> w;) {
                    values.push_back(w);
                }
            }
            for (const std::string& value : values) {
                const auto args = probeFor(command, *spec, value, dir);
                std::string joined;
                for (const auto& a : args) {
                    joined += a + " ";
                }
                const auto r = inProcess(args);
                // Read, and its value taken: what fails is the missing input, a file error.
                EXPECT_NE(r.code, kExitUsage) << joined << "\n" << r.err;
                EXPECT_EQ(r.err.find("unknown option"), std::string::npos) << joined << "\n" << r.err;
            }
        }
    }
}

// --- TESSERA_LOG --------------------------------------------------------------------------------

}  // namespace
}  // namespace tessera::app
