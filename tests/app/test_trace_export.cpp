// SPDX-License-Identifier: Apache-2.0
#include "app/io/trace_export.h"
#include "values/timing_stats.h"
#include "tests/timing_fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <map>
#include <set>
#include <sstream>

namespace {

using nlohmann::json;
using tessera::app::TraceFormat;
using tessera::values::TimingRecord;

TEST(TraceExport, ChromeTraceReadsBackAsTheSameRecords)
{
    std::vector<TimingRecord> records = tessera::test::fakeFourGpuRun();
    // Fractions that do not survive a careless decimal conversion.
    records[1].beginUs = 181.0 / 3.0;
    records[1].endUs = 1234.5678901;
    records[2].label = "label, with \"quotes\"";
    const std::string text = tessera::app::toChromeTrace(records, tessera::test::fakeFourGpuSnapshot());
    const std::vector<TimingRecord> back = tessera::app::parseChromeTrace(text);
    ASSERT_EQ(back.size(), records.size());
    for (std::size_t i = 0; i < records.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(back[i].device, records[i].device);
        EXPECT_EQ(back[i].stream, records[i].stream);
        EXPECT_EQ(back[i].tile, records[i].tile);
        EXPECT_EQ(back[i].phase, records[i].phase);
        EXPECT_EQ(back[i].label, records[i].label);
        EXPECT_NEAR(back[i].beginUs, records[i].beginUs, 0.001);
        EXPECT_NEAR(back[i].endUs, records[i].endUs, 0.001);
        EXPECT_EQ(back[i].bytes, records[i].bytes);
        EXPECT_EQ(back[i].x, records[i].x);
        EXPECT_EQ(back[i].y, records[i].y);
        EXPECT_EQ(back[i].width, records[i].width);
        EXPECT_EQ(back[i].height, records[i].height);
    }
}

TEST(TraceExport, ChromeTraceHasCompleteEventsAndNamedProcessesAndThreads)
{
    const std::vector<TimingRecord> records = tessera::test::fakeFourGpuRun();
    const json trace = json::parse(tessera::app::toChromeTrace(records, tessera::test::fakeFourGpuSnapshot()));
    ASSERT_TRUE(trace.contains("traceEvents"));
    std::map<int, std::string> processes;
    std::map<std::pair<int, int>, std::string> threads;
    int complete = 0;
    for (const json& e : trace["traceEvents"]) {
        const std::string ph = e["ph"];
        if (ph == "X") {
            ++complete;
            EXPECT_GE(e["dur"].get<double>(), 0.0);
            EXPECT_TRUE(e["args"].contains("width"));
            EXPECT_GT(e["pid"].get<int>(), 0);
        } else if (ph == "M" && e["name"] == "process_name") {
            processes[e["pid"]] = e["args"]["name"];
        } else if (ph == "M" && e["name"] == "thread_name") {
            threads[{e["pid"], e["tid"]}] = e["args"]["name"];
        }
    }
    EXPECT_EQ(complete, static_cast<int>(records.size()));
    ASSERT_EQ(processes.size(), 5u);
    EXPECT_EQ(processes[1], "GPU 0 (NVIDIA H200)");
    EXPECT_EQ(processes[4], "GPU 3 (NVIDIA H200)");
    int cpu = 0;
    for (const auto& [pid, name] : processes) {
        cpu += name == "CPU" ? 1 : 0;
    }
    EXPECT_EQ(cpu, 1);
    EXPECT_EQ(threads.size(), 9u);  // 4 GPUs x 2 streams and one CPU thread
    EXPECT_EQ((threads[{2, 1}]), "stream 1");
}

TEST(TraceExport, KernelEventsCarryMethodAndBandwidth)
{
    TimingRecord r;
    r.device = tessera::values::DeviceId{0};
    r.phase = tessera::values::Phase::Kernel;
    r.label = "separable";
    r.beginUs = 10.0;
    r.endUs = 20.0;
    r.bytes = 40'000'000;  // 40 MB in 10 us: 4000 GB/s
    const json trace = json::parse(tessera::app::toChromeTrace({r}));
    const json& e = trace["traceEvents"].back();
    EXPECT_EQ(e["name"], "separable");
    EXPECT_EQ(e["args"]["method"], "separable");
    EXPECT_DOUBLE_EQ(e["args"]["GB/s"].get<double>(), 4000.0);
    EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 10.0);
    EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 10.0);
}

