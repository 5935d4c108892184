// SPDX-License-Identifier: Apache-2.0
#pragma once

// Small text helpers shared by the filters library's messages and parsers (not installed API).

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <string>

namespace tessera::filters::detail {

/// Lower-case copy (ASCII).
inline std::string lowered(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

/// Copy without leading and trailing blanks.
inline std::string trimmed(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

/// A number as people write it: "3", "0.25", "1e-07" (no trailing zeros).
inline std::string formatNumber(double value)
{
    std::ostringstream out;
    out.precision(10);
    out << value;
    return out.str();
}

}  // namespace tessera::filters::detail
