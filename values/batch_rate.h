// SPDX-License-Identifier: Apache-2.0
#pragma once

// How fast a batch goes and how long it has left, from its counts and its clock, worded the
// same way by the command line's progress line and the batch dialog.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace tessera::values {

/// Files finished per second so far; 0 before the first one or before any time has passed.
inline double filesPerSecond(int done, double elapsedSeconds)
{
    return done > 0 && elapsedSeconds > 0 ? done / elapsedSeconds : 0.0;
}

/// The seconds the rest would take at the rate so far; nothing before the first file is done
/// or once every file is.
inline std::optional<double> secondsLeft(int done, int total, double elapsedSeconds)
{
    const double rate = filesPerSecond(done, elapsedSeconds);
    if (rate <= 0 || done >= total) {
        return std::nullopt;
    }
    return (total - done) / rate;
}

/// "42 s", "3 min 05 s", "2 h 07 min": seconds rounded up, the two largest units.
inline std::string durationText(double seconds)
{
    const long s = std::lround(std::ceil(std::max(0.0, seconds)));
    char text[32];
    if (s < 60) {
        std::snprintf(text, sizeof text, "%ld s", s);
    } else if (s < 3600) {
        std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
    } else {
        std::snprintf(text, sizeof text, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
    }
    return text;
}

/// "12.4 files/s, about 3 min 05 s left" (the rest left out while it cannot be told yet).
inline std::string rateText(int done, int total, double elapsedSeconds)
{
    const double rate = filesPerSecond(done, elapsedSeconds);
    if (rate <= 0) {
        return {};
    }
    char text[48];
    std::snprintf(text, sizeof text, rate < 10 ? "%.2f files/s" : "%.1f files/s", rate);
    std::string out = text;
    if (const std::optional<double> left = secondsLeft(done, total, elapsedSeconds)) {
        out += ", about " + durationText(*left) + " left";
    }
    return out;
}

}  // namespace tessera::values
