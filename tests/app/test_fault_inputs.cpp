// SPDX-License-Identifier: Apache-2.0
#include "batch_test_data.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

// The fault suite's non-regular inputs: a FIFO, a device, a folder, a socket, a dangling link and
// a loop of links given to the real tessera-cli, alone (apply) and among good files (batch). Each
// is refused at once with its name and the reason, nothing is written for it, and the good files
// of the batch are done. A FIFO read would block forever and /dev/zero would fill memory: the
// `timeout` around each run turns such a hang into a failure (exit 124).
namespace tessera::test {
namespace {

namespace fs = std::filesystem;

struct Input {
    const char* name;
    const char* reason;  ///< part of the message the run must give
};

const std::vector<Input> kInputs{
    {"fifo.png", "not a regular file"},   {"device.png", "not a regular file"}, {"folder.png", "is a directory"},
    {"socket.png", "not a regular file"}, {"dangling.png", "file not found"},   {"loop1.png", "symbolic links"},
};

/// Makes every input of kInputs in dir; false (with the reason) where the system refuses one.
::testing::AssertionResult makeInputs(const TempFolder& dir)
{
    if (::mkfifo(dir.file("fifo.png").c_str(), 0600) != 0) {
        return ::testing::AssertionFailure() << "mkfifo: " << std::strerror(errno);
    }
    fs::create_symlink("/dev/zero", dir.path() / "device.png");
    fs::create_directory(dir.path() / "folder.png");
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string socketPath = dir.file("socket.png");
    if (fd < 0 || socketPath.size() >= sizeof address.sun_path) {
        return ::testing::AssertionFailure() << "no socket";
    }
    std::strncpy(address.sun_path, socketPath.c_str(), sizeof address.sun_path - 1);
    const int bound = ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
    ::close(fd);
    if (bound != 0) {
        return ::testing::AssertionFailure() << "bind: " << std::strerror(errno);
    }
    fs::create_symlink(dir.path() / "missing.png", dir.path() / "dangling.png");
    fs::create_symlink(dir.path() / "loop2.png", dir.path() / "loop1.png");
    fs::create_symlink(dir.path() / "loop1.png", dir.path() / "loop2.png");
    return ::testing::AssertionSuccess();
}

TEST(FaultInputs, ApplyRefusesEveryNonRegularInputAtOnce)
{
    TempFolder dir("nonregular-apply");
    ASSERT_TRUE(makeInputs(dir));
    for (const Input& input : kInputs) {
        SCOPED_TRACE(input.name);
        const std::string out = dir.file(std::string("out-") + input.name);
        const CliRun r =
            cli(dir, "apply " + quoted(dir.file(input.name)) + " -o " + quoted(out) + " --filter box", "timeout 20 ");
        EXPECT_EQ(r.code, 1) << r.err;
        EXPECT_NE(r.err.find(input.name), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(input.reason), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(out));
    }
}

TEST(FaultInputs, ABatchReportsEachNonRegularInputAndDoesTheGoodFiles)
{
    TempFolder dir("nonregular-batch");
    ASSERT_TRUE(makeInputs(dir));
    const cv::Mat good(48, 64, CV_8UC3, cv::Scalar(10, 200, 90));
    ASSERT_TRUE(cv::imwrite(dir.file("good.png"), good));
    const std::string report = dir.file("report.json");
    const std::string outDir = dir.file("out");
    const CliRun r = cli(dir,
                         "batch " + quoted(dir.path().string()) + " -o " + quoted(outDir) +
                             " --filter box --jobs 4 --report " + quoted(report),
                         "timeout 30 ");
    EXPECT_EQ(r.code, 1) << r.err;
    ASSERT_TRUE(fs::exists(report)) << r.err;
    const auto doc = nlohmann::json::parse(readBytes(report));
    EXPECT_EQ(doc.at("ok").get<int>(), 1);
    for (const Input& input : kInputs) {
        SCOPED_TRACE(input.name);
        bool reported = false;
        for (const auto& file : doc.at("files")) {
            if (fs::path(file.at("input").get<std::string>()).filename() == input.name) {
                reported = true;
                EXPECT_EQ(file.at("status").get<std::string>(), "failed");
                EXPECT_NE(file.value("error", std::string()).find(input.reason), std::string::npos) << file.dump();
            }
        }
        EXPECT_TRUE(reported);
    }
    // Only the good file's output, and no temporary left behind.
    std::vector<std::string> outputs;
    for (const auto& entry : fs::directory_iterator(outDir)) {
        outputs.push_back(entry.path().filename().string());
    }
    ASSERT_EQ(outputs.size(), 1u);
    EXPECT_EQ(cv::imread((fs::path(outDir) / outputs.front()).string(), cv::IMREAD_UNCHANGED).size(), good.size());
}

}  // namespace
}  // namespace tessera::test
