// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

// File names are bytes: on Linux nothing makes them UTF-8 (a Latin-1 name from an old archive
// or an SMB share is a legal name), while JSON text must be. Every path that goes into a JSON
// document goes through putPath() and comes back through pathFrom(), so that no name is lost
// and no writer fails on one. No Qt: a QString cannot hold such a name.
namespace tessera::app {

/// True when bytes is well-formed UTF-8 (RFC 3629: no overlong forms, no UTF-16 surrogates,
/// nothing past U+10FFFF).
bool isUtf8(std::string_view bytes);

/// bytes with each byte that is not part of a well-formed UTF-8 sequence replaced by U+FFFD;
/// for display and for the text field beside a percent form. Never throws.
std::string utf8Text(std::string_view bytes);

/// The exact, reversible text form of bytes: '%' and each byte outside a well-formed UTF-8
/// sequence as %XX (upper-case hex), everything else as it is. Always UTF-8. Never throws.
std::string percentEncodeName(std::string_view bytes);

/// Reverses percentEncodeName() (either case of hex digit is read). Throws
/// std::invalid_argument when a '%' is not followed by two hex digits.
std::string percentDecodeName(std::string_view text);

/// The field that holds key's percent form: key + "_bytes" ("input" -> "input_bytes").
std::string bytesKey(std::string_view key);

/// Sets object[key] to path when path is UTF-8; otherwise to utf8Text(path), and
/// object[bytesKey(key)] to percentEncodeName(path). object must be an object or null.
void putPath(nlohmann::json& object, std::string_view key, const std::string& path);
/// The same for documents that keep their fields' order.
void putPath(nlohmann::ordered_json& object, std::string_view key, const std::string& path);

/// The exact bytes that putPath() stored under key. Throws std::invalid_argument naming the
/// field when key is missing or not a string, or when bytesKey(key) is not a string, is not a
/// percent form or does not match key's text.
std::string pathFrom(const nlohmann::json& object, std::string_view key);
/// The same for documents that keep their fields' order.
std::string pathFrom(const nlohmann::ordered_json& object, std::string_view key);

/// doc as JSON text (indent < 0: on one line). A string that is not UTF-8 (a message naming a
/// file whose name is not) is written with U+FFFD in place of the bytes it cannot hold, instead
/// of failing the whole document. Never throws.
std::string jsonText(const nlohmann::json& doc, int indent = -1);
/// The same for documents that keep their fields' order.
std::string jsonText(const nlohmann::ordered_json& doc, int indent = -1);

}  // namespace tessera::app
