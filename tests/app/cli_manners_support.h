// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the tests of the programs' command-line manners share: running a command line in the
// process or through the shell, quoting, the programs, and decoding an image read back.

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

namespace tessera::app::manners {

namespace fs = std::filesystem;
using test::readBytes;
using test::TempFolder;

inline const std::string kCamera = std::string(TESSERA_SAMPLE_DIR) + "/camera.png";
inline const std::string kCoffee = std::string(TESSERA_SAMPLE_DIR) + "/coffee.png";

/// One run of runCli in this process.
struct InProcess {
    int code = -1;
    std::string out;
    std::string err;
};

inline InProcess inProcess(const std::vector<std::string>& args, const std::string& input = {})
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

inline ShellRun shell(const TempFolder& dir, const std::string& command)
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

inline std::string q(const std::string& text)
{
    return "\"" + text + "\"";
}

inline const std::string kCli = q(TESSERA_CLI);
inline const std::string kBench = q(TESSERA_BENCH);
inline const std::string kGui = q(TESSERA_GUI);

inline cv::Mat decoded(const std::string& bytes)
{
    return decodeImage("test", std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

// --- --opt=value ---------------------------------------------------------------------------

}  // namespace tessera::app::manners
