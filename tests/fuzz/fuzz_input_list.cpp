// SPDX-License-Identifier: Apache-2.0
// Batch input lists (--files-from), shard specifications (--shard K/N) and shard reports
// (batch-report merge). The first byte picks what the rest is: 's' a shard, 'm' reports split at
// NUL bytes, anything else an input list (parsed from memory and read back from a file).
// Only the documented exceptions may come out; what parses must obey the documented shape.
#include "fuzz_support.h"

#include "app/batch/batch_shard.h"
#include "app/batch/input_list.h"
#include "app/batch/report_merge.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

using namespace tessera::app;

void checkList(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    InputListLimits limits;
    limits.maxBytes = 32768;
    limits.maxLines = 200;
    std::vector<std::string> lines;
    bool refused = false;
    try {
        lines = parseInputList(text, "fuzz.list", limits);
    } catch (const InputListError& e) {
        refused = true;
        const std::string what = e.what();
        const bool explained = what.find("fuzz.list") != std::string::npos;
        const bool nul = text.find('\0') != std::string_view::npos;
        const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
        if (!explained || (!nul && newlines < limits.maxLines && text.size() <= limits.maxBytes)) {
            std::abort();  // refused without reason
        }
    }
    for (const std::string& line : lines) {
        if (line.empty() || line.find('\n') != std::string::npos || line.find('\0') != std::string::npos ||
            line.find_first_not_of(" \t") == std::string::npos) {
            std::abort();
        }
    }
    // Lines joined again parse to themselves (a line may still end in '\r' from "\r\r\n").
    if (!refused && std::none_of(lines.begin(), lines.end(), [](const std::string& l) { return l.back() == '\r'; })) {
        std::string joined;
        for (const std::string& line : lines) {
            joined += line + "\n";
        }
        if (parseInputList(joined, "again", limits) != lines) {
            std::abort();
        }
    }
    // The same bytes from a file read alike.
    const std::string path = tessera::fuzz::writeScratch("list.txt", data, size);
    try {
        if (readInputList(path, limits) != lines || refused) {
            std::abort();
        }
    } catch (const InputListError&) {
        if (!refused) {
            std::abort();
        }
    }
}

void checkShard(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    BatchShard shard;
    try {
        shard = parseShard(text);
    } catch (const std::invalid_argument&) {
        return;
    }
    if (shard.index < 1 || shard.index > shard.count || shard.count > kMaxShards) {
        std::abort();
    }
    const BatchShard again = parseShard(shard.text());
    if (again.index != shard.index || again.count != shard.count) {
        std::abort();
    }
    for (std::size_t p = 0; p < 64; ++p) {
        if (shard.holds(p) != (static_cast<int>(p % static_cast<std::size_t>(shard.count)) + 1 == shard.index)) {
            std::abort();
        }
    }
}

void checkMerge(const std::uint8_t* data, std::size_t size)
{
    const std::vector<std::string> parts = tessera::fuzz::splitAtNul(data, size);
    std::vector<ReportText> reports;
    for (std::size_t i = 0; i < parts.size() && i < 8; ++i) {
        reports.push_back({"r" + std::to_string(i) + ".json", parts[i]});
    }
    try {
        const MergedReport merged = mergeReports(reports);
        const auto doc = nlohmann::json::parse(merged.json);
        if (doc["files"].size() != merged.total ||
            merged.ok + merged.skipped + merged.failed + merged.cancelled > merged.total) {
            std::abort();
        }
    } catch (const ReportUnreadable&) {
    } catch (const ReportsDisagree&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0) {
        return 0;
    }
    switch (data[0]) {
    case 's': checkShard(data + 1, size - 1); break;
    case 'm': checkMerge(data + 1, size - 1); break;
    default: checkList(data + 1, size - 1); break;
    }
    return 0;
}
