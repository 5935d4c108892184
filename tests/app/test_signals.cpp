// SPDX-License-Identifier: Apache-2.0
// Interrupted runs (SIGINT, SIGTERM) of the real tessera-cli, and the temporaries that killed runs
// leave: what a later run may remove and what it must leave.
#include "app/io/image_io.h"
#include "files/temp_files.h"
#include "batch_test_data.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tessera::test {
namespace {

using Clock = std::chrono::steady_clock;

/// The real tessera-cli started with args, stdout and stderr into files in dir.
class CliProcess {
public:
    CliProcess(const TempFolder& dir, const std::vector<std::string>& args) : err_(dir.file("stderr.txt"))
    {
        const std::string out = dir.file("stdout.txt");
        pid_ = ::fork();
        if (pid_ == 0) {
            const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            const int e = ::open(err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            ::dup2(o, STDOUT_FILENO);
            ::dup2(e, STDERR_FILENO);
            std::vector<char*> argv{const_cast<char*>(TESSERA_CLI)};
            for (const std::string& a : args) {
                argv.push_back(const_cast<char*>(a.c_str()));
            }
            argv.push_back(nullptr);
            ::execv(TESSERA_CLI, argv.data());
            ::_exit(127);
        }
    }
    ~CliProcess()
    {
        if (pid_ > 0 && !waited_) {
            ::kill(pid_, SIGKILL);
            wait();
        }
    }
    void signal(int s) const { ::kill(pid_, s); }
    /// Whether signal s is still waiting for one of the process's threads to take it (the
    /// process-wide pending set, ShdPnd in /proc/PID/status); false once it was delivered or the
    /// process is gone.
    bool pending(int s) const
    {
        std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
        for (std::string line; std::getline(status, line);) {
            if (line.rfind("ShdPnd:", 0) == 0) {
                const unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
                return ((mask >> (s - 1)) & 1ULL) != 0;
            }
        }
        return false;
    }
    /// False when the process is still running.
    bool exited()
    {
        if (waited_) {
            return true;
        }
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            record(status);
        }
        return waited_;
    }
    /// The exit code (or -signal when killed).
    int wait()
    {
        if (!waited_) {
            int status = 0;
            ::waitpid(pid_, &status, 0);
            record(status);
        }
        return code_;
    }
    std::string err() const { return readBytes(err_); }

private:
    void record(int status)
    {
        waited_ = true;
        code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    }
    std::string err_;
    pid_t pid_ = -1;
    bool waited_ = false;
    int code_ = -1;
};

std::vector<std::string> temporariesIn(const fs::path& folder)
{
    std::vector<std::string> names;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name.find(".tmp") != std::string::npos) {
            names.push_back(name);
        }
    }
    return names;
}

