// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <string_view>

// JSON from a user-named file is parsed with its nesting bounded before the tree grows: printing,
// comparing and copying a document recurse once per level, so 100,000 nested arrays (200 KB of
// text) would overflow the stack long after the parse itself succeeded.
namespace tessera::files {

/// The deepest nesting of arrays and objects read from a file: Tessera's own files use fewer
/// than 8 levels.
inline constexpr int kMaxJsonDepth = 64;

/// JSON text nested deeper than its bound; what() says how deep the bound is.
class JsonTooDeep : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parses text as Json (nlohmann::json or nlohmann::ordered_json) with at most maxDepth levels
/// of arrays and objects; the parse stops at the first level past it. Throws JsonTooDeep, and
/// Json::exception for text that is not JSON.
template <class Json>
Json parseBoundedJson(std::string_view text, int maxDepth = kMaxJsonDepth)
{
    // The callback sees each array and object as it opens, with the number already open.
    const typename Json::parser_callback_t bound = [maxDepth](int depth, typename Json::parse_event_t event, Json&) {
        if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) &&
            depth >= maxDepth) {
            throw JsonTooDeep("arrays and objects nested deeper than " + std::to_string(maxDepth) + " levels");
        }
        return true;
    };
    return Json::parse(text, bound);
}

}  // namespace tessera::files
