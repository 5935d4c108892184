// SPDX-License-Identifier: Apache-2.0
#include "values/log.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <mutex>

#include <unistd.h>

namespace tessera::values {

namespace detail {
std::atomic<unsigned> logMask{kLogUnread};
}  // namespace detail

namespace {

struct NamedCategory {
    std::string_view name;
    LogCategory category;
};
constexpr NamedCategory kCategories[] = {
    {"device", LogCategory::Device},
    {"plan", LogCategory::Plan},
    {"fallback", LogCategory::Fallback},
    {"io", LogCategory::Io},
};

// The categories TESSERA_LOG gave, and those turned on since (-v); logMask is their union.
std::atomic<unsigned> environmentMask{0};
std::atomic<unsigned> extraMask{0};

std::mutex sinkMutex;  // guards sink and orders the lines of threads that log at once
std::function<void(std::string_view)> sink;

void publish() noexcept
{
    detail::logMask.store(environmentMask.load() | extraMask.load());
}

}  // namespace

void writeToStderr(std::string_view text) noexcept
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(STDERR_FILENO, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return;  // a closed or full stderr: nothing better to do with a diagnostic
        }
        done += static_cast<std::size_t>(n);
    }
}

unsigned parseLogCategories(std::string_view text, std::string* unknown)
{
    unsigned mask = 0;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = text.find_first_of(", ", at);
        const std::string_view raw = text.substr(at, end == std::string_view::npos ? text.size() - at : end - at);
        at = end == std::string_view::npos ? text.size() : end + 1;
        if (raw.empty()) {
            continue;
        }
        std::string word(raw);
        std::transform(word.begin(), word.end(), word.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (word == "all" || word == "1") {
            mask |= kAllLogCategories;
            continue;
        }
        if (word == "0" || word == "none") {
            continue;
        }
        const auto* found = std::find_if(std::begin(kCategories), std::end(kCategories),
                                         [&](const NamedCategory& c) { return c.name == word; });
        if (found != std::end(kCategories)) {
            mask |= static_cast<unsigned>(found->category);
        } else if (unknown != nullptr) {
            *unknown += (unknown->empty() ? "" : ",") + std::string(raw);
        }
    }
    return mask;
}

std::string_view logCategoryName(LogCategory category) noexcept
{
    for (const NamedCategory& c : kCategories) {
        if (c.category == category) {
            return c.name;
        }
    }
    return "log";
}

unsigned detail::readLogEnvironment() noexcept
{
    static std::once_flag once;
    try {
        std::call_once(once, [] {
            const char* value = std::getenv("TESSERA_LOG");
            std::string unknown;
            environmentMask.store(value != nullptr ? parseLogCategories(value, &unknown) : 0u);
            publish();
            if (!unknown.empty()) {
                writeToStderr("tessera: TESSERA_LOG: unknown category '" + unknown +
                              "' left out (known: device, plan, fallback, io, all)\n");
            }
        });
    } catch (...) {
        publish();  // out of memory while reading the variable: no categories from it
    }
    return detail::logMask.load(std::memory_order_relaxed);
}

void setExtraLogCategories(unsigned mask) noexcept
{
    detail::readLogEnvironment();
    extraMask.store(mask & kAllLogCategories);
    publish();
}

void logLine(LogCategory category, std::string_view message) noexcept
{
    try {
        std::string line = "tessera[";
        line += logCategoryName(category);
        line += "]: ";
        line += message;
        std::replace(line.begin(), line.end(), '\n', ' ');
        line += '\n';
        const std::lock_guard lock(sinkMutex);
        if (sink) {
            sink(line);
        } else {
            writeToStderr(line);
        }
    } catch (...) {
        // Out of memory for a diagnostic, or a test's sink threw: drop the line.
    }
}

void setLogSink(std::function<void(std::string_view line)> newSink)
{
    const std::lock_guard lock(sinkMutex);
    sink = std::move(newSink);
}

void resetLogForTests() noexcept
{
    // The variable is read again at the next check (the once flag is spent: read it here).
    const char* value = std::getenv("TESSERA_LOG");
    environmentMask.store(value != nullptr ? parseLogCategories(value) : 0u);
    extraMask.store(0);
    publish();
}

}  // namespace tessera::values
