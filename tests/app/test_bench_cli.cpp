// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

namespace {

struct CliResult {
    int code = -1;
    std::string out;
};

/// The real tessera-cli through the shell, standard output captured.
CliResult cli(const std::string& args)
{
    const auto out = std::filesystem::temp_directory_path() / ("tessera-bench-" + std::to_string(::getpid()) + ".txt");
    const std::string command =
        std::string("\"") + TESSERA_CLI + "\" " + args + " >\"" + out.string() + "\" 2>/dev/null";
    const int status = std::system(command.c_str());
    CliResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(out);
    std::stringstream text;
    text << in.rdbuf();
    r.out = text.str();
    std::filesystem::remove(out);
    return r;
}

const std::string kInput = std::string(TESSERA_SAMPLE_DIR) + "/camera.png";

TEST(BenchCli, CpuTable)
{
    const CliResult r =
        cli("bench \"" + kInput + "\" --filter gaussian --param sigma=1.5 --devices cpu --warmup 0 --runs 2");
    ASSERT_EQ(r.code, 0) << r.out;
    for (const char* column : {"target", "median ms", "Mpixel/s", "speed-up", "efficiency", "max err", "PSNR"}) {
        EXPECT_NE(r.out.find(column), std::string::npos) << column << "\n" << r.out;
    }
    EXPECT_NE(r.out.find("\nCPU"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("exact"), std::string::npos) << r.out;
}

TEST(BenchCli, CpuJson)
{
    const CliResult r = cli("bench \"" + kInput + "\" --filter box --devices cpu --runs 3 --json");
    ASSERT_EQ(r.code, 0) << r.out;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc.at("results").size(), 1u);
    const auto& cpu = doc.at("results")[0];
    EXPECT_EQ(cpu.at("key"), "cpu");
    EXPECT_EQ(cpu.at("runs_ms").size(), 3u);
    EXPECT_GT(cpu.at("median_ms").get<double>(), 0.0);
    EXPECT_EQ(doc.at("repeats"), 3);
    EXPECT_EQ(doc.at("image").at("width").get<int>(), 512);
}

TEST(BenchCli, UsageErrors)
{
    EXPECT_EQ(cli("bench").code, 2);
    EXPECT_EQ(cli("bench \"" + kInput + "\" --filter box --devices frob").code, 2);
    // --devices takes each, all, cpu and GPU lists, not apply's auto or gpu.
    EXPECT_EQ(cli("bench \"" + kInput + "\" --filter box --devices auto").code, 2);
    EXPECT_EQ(cli("bench \"" + kInput + "\" --filter box --devices gpu").code, 2);
    EXPECT_EQ(cli("bench \"" + kInput + "\" --filter box --runs 0").code, 2);
    EXPECT_EQ(cli("bench /nonexistent/x.png --filter box --devices cpu").code, 1);
    EXPECT_EQ(cli("bench --help").code, 0);
}

}  // namespace
