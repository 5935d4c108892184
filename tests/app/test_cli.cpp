// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli.h"
#include "app/io/image_io.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace tessera::app {
namespace {

namespace fs = std::filesystem;

struct CliResult {
    int code = -1;
    std::string out;
    std::string err;
};

CliResult cli(std::vector<std::string> args)
{
    std::ostringstream out;
    std::ostringstream err;
    CliResult r;
    r.code = runCli(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

class CliTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::random_device rd;
        dir_ = fs::temp_directory_path() / ("tessera-cli-test-" + std::to_string(rd()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    static std::string sample(const std::string& name) { return std::string(TESSERA_SAMPLE_DIR) + "/" + name; }
    fs::path dir_;
};

TEST(Cli, NoArgumentsIsAUsageError)
{
    const auto r = cli({});
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_NE(r.err.find("Usage: tessera-cli"), std::string::npos);
}

TEST(Cli, UnknownCommandPrintsUsage)
{
    const auto r = cli({"frobnicate"});
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Usage: tessera-cli"), std::string::npos);
}

TEST(Cli, UnknownOptionOfDevicesPrintsUsage)
{
    const auto r = cli({"devices", "--frob"});
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_NE(r.err.find("unknown option '--frob'"), std::string::npos) << r.err;
}

TEST(Cli, HelpGoesToStdoutAndSucceeds)
{
    const auto r = cli({"--help"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_NE(r.out.find("apply INPUT -o OUTPUT"), std::string::npos);
}

TEST(Cli, VersionNamesTheLibraries)
{
    const auto r = cli({"--version"});
    EXPECT_EQ(r.code, kExitOk);
    EXPECT_NE(r.out.find("tessera-cli "), std::string::npos);
    EXPECT_NE(r.out.find("Qt 6."), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("OpenCV 4."), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("CUDA runtime 1"), std::string::npos) << r.out;
}

TEST(Cli, DevicesJsonIsValidAndConsistent)
{
    const auto r = cli({"devices", "--json"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_TRUE(doc.contains("devices"));
    EXPECT_EQ(doc["device_count"].get<size_t>(), doc["devices"].size());
    if (doc["devices"].empty()) {
        EXPECT_TRUE(doc["reason"].is_string());
        EXPECT_EQ(doc["fallback"], "cpu");
    } else {
        for (const auto& d : doc["devices"]) {
            EXPECT_GT(d["sm_count"].get<int>(), 0);
            EXPECT_GT(d["memory_total_bytes"].get<std::uint64_t>(), 0u);
        }
    }
}

TEST(Cli, FiltersListsEveryBuiltin)
{
    const auto r = cli({"filters", "--json"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    std::set<std::string> ids;
    for (const auto& f : doc["filters"]) {
        ids.insert(f["id"].get<std::string>());
    }
    for (const char* id : {"identity", "box", "gaussian", "sharpen", "unsharp", "laplacian", "log", "sobel", "scharr",
                           "prewitt", "emboss", "motion_blur", "custom"}) {
        EXPECT_TRUE(ids.count(id)) << id;
    }
    const auto text = cli({"filters"});
    EXPECT_EQ(text.code, kExitOk);
    EXPECT_NE(text.out.find("gaussian"), std::string::npos);
}

TEST_F(CliTest, ApplyGaussianMatchesTheCpuExecutor)
{
    const std::string out = path("astro-gauss.png");
    const auto r = cli({"apply", sample("astronaut.png"), "-o", out, "--filter", "gaussian", "--param", "sigma=1.5",
                        "--param", "size=5", "--device", "cpu", "--json"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["device"], "cpu");
    EXPECT_EQ(doc["format_in"], "u8x3");
    EXPECT_EQ(doc["format_out"], "u8x3");
    EXPECT_EQ(doc["width"], 512);
    EXPECT_EQ(doc["filters"][0]["id"], "gaussian");
    EXPECT_TRUE(doc["filters"][0]["separable"].get<bool>());
    EXPECT_GE(doc["milliseconds"].get<double>(), 0.0);

    const cv::Mat src = cv::imread(sample("astronaut.png"), cv::IMREAD_UNCHANGED);
    const cv::Mat got = cv::imread(out, cv::IMREAD_UNCHANGED);
    const cv::Mat want = filters::applyCpu(src, filters::makeGaussian(1.5, 5));
    ASSERT_EQ(got.size(), src.size());
    EXPECT_EQ(cv::norm(got, want, cv::NORM_INF), 0.0);
    // And it really blurred.
    EXPECT_GT(cv::norm(got, src, cv::NORM_L1), 0.0);
}

TEST_F(CliTest, ApplyInlineKernelChainAndFloatDepth)
{
    const std::string out = path("camera-edges.tiff");
    const auto r = cli({"apply", sample("camera.png"), "-o", out, "--filter", "box", "--param", "size=3", "--kernel",
                        "0,-1,0;-1,4,-1;0,-1,0", "--border", "replicate", "--depth", "f32"});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const cv::Mat got = cv::imread(out, cv::IMREAD_UNCHANGED);
    ASSERT_EQ(got.type(), CV_32FC1);
    double minV = 0;
    cv::minMaxLoc(got, &minV);
    EXPECT_LT(minV, 0.0) << "a Laplacian in float keeps negative values";
}

// A kernel file that is a FIFO or a device would block or never end: refused by name.
TEST_F(CliTest, ApplyRefusesKernelFilesThatAreNotPlainFiles)
{
    const std::string fifo = path("k.txt");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string& kernel : {fifo, std::string("/dev/zero")}) {
        const auto r = cli({"apply", sample("camera.png"), "-o", path("out.png"), "--kernel", "@" + kernel});
        EXPECT_EQ(r.code, kExitFailure) << r.err;
        EXPECT_NE(r.err.find(kernel + ": not a regular file"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(path("out.png")));
    }
}

TEST_F(CliTest, ApplyRefusesToOverwriteItsInput)
{
    const std::string in = path("in.png");
    fs::copy_file(sample("camera.png"), in);
    const auto before = fs::file_size(in);
    const auto r = cli({"apply", in, "-o", in, "--filter", "box"});
    // A refused run, as in batch: nothing was written, exit 2.
    EXPECT_EQ(r.code, kExitUsage);
    EXPECT_NE(r.err.find(in), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("Nothing was written"), std::string::npos) << r.err;
    EXPECT_EQ(fs::file_size(in), before);
}

TEST_F(CliTest, ApplyMissingInputNamesTheFile)
{
    const std::string in = path("nope.png");
    const auto r = cli({"apply", in, "-o", path("out.png"), "--filter", "box"});
    EXPECT_EQ(r.code, kExitFailure);
    EXPECT_NE(r.err.find(in), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(path("out.png")));
}

TEST_F(CliTest, ApplyUsageErrors)
{
    const std::string in = sample("camera.png");
    const std::string out = path("o.png");
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"apply", in, "-o", out}, "nothing to apply"},
        {{"apply", in, "--filter", "box"}, "no output given"},
        {{"apply", "-o", out, "--filter", "box"}, "no input image"},
        {{"apply", in, "-o", out, "--filter", "nosuch"}, "unknown filter 'nosuch'"},
        {{"apply", in, "-o", out, "--param", "size=3"}, "must follow the --filter"},
        {{"apply", in, "-o", out, "--filter", "box", "--param", "size"}, "KEY=VALUE"},
        {{"apply", in, "-o", out, "--filter", "box", "--param", "bogus=1"}, "bogus"},
        {{"apply", in, "-o", out, "--filter", "box", "--border", "mirror"}, "mirror"},
        {{"apply", in, "-o", out, "--filter", "box", "--depth", "u32"}, "u32"},
        {{"apply", in, "-o", out, "--filter", "box", "--scale", "two"}, "--scale expects a number"},
        {{"apply", in, "-o", out, "--filter", "box", "--scale", "inf"}, "--scale expects a finite number"},
        {{"apply", in, "-o", out, "--filter", "box", "--offset", "nan"}, "--offset expects a finite number"},
        {{"apply", in, "-o", out, "--filter", "box", "--border", "constant", "--border-value", "1e999"},
         "--border-value expects a finite number"},
        {{"apply", in, "-o", out, "--kernel", "1,2;3"}, "--kernel"},
        {{"apply", in, "-o", out, "--filter", "box", "--device", "tpu"}, "--device expects"},
        {{"apply", in, "-o", out, "--filter", "box", "--device", "gpu:x"}, "not a list of GPU numbers"},
        {{"apply", in, "-o", out, "--filter", "box", "--device", "gpu:0,0"}, "names GPU 0 twice"},
        {{"apply", in, "-o", out, "--filter", "box", "--device", "each"}, "--device expects"},
        {{"apply", in, "-o", out, "--filter", "box", "--frob"}, "unknown option '--frob'"},
        {{"apply", in, in, "-o", out, "--filter", "box"}, "more than one input"},
        {{"apply", in, "-o", out, "--filter"}, "--filter needs a value"},
        {{"apply", in, "-o", out, "--filter", "box", "--method", "magic"}, "unknown method 'magic'"},
    };
    for (const auto& c : cases) {
        const auto r = cli(c.args);
        std::string joined;
        for (const auto& a : c.args) {
            joined += a + " ";
        }
        EXPECT_EQ(r.code, kExitUsage) << joined << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << joined << "\n" << r.err;
        EXPECT_FALSE(fs::exists(out)) << joined;
    }
}

TEST_F(CliTest, GpuRequestWithoutGpuSaysWhy)
{
    const auto devices = cli({"devices", "--json"});
    if (nlohmann::json::parse(devices.out)["device_count"].get<int>() > 0) {
        GTEST_SKIP() << "this machine has a GPU";
    }
    const std::string out = path("g.png");
    const auto r = cli({"apply", sample("camera.png"), "-o", out, "--filter", "box", "--device", "gpu"});
    EXPECT_EQ(r.code, kExitFailure);
    EXPECT_NE(r.err.find("no GPU is available"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--device cpu"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
    // auto falls back to the CPU and says so in the JSON.
    const auto a = cli({"apply", sample("camera.png"), "-o", out, "--filter", "box", "--json"});
    ASSERT_EQ(a.code, kExitOk) << a.err;
    const auto doc = nlohmann::json::parse(a.out);
    EXPECT_EQ(doc["device"], "cpu");
    EXPECT_NE(doc["note"].get<std::string>().find("no GPU"), std::string::npos);
}

TEST_F(CliTest, ApplyPresetFromFile)
{
    const std::string preset = path("sharpen.json");
    std::ofstream(preset) << R"({"name": "sharpen", "size": [3, 3],
        "weights": [0, -1, 0, -1, 5, -1, 0, -1, 0], "border": "replicate"})";
    const std::string out = path("sharp.png");
    const auto r = cli({"apply", sample("coffee.png"), "-o", out, "--preset", preset});
    ASSERT_EQ(r.code, kExitOk) << r.err;
    const cv::Mat src = cv::imread(sample("coffee.png"), cv::IMREAD_UNCHANGED);
    const cv::Mat got = cv::imread(out, cv::IMREAD_UNCHANGED);
    cv::Mat want;
    const cv::Mat k = (cv::Mat_<float>(3, 3) << 0, -1, 0, -1, 5, -1, 0, -1, 0);
    cv::filter2D(src, want, -1, k, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
    EXPECT_LE(cv::norm(got, want, cv::NORM_INF), 1.0);
}

TEST_F(CliTest, ApplyMissingPresetIsAFileError)
{
    const std::string preset = path("missing.json");
    const auto r = cli({"apply", sample("coffee.png"), "-o", path("x.png"), "--preset", preset});
    EXPECT_EQ(r.code, kExitFailure);
    EXPECT_NE(r.err.find(preset), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tessera::app