TEST(TraceExport, ParseRefusesWhatIsNotATrace)
{
    EXPECT_THROW(tessera::app::parseChromeTrace("not json"), std::runtime_error);
    EXPECT_THROW(tessera::app::parseChromeTrace("{\"events\": []}"), std::runtime_error);
    EXPECT_TRUE(tessera::app::parseChromeTrace("{\"traceEvents\": []}").empty());
}

TEST(TraceExport, CsvHasAHeaderAndOneRowPerRecord)
{
    std::vector<TimingRecord> records = tessera::test::fakeFourGpuRun();
    records[0].label = "a, \"b\"";
    const std::string csv = tessera::app::toCsv(records);
    std::istringstream in(csv);
    std::string line;
    std::vector<std::string> lines;
    while (std::getline(in, line)) {
        lines.push_back(line);
    }
    ASSERT_EQ(lines.size(), records.size() + 1);
    EXPECT_EQ(lines[0], tessera::app::csvHeader());
    EXPECT_EQ(lines[0], "device,stream,tile,phase,label,begin_us,end_us,duration_us,bytes,x,y,width,height");
    EXPECT_EQ(lines[1].rfind("-1,0,-1,host,\"a, \"\"b\"\"\",0,180,180,", 0), 0u) << lines[1];
    EXPECT_EQ(lines[2].rfind("0,0,0,upload,tile input,180,", 0), 0u) << lines[2];
}

TEST(TraceExport, JsonIsAnArrayOfRecords)
{
    const std::vector<TimingRecord> records = tessera::test::fakeFourGpuRun();
    const json array = json::parse(tessera::app::toJson(records));
    ASSERT_TRUE(array.is_array());
    ASSERT_EQ(array.size(), records.size());
    EXPECT_EQ(array[1]["phase"], "upload");
    EXPECT_EQ(array[1]["device"], 0);
    EXPECT_EQ(array[1]["bytes"].get<std::uint64_t>(), records[1].bytes);
    EXPECT_DOUBLE_EQ(array[1]["duration_us"].get<double>(), records[1].durationUs());
}

TEST(TraceExport, WriteTraceReplacesTheFileWhole)
{
    const QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("run.json"));
    const std::vector<TimingRecord> records = tessera::test::fakeFourGpuRun();
    tessera::app::writeTrace(path, TraceFormat::ChromeTrace, records);
    tessera::app::writeTrace(path, TraceFormat::ChromeTrace, records);
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(tessera::app::parseChromeTrace(file.readAll().toStdString()).size(), records.size());
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files).size(), 1);
    EXPECT_THROW(tessera::app::writeTrace(dir.filePath(QStringLiteral("no/such/dir/x.csv")), TraceFormat::Csv, records),
                 std::runtime_error);
}

}  // namespace

namespace tessera::app {
namespace {

// The trace `tessera-cli apply --device all --trace` wrote on a machine with four H200s (kept
// under tests/perf/results/archive/2026-11-29): it reads back into records of four GPUs, every
// tile with its upload, kernels and download in that order on one stream.
TEST(TraceExport, TheFourGpuTraceFromTheGpuMachineReadsBack)
{
    QFile file(QStringLiteral(TESSERA_PERF_RESULTS_DIR "/archive/2026-11-29/2026-11-29-h200x4-trace.json"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << "missing " << file.fileName().toStdString();
    const auto records = parseChromeTrace(file.readAll().toStdString());
    ASSERT_FALSE(records.empty());
    std::map<int, std::map<values::Phase, const values::TimingRecord*>> byTile;
    std::set<int> devices;
    for (const auto& r : records) {
        EXPECT_LE(r.beginUs, r.endUs);
        if (!r.device.isCpu() && r.phase != values::Phase::Host) {
            devices.insert(r.device.value());
            byTile[r.tile][r.phase] = &r;
        }
    }
    EXPECT_EQ(devices, (std::set<int>{0, 1, 2, 3}));
    ASSERT_GE(byTile.size(), 4u);
    for (const auto& [tile, phases] : byTile) {
        ASSERT_EQ(phases.size(), 3u) << "tile " << tile;
        const auto* up = phases.at(values::Phase::Upload);
        const auto* kernel = phases.at(values::Phase::Kernel);
        const auto* down = phases.at(values::Phase::Download);
        EXPECT_EQ(up->device, down->device);
        EXPECT_EQ(up->stream, kernel->stream);
        EXPECT_LE(up->endUs, kernel->beginUs + 0.01) << "tile " << tile;
        EXPECT_LE(kernel->endUs, down->beginUs + 0.01) << "tile " << tile;
        EXPECT_GT(kernel->width * kernel->height, 0);
    }
}

}  // namespace
}  // namespace tessera::app