/// Waits (at most 60 s) until pred() or the process ended; true when pred() held first.
template <typename Pred>
bool waitFor(CliProcess& p, Pred pred)
{
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    while (Clock::now() < deadline) {
        if (pred()) {
            return true;
        }
        if (p.exited()) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
}

/// An image of noise large enough that encoding it as PNG takes a while.
void writeNoise(const std::string& path, int rows, int cols, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    app::writeImage(path, randomImage(rng, rows, cols, CV_8UC3));
}

std::string signalName(const ::testing::TestParamInfo<int>& param)
{
    return param.param == SIGINT ? "SIGINT" : "SIGTERM";
}

class ApplySignal : public ::testing::TestWithParam<int> {};

TEST_P(ApplySignal, MidWriteRemovesTheTemporaryAndExitsWith128PlusSignal)
{
    const int sig = GetParam();
    TempFolder dir("apply-signal");
    const std::string input = dir.file("noise.bmp");
    writeNoise(input, 3000, 3000, 7);
    fs::create_directory(dir.path() / "out");
    const std::string output = dir.file("out/result.png");
    CliProcess p(dir, {"apply", input, "-o", output, "--kernel", "1", "--device", "cpu"});
    // The temporary lives from the start of encoding to the rename: the signal lands mid-write.
    const bool writing = waitFor(p, [&] { return !temporariesIn(dir.path() / "out").empty(); });
    ASSERT_TRUE(writing) << "the run ended before its temporary was seen: " << p.err();
    p.signal(sig);
    EXPECT_EQ(p.wait(), 128 + sig) << p.err();
    EXPECT_TRUE(temporariesIn(dir.path() / "out").empty());
    EXPECT_FALSE(fs::exists(output));
    EXPECT_NE(p.err().find(sig == SIGTERM ? "SIGTERM" : "SIGINT"), std::string::npos) << p.err();
}

INSTANTIATE_TEST_SUITE_P(Signals, ApplySignal, ::testing::Values(SIGINT, SIGTERM), signalName);

class BatchSignal : public ::testing::TestWithParam<int> {};

TEST_P(BatchSignal, StopsBetweenFilesWritesTheReportAndExitsWith128PlusSignal)
{
    const int sig = GetParam();
    TempFolder dir("batch-signal");
    fs::create_directory(dir.path() / "in");
    for (int i = 0; i < 24; ++i) {
        writeNoise(dir.file("in/n" + std::to_string(100 + i) + ".bmp"), 900, 900, static_cast<std::uint32_t>(i));
    }
    const std::string out = dir.file("out");
    const std::string report = dir.file("report.json");
    const std::string csv = dir.file("results.csv");
    CliProcess p(dir, {"batch", dir.file("in"), "-o", out, "--kernel", "1", "--format", "png", "--device", "cpu",
                       "--jobs", "2", "--report", report, "--csv", csv});
    const bool writing = waitFor(p, [&] { return fs::exists(out) && !temporariesIn(out).empty(); });
    ASSERT_TRUE(writing) << "the batch ended before a temporary was seen: " << p.err();
    p.signal(sig);
    EXPECT_EQ(p.wait(), 128 + sig) << p.err();
    EXPECT_TRUE(temporariesIn(out).empty());
    EXPECT_TRUE(temporariesIn(dir.path()).empty());
    ASSERT_TRUE(fs::exists(report)) << p.err();
    ASSERT_TRUE(fs::exists(csv));
    const auto doc = nlohmann::json::parse(readBytes(report));
    EXPECT_TRUE(doc["was_cancelled"].get<bool>());
    EXPECT_GT(doc["cancelled"].get<int>(), 0);
    EXPECT_EQ(doc["ok"].get<int>() + doc["cancelled"].get<int>(), 24);
    // What the report calls written is there and complete; nothing else is.
    int written = 0;
    for (const auto& f : doc["files"]) {
        if (f["status"] == "ok") {
            ++written;
            EXPECT_FALSE(cv::imread(f["output"].get<std::string>(), cv::IMREAD_UNCHANGED).empty()) << f.dump();
        }
    }
    int present = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(out)) {
        ++present;
    }
    EXPECT_EQ(present, written);
}

TEST(BatchSignalTwice, TheSecondSignalEndsTheRunAtOnceLeavingNoTemporary)
{
    TempFolder dir("batch-signal-twice");
    fs::create_directory(dir.path() / "in");
    for (int i = 0; i < 12; ++i) {
        writeNoise(dir.file("in/n" + std::to_string(100 + i) + ".bmp"), 1400, 1400, static_cast<std::uint32_t>(i));
    }
    const std::string out = dir.file("out");
    CliProcess p(dir, {"batch", dir.file("in"), "-o", out, "--kernel", "1", "--format", "png", "--device", "cpu",
                       "--jobs", "2"});
    const bool writing = waitFor(p, [&] { return fs::exists(out) && !temporariesIn(out).empty(); });
    ASSERT_TRUE(writing) << "the batch ended before a temporary was seen: " << p.err();
    p.signal(SIGTERM);
    // Both pending at once, the kernel would deliver SIGINT first (lower number): SIGTERM must
    // have been taken before SIGINT is sent. On a loaded machine (the sanitizer stage) a fixed
    // 30 ms was not always enough, so wait for its delivery, then leave the handler its moment.
    const bool delivered = waitFor(p, [&] { return !p.pending(SIGTERM); });
    ASSERT_TRUE(delivered) << "SIGTERM was still pending: " << p.err();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    const bool forced = !p.exited();
    p.signal(SIGINT);
    EXPECT_EQ(p.wait(), 128 + SIGTERM) << p.err();  // the first signal names the exit
    EXPECT_TRUE(temporariesIn(out).empty());
    if (forced) {
        EXPECT_NE(p.err().find("terminated (SIGTERM); partial outputs removed"), std::string::npos) << p.err();
    }
}

