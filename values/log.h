// SPDX-License-Identifier: Apache-2.0
#pragma once

// Diagnostics by category for people asking what a run did and why: TESSERA_LOG names the
// categories to show (device, plan, fallback, io, or all), each line goes to standard error as
// "tessera[plan]: ...". Off, a call site costs one relaxed atomic load and a branch: the message
// is only formatted once its category is known to be on. No Qt, no CUDA, no OpenCV, so every
// layer and every program (tessera, tessera-cli, tessera-bench) shares one switch.

#include <atomic>
#include <functional>
#include <string>
#include <string_view>

namespace tessera::values {

/// What a diagnostic line is about.
enum class LogCategory : unsigned {
    Device = 1u << 0,    ///< which devices a run or a lease takes, and what was found
    Plan = 1u << 1,      ///< which method, variant and tiles a run was planned with
    Fallback = 1u << 2,  ///< work that moved: another GPU, smaller tiles, the CPU path, another decoder
    Io = 1u << 3,        ///< which decoder or encoder, the files read and written
};

/// Every category ("all").
inline constexpr unsigned kAllLogCategories = 0xFu;

/// The categories a TESSERA_LOG value names: words separated by commas or spaces, any case;
/// "all" (or "1") is every category, "" or "0" none. Words it does not know are appended to
/// unknown (comma-separated) when given. Never throws beyond allocation.
unsigned parseLogCategories(std::string_view text, std::string* unknown = nullptr);

/// "device", "plan", "fallback" or "io".
std::string_view logCategoryName(LogCategory category) noexcept;

namespace detail {
/// Bit 31 set: TESSERA_LOG has not been read yet.
inline constexpr unsigned kLogUnread = 1u << 31;
extern std::atomic<unsigned> logMask;
/// Reads TESSERA_LOG (once; a word it does not know is named on standard error) and returns the mask.
unsigned readLogEnvironment() noexcept;
}  // namespace detail

/// Whether category's lines are shown: TESSERA_LOG's categories and those enabled since.
/// Thread-safe; after the first call one relaxed atomic load.
inline bool logEnabled(LogCategory category) noexcept
{
    unsigned mask = detail::logMask.load(std::memory_order_relaxed);
    if ((mask & detail::kLogUnread) != 0) [[unlikely]] {
        mask = detail::readLogEnvironment();
    }
    return (mask & static_cast<unsigned>(category)) != 0;
}

/// Shows the categories of mask besides TESSERA_LOG's (-v, --verbose: all); 0 takes them back
/// to TESSERA_LOG's alone. Thread-safe, never throws.
void setExtraLogCategories(unsigned mask) noexcept;

/// Writes "tessera[<category>]: <message>" and a newline to standard error in one write (a
/// newline inside message becomes a space), whether or not the category is on: call it behind
/// logEnabled(), or use logIf(). Thread-safe; never throws.
void logLine(LogCategory category, std::string_view message) noexcept;

/// Calls message() (returning the text) and writes its line only when category is on.
template <typename MessageFn>
void logIf(LogCategory category, MessageFn&& message)
{
    if (logEnabled(category)) {
        logLine(category, message());
    }
}

/// Writes all of text to standard error (write(2), again after EINTR; a closed or full stderr
/// ends it quietly). No lock: callers that interleave lines hold their own.
void writeToStderr(std::string_view text) noexcept;

/// For tests: every line (with its newline) goes to sink instead of standard error; an empty
/// sink restores standard error. Thread-safe.
void setLogSink(std::function<void(std::string_view line)> sink);

/// For tests: reads TESSERA_LOG again now and drops the extra categories. Thread-safe.
void resetLogForTests() noexcept;

}  // namespace tessera::values
