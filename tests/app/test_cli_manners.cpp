// SPDX-License-Identifier: Apache-2.0
// The manners the three programs share: --opt=value, -v/-q, "-" for the standard streams and
// the TESSERA_LOG diagnostics. Usage errors and the option tables: test_cli_usage_errors.cpp.
#include "cli_manners_support.h"

namespace tessera::app {
namespace {

using namespace manners;

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
