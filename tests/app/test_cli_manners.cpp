// SPDX-License-Identifier: Apache-2.0
// The manners the three programs share: --opt=value, -v/-q, "-" for the standard streams, exit
// code 2 for every usage error, option tables that the parsers and the completion agree on, and
// the TESSERA_LOG diagnostics.
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_filter_options.h"
#include "app/io/image_io.h"
#include "batch_test_data.h"
#include "values/log.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include <cstdlib>
#include <mutex>
#include <sstream>
#include <sys/wait.h>

namespace tessera::app {
namespace {

namespace fs = std::filesystem;
using test::readBytes;
using test::TempFolder;

const std::string kCamera = std::string(TESSERA_SAMPLE_DIR) + "/camera.png";
const std::string kCoffee = std::string(TESSERA_SAMPLE_DIR) + "/coffee.png";

/// One run of runCli in this process.
struct InProcess {
    int code = -1;
    std::string out;
    std::string err;
};

InProcess inProcess(const std::vector<std::string>& args, const std::string& input = {})
{
    std::istringstream in(input);
    std::ostringstream out;
    std::ostringstream err;
    InProcess r;
    r.code = runCli(args, in, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

/// One shell command line (the programs named by their paths), stdin from /dev/null unless the
/// command says otherwise; stdout and stderr through files in dir.
struct ShellRun {
    int code = -1;
    std::string out;
    std::string err;
};

ShellRun shell(const TempFolder& dir, const std::string& command)
{
    const std::string out = dir.file("stdout.bin");
    const std::string err = dir.file("stderr.txt");
    const std::string line = "( " + command + " ) >\"" + out + "\" 2>\"" + err + "\" </dev/null";
    const std::string wrapped = "sh -c '" + [&] {
        std::string quoted;
        for (char c : line) {
            quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
        }
        return quoted;
    }() + "'";
    const int status = std::system(wrapped.c_str());
    ShellRun r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = readBytes(out);
    r.err = readBytes(err);
    fs::remove(out);
    fs::remove(err);
    return r;
}

std::string q(const std::string& text)
{
    return "\"" + text + "\"";
}

const std::string kCli = q(TESSERA_CLI);
const std::string kBench = q(TESSERA_BENCH);
const std::string kGui = q(TESSERA_GUI);

cv::Mat decoded(const std::string& bytes)
{
    return decodeImage("test", std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

// --- --opt=value ---------------------------------------------------------------------------

TEST(CliManners, OptEqualsValueIsTheSameAsOptValue)
{
    const TempFolder dir("manners");
    const auto spaced = inProcess({"apply", kCamera, "-o", dir.file("a.png"), "--filter", "gaussian", "--param",
                                   "sigma=1.5", "--param", "size=5", "--border", "replicate", "--device", "cpu"});
    ASSERT_EQ(spaced.code, kExitOk) << spaced.err;
    const auto joined = inProcess({"apply", kCamera, "--output=" + dir.file("b.png"), "--filter=gaussian",
                                   "--param=sigma=1.5", "--param=size=5", "--border=replicate", "--device=cpu"});
    ASSERT_EQ(joined.code, kExitOk) << joined.err;
    EXPECT_EQ(readBytes(dir.file("a.png")), readBytes(dir.file("b.png")));
}

TEST(CliManners, TheFirstEqualsSignSplitsOptionFromValue)
{
    const TempFolder dir("manners");
    const auto r = inProcess(
        {"apply", kCamera, "-o", dir.file("o.png"), "--filter=box", "--param=size=5", "--device=cpu", "--json"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["filters"][0]["params"]["size"], "5");
    // An empty value after '=' is a value, refused by the option that reads it.
    const auto empty = inProcess({"apply", kCamera, "-o", dir.file("e.png"), "--filter="});
    EXPECT_EQ(empty.code, kExitUsage);
    EXPECT_NE(empty.err.find("unknown filter ''"), std::string::npos) << empty.err;
}

TEST(CliManners, FlagsTakeNoValueAndShortOptionsNoEqualsSign)
{
    const TempFolder dir("manners");
    const auto json = inProcess({"devices", "--json=yes"});
    EXPECT_EQ(json.code, kExitUsage);
    EXPECT_NE(json.err.find("--json takes no value"), std::string::npos) << json.err;
    const auto shortEq = inProcess({"apply", kCamera, "-o=" + dir.file("o.png"), "--filter", "box"});
    EXPECT_EQ(shortEq.code, kExitUsage);
    EXPECT_NE(shortEq.err.find("unknown option '-o="), std::string::npos) << shortEq.err;
    EXPECT_FALSE(fs::exists(dir.file("o.png")));
}

// --- -v and -q -------------------------------------------------------------------------------

TEST(CliManners, QuietBeforeOrAfterTheCommandLeavesOnlyErrors)
{
    const TempFolder dir("manners");
    for (const auto& args : {std::vector<std::string>{"-q", "apply", kCamera, "-o", dir.file("q1.png"), "--filter",
                                                      "box", "--device", "cpu"},
                             std::vector<std::string>{"apply", kCamera, "-o", dir.file("q2.png"), "--filter", "box",
                                                      "--device", "cpu", "--quiet"}}) {
        const auto r = inProcess(args);
        ASSERT_EQ(r.code, kExitOk) << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(r.err, "");
    }
    EXPECT_TRUE(fs::exists(dir.file("q1.png")));
    EXPECT_TRUE(fs::exists(dir.file("q2.png")));
    // Errors still show.
    const auto missing = inProcess({"-q", "apply", dir.file("nope.png"), "-o", dir.file("x.png"), "--filter", "box"});
    EXPECT_EQ(missing.code, kExitFailure);
    EXPECT_NE(missing.err.find("nope.png"), std::string::npos) << missing.err;
    // What was asked for (--json, the lists) is no information line.
    const auto json = inProcess({"-q", "filters", "--json"});
    EXPECT_EQ(json.code, kExitOk);
    EXPECT_TRUE(nlohmann::json::accept(json.out)) << json.out;
}

TEST(CliManners, VerboseShowsEveryCategoryForTheRunOnly)
{
    std::mutex mutex;
    std::string lines;
    values::setLogSink([&](std::string_view line) {
        const std::lock_guard lock(mutex);
        lines += line;
    });
    const TempFolder dir("manners");
    const auto r = inProcess({"apply", kCamera, "-o", dir.file("v.png"), "--filter", "sobel", "--device", "cpu", "-v"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_NE(lines.find("tessera[device]: --device cpu"), std::string::npos) << lines;
    EXPECT_NE(lines.find("tessera[plan]: step 1: "), std::string::npos) << lines;
    EXPECT_NE(lines.find("tessera[io]: read " + kCamera), std::string::npos) << lines;
    EXPECT_NE(lines.find("tessera[io]: wrote " + dir.file("v.png")), std::string::npos) << lines;
    // The next run without -v says nothing (unless TESSERA_LOG asks).
    lines.clear();
    const auto after = inProcess({"apply", kCamera, "-o", dir.file("w.png"), "--filter", "sobel", "--device", "cpu"});
    ASSERT_EQ(after.code, kExitOk) << after.err;
    if (std::getenv("TESSERA_LOG") == nullptr) {
        EXPECT_EQ(lines, "");
    }
    // -q after -v: the last one counts.
    lines.clear();
    const auto quiet =
        inProcess({"-v", "apply", kCamera, "-o", dir.file("x.png"), "--filter", "sobel", "--device", "cpu", "-q"});
    EXPECT_EQ(quiet.out, "");
    if (std::getenv("TESSERA_LOG") == nullptr) {
        EXPECT_EQ(lines, "");
    }
    values::setLogSink({});
}

// --- "-": standard input and output -----------------------------------------------------------

TEST(CliManners, StandardInputToStandardOutputWithAFormat)
{
    const TempFolder dir("manners");
    const std::string png = readBytes(kCamera);
    const auto r = inProcess({"apply", "-", "-o", "-", "--format", "png", "--filter", "box", "--device", "cpu"}, png);
    ASSERT_EQ(r.code, kExitOk) << r.err;
    // Standard output holds the image alone; the summary went to standard error.
    ASSERT_GT(r.out.size(), 8u);
    EXPECT_EQ(r.out.substr(1, 3), "PNG");
    EXPECT_NE(r.err.find("standard output: 512 x 512"), std::string::npos) << r.err;
    // The same pixels as from and to files.
    const auto files = inProcess({"apply", kCamera, "-o", dir.file("f.png"), "--filter", "box", "--device", "cpu"});
    ASSERT_EQ(files.code, kExitOk) << files.err;
    EXPECT_EQ(cv::norm(decoded(r.out), readImage(dir.file("f.png")), cv::NORM_INF), 0.0);
}

TEST(CliManners, StandardInputFormatComesFromItsBytes)
{
    const TempFolder dir("manners");
    // A JPEG on standard input, named by nothing: its magic bytes say what it is.
    ASSERT_EQ(inProcess({"apply", kCoffee, "-o", dir.file("c.jpg"), "--filter", "identity", "-q"}).code, kExitOk);
    const auto r = inProcess({"apply", "-", "-o", dir.file("from-stdin.tif"), "--filter", "box", "--json"},
                             readBytes(dir.file("c.jpg")));
    ASSERT_EQ(r.code, kExitOk) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["input"], "-");
    EXPECT_EQ(readImage(dir.file("from-stdin.tif")).size(), readImage(dir.file("c.jpg")).size());
    // What is no image is refused, naming standard input.
    const auto junk = inProcess({"apply", "-", "-o", dir.file("j.png"), "--filter", "box"}, "not an image at all");
    EXPECT_EQ(junk.code, kExitFailure);
    EXPECT_NE(junk.err.find("standard input: not an image file"), std::string::npos) << junk.err;
    const auto empty = inProcess({"apply", "-", "-o", dir.file("e.png"), "--filter", "box"}, "");
    EXPECT_EQ(empty.code, kExitFailure);
    EXPECT_NE(empty.err.find("standard input: empty"), std::string::npos) << empty.err;
}

TEST(CliManners, RealPipesCarryTheImageAndNothingElse)
{
    const TempFolder dir("manners");
    const auto r = shell(dir, "cat " + q(kCamera) + " | " + kCli +
                                  " apply - -o - --format=png --filter=gaussian --param=sigma=2 --device=cpu -v > " +
                                  q(dir.file("piped.png")));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("tessera[io]: read standard input"), std::string::npos) << r.err;
    const auto direct = inProcess({"apply", kCamera, "-o", dir.file("direct.png"), "--filter", "gaussian", "--param",
                                   "sigma=2", "--device", "cpu"});
    ASSERT_EQ(direct.code, kExitOk) << direct.err;
    EXPECT_EQ(cv::norm(readImage(dir.file("piped.png")), readImage(dir.file("direct.png")), cv::NORM_INF), 0.0);
    // bench reads standard input too.
    const auto bench =
        shell(dir, kCli + " bench - --filter box --devices cpu --runs 1 --warmup 0 --json < " + q(kCamera));
    ASSERT_EQ(bench.code, 0) << bench.err;
    EXPECT_EQ(nlohmann::json::parse(bench.out)["image"]["width"], 512);
}

TEST(CliManners, MergedReportToStandardOutput)
{
    const TempFolder dir("manners");
    fs::create_directories(dir.path() / "in");
    fs::copy_file(kCamera, dir.path() / "in" / "camera.png");
    const auto batch = inProcess({"batch", (dir.path() / "in").string(), "-o", dir.file("out"), "--filter", "box",
                                  "--report", dir.file("r.json"), "-q"});
    ASSERT_EQ(batch.code, kExitOk) << batch.err;
    EXPECT_EQ(batch.out, "");
    const auto merged = inProcess({"batch-report", "merge", "-o", "-", dir.file("r.json")});
    ASSERT_EQ(merged.code, kExitOk) << merged.err;
    EXPECT_EQ(nlohmann::json::parse(merged.out)["files"].size(), 1u);
    EXPECT_NE(merged.err.find("merged into standard output"), std::string::npos) << merged.err;
}

// --- exit code 2 for every usage error ----------------------------------------------------------

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

TEST(CliManners, TesseraLogNamesTheMethodAndTheFiles)
{
    const TempFolder dir("manners");
    const std::string output = dir.file("logged.png");
    const std::string args = " apply " + q(kCamera) + " -o " + q(output) + " --filter gaussian --param sigma=2";
    const ShellRun on = shell(dir, "TESSERA_LOG=plan,io " + kCli + args);
    ASSERT_EQ(on.code, 0) << on.err;
    EXPECT_NE(on.err.find("tessera[io]: read " + kCamera + ": PNG by libpng"), std::string::npos) << on.err;
    EXPECT_NE(on.err.find("tessera[io]: wrote " + output), std::string::npos) << on.err;
    // The method: the GPU plan's (its method and variant) or the CPU path's.
    const bool named = on.err.find("tessera[plan]: step 1: separable") != std::string::npos ||
                       on.err.find("tessera[plan]: step 1: direct") != std::string::npos ||
                       on.err.find("tessera[plan]: step 1: fft") != std::string::npos ||
                       on.err.find("on the CPU path, separable (OpenCV sepFilter2D)") != std::string::npos;
    EXPECT_TRUE(named) << on.err;
    EXPECT_EQ(on.err.find("tessera[device]"), std::string::npos) << "device was not asked for\n" << on.err;
    // Unset, and with nothing asked for: no diagnostic line.
    const ShellRun off = shell(dir, "env -u TESSERA_LOG " + kCli + args);
    ASSERT_EQ(off.code, 0) << off.err;
    EXPECT_EQ(off.err.find("tessera["), std::string::npos) << off.err;
    // A word it does not know is named once, and the others still work.
    const ShellRun odd = shell(dir, "TESSERA_LOG=io,bogus " + kCli + args);
    ASSERT_EQ(odd.code, 0) << odd.err;
    EXPECT_NE(odd.err.find("TESSERA_LOG: unknown category 'bogus'"), std::string::npos) << odd.err;
    EXPECT_NE(odd.err.find("tessera[io]: read"), std::string::npos) << odd.err;
    EXPECT_EQ(odd.err.find("tessera[plan]"), std::string::npos) << odd.err;
}

TEST(CliManners, TesseraLogReachesTesseraBench)
{
    const TempFolder dir("manners");
    // GPU 0: the devices are read (and said) whether or not there is one; without, the run fails.
    const ShellRun gpu =
        shell(dir, "TESSERA_LOG=device " + kBench + " --devices=0 --size=64 --cases=rgba8-custom3 --runs=1 --warmup=0");
    EXPECT_NE(gpu.err.find("tessera[device]: "), std::string::npos) << gpu.err;
    // -q leaves the progress lines out, and -v is TESSERA_LOG=all.
    const ShellRun cpu = shell(dir, "env -u TESSERA_LOG " + kBench +
                                        " --devices=cpu --size=64 --cases=rgba8-custom3 --runs=1 --warmup=0 -q");
    ASSERT_EQ(cpu.code, 0) << cpu.err;
    EXPECT_EQ(cpu.err.find("tessera-bench: case"), std::string::npos) << cpu.err;
    const ShellRun verbose = shell(dir, "env -u TESSERA_LOG " + kBench +
                                            " --devices=0 --size=64 --cases=rgba8-custom3 --runs=1 --warmup=0 -v");
    EXPECT_NE(verbose.err.find("tessera[device]: "), std::string::npos) << verbose.err;
}

}  // namespace
}  // namespace tessera::app