INSTANTIATE_TEST_SUITE_P(Signals, BatchSignal, ::testing::Values(SIGINT, SIGTERM), signalName);

// ---- Stale temporaries ----

/// A process id that existed and is gone (a child that has exited and been reaped).
pid_t deadPid()
{
    const pid_t child = ::fork();
    if (child == 0) {
        ::_exit(0);
    }
    ::waitpid(child, nullptr, 0);
    return child;
}

std::string tempName(const std::string& stem, const std::string& host, long pid, const std::string& ext = ".png")
{
    return "." + stem + ".tmp-" + host + "-" + std::to_string(pid) + "-aB3dE9" + ext;
}

std::string otherHost()
{
    return files::thisHostTag() == "0badc0de" ? "deadbeef" : "0badc0de";
}

void ageBy(const fs::path& path, std::chrono::hours hours)
{
    fs::last_write_time(path, fs::file_time_type::clock::now() - hours);
}

TEST(TemporaryNames, CarryThisHostAndProcessAndParseBack)
{
    const std::string name = files::temporaryNameFor("/x/photo.tif");
    const auto parsed = files::parseTemporaryName(name);
    ASSERT_TRUE(parsed.has_value()) << name;
    EXPECT_EQ(parsed->host, files::thisHostTag());
    EXPECT_EQ(parsed->pid, ::getpid());
    EXPECT_EQ(name.rfind(".photo.tmp-", 0), 0u) << name;
    EXPECT_EQ(fs::path(name).extension(), ".tif");
}

TEST(TemporaryNames, OnlyOurPatternParses)
{
    EXPECT_FALSE(files::parseTemporaryName(".photo.tmp-aB3dE9.png"));             // the old form: no host, no pid
    EXPECT_FALSE(files::parseTemporaryName("photo.tmp-0badc0de-12-aB3dE9.png"));  // not hidden
    EXPECT_FALSE(files::parseTemporaryName(".photo.tmp-0BADC0DE-12-aB3dE9.png"));
    EXPECT_FALSE(files::parseTemporaryName(".photo.tmp-0badc0de--aB3dE9.png"));
    EXPECT_FALSE(files::parseTemporaryName(".photo.tmp-0badc0de-12-aB3d.png"));
    EXPECT_FALSE(files::parseTemporaryName(".photo.tmp-0badc0de-12-aB3dE9x.png"));
    EXPECT_FALSE(files::parseTemporaryName(".notes.txt"));
    EXPECT_TRUE(files::parseTemporaryName(".photo.tmp-0badc0de-12-aB3dE9.png"));
    EXPECT_TRUE(files::parseTemporaryName(".report.json.tmp-0badc0de-12-aB3dE9"));
}

TEST(TemporaryNames, StayWithinNameMaxForEveryLegalTarget)
{
    for (std::size_t length : {5u, 200u, 243u, 244u, 250u, 255u}) {
        const std::string target = std::string(length - 4, 'a') + ".png";
        const std::string name = files::temporaryNameFor("/x/" + target);
        EXPECT_LE(name.size(), 255u) << length;
        EXPECT_EQ(fs::path(name).extension(), ".png") << length;
        EXPECT_TRUE(files::parseTemporaryName(name)) << name;
    }
    // Multi-byte characters are cut whole.
    std::string stem;
    while (stem.size() < 248) {
        stem += "\xc3\xa9";  // é
    }
    const std::string name = files::temporaryNameFor("/x/" + stem + ".png");
    EXPECT_LE(name.size(), 255u);
    const std::string kept = name.substr(1, name.find(".tmp-") - 1);
    EXPECT_EQ(kept.size() % 2, 0u) << kept.size();
}

TEST(StaleTemporaries, OnlyThoseProvedDeadAreRemoved)
{
    TempFolder dir("stale");
    const fs::path folder = dir.path();
    const auto make = [&](const std::string& name) {
        writeBytes(folder / name, "partial");
        return folder / name;
    };
    const fs::path deadHere = make(tempName("a", files::thisHostTag(), deadPid()));
    const fs::path liveHere = make(tempName("b", files::thisHostTag(), ::getppid()));
    const fs::path liveHereOld = make(tempName("c", files::thisHostTag(), ::getppid()));
    ageBy(liveHereOld, std::chrono::hours(72));
    const fs::path otherYoung = make(tempName("d", otherHost(), 4242));
    const fs::path otherOld = make(tempName("e", otherHost(), 4242));
    ageBy(otherOld, std::chrono::hours(25));
    const fs::path oldForm = make(".f.tmp-aB3dE9.png");
    ageBy(oldForm, std::chrono::hours(72));
    const fs::path someoneElses = make(".g.png.part");
    ageBy(someoneElses, std::chrono::hours(72));
    const fs::path folderNamedLikeOne = folder / tempName("h", files::thisHostTag(), deadPid());
    fs::create_directory(folderNamedLikeOne);
    const fs::path link = folder / tempName("i", files::thisHostTag(), deadPid());
    fs::create_symlink(liveHere, link);

    // A run writing into the folder sweeps it.
    std::mt19937 rng(3);
    app::writeImage((folder / "new.png").string(), randomImage(rng, 5, 5, CV_8UC1));

    EXPECT_FALSE(fs::exists(deadHere)) << "same host, process gone";
    EXPECT_FALSE(fs::exists(otherOld)) << "another host, untouched for a day";
    EXPECT_TRUE(fs::exists(liveHere)) << "a live process's";
    EXPECT_TRUE(fs::exists(liveHereOld)) << "a live process's, however old";
    EXPECT_TRUE(fs::exists(otherYoung)) << "another host's, younger than a day";
    EXPECT_TRUE(fs::exists(oldForm)) << "not our pattern";
    EXPECT_TRUE(fs::exists(someoneElses)) << "another program's";
    EXPECT_TRUE(fs::is_directory(folderNamedLikeOne)) << "a folder is never removed";
    EXPECT_TRUE(fs::exists(fs::symlink_status(link))) << "a link is never removed";
    EXPECT_TRUE(fs::exists(folder / "new.png"));
}

TEST(StaleTemporaries, TheRealCliSweepsTheFolderItWritesInto)
{
    TempFolder dir("stale-cli");
    std::mt19937 rng(5);
    const std::string input = dir.file("in.png");
    app::writeImage(input, randomImage(rng, 9, 9, CV_8UC3));
    fs::create_directory(dir.path() / "out");
    const fs::path dead = dir.path() / "out" / tempName("x", files::thisHostTag(), deadPid());
    const fs::path live = dir.path() / "out" / tempName("y", files::thisHostTag(), ::getpid());
    writeBytes(dead, "partial");
    writeBytes(live, "partial");
    const CliRun r = cli(dir, "apply " + quoted(input) + " -o " + quoted(dir.file("out/x.png")) + " --kernel 1");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_FALSE(fs::exists(dead));
    EXPECT_TRUE(fs::exists(live));  // this test process is alive
}

}  // namespace
}  // namespace tessera::test
