// SPDX-License-Identifier: Apache-2.0
#include "app/io/path_text.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace tessera::app {

namespace {

constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD
constexpr char kHex[] = "0123456789ABCDEF";

// The length of the well-formed UTF-8 sequence that starts at s[i], or 0 when s[i] starts none
// (Unicode's table of well-formed byte sequences, chapter 3).
std::size_t sequenceLength(std::string_view s, std::size_t i)
{
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b0 = at(i);
    if (b0 < 0x80) {
        return 1;
    }
    std::size_t length = 0;
    unsigned char low = 0x80;   // the range of the second byte, narrowed for the lead bytes
    unsigned char high = 0xBF;  // that would otherwise allow overlongs, surrogates or > U+10FFFF
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        length = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        length = 3;
        if (b0 == 0xE0) {
            low = 0xA0;
        } else if (b0 == 0xED) {
            high = 0x9F;
        }
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        length = 4;
        if (b0 == 0xF0) {
            low = 0x90;
        } else if (b0 == 0xF4) {
            high = 0x8F;
        }
    } else {
        return 0;  // a continuation byte, C0, C1 or F5..FF
    }
    if (s.size() - i < length || at(i + 1) < low || at(i + 1) > high) {
        return 0;
    }
    for (std::size_t k = 2; k < length; ++k) {
        if ((at(i + k) & 0xC0) != 0x80) {
            return 0;
        }
    }
    return length;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

template <class Json>
void putPathIn(Json& object, std::string_view key, const std::string& path)
{
    if (isUtf8(path)) {
        object[std::string(key)] = path;
        object.erase(bytesKey(key));  // a byte form left from an earlier value would overrule it
        return;
    }
    object[std::string(key)] = utf8Text(path);
    object[bytesKey(key)] = percentEncodeName(path);
}

template <class Json>
std::string pathFromIn(const Json& object, std::string_view key)
{
    const std::string name(key);
    const auto text = object.find(name);
    if (text == object.end() || !text->is_string()) {
        throw std::invalid_argument("\"" + name + "\" is missing or not a string");
    }
    const std::string bytesName = bytesKey(key);
    const auto bytes = object.find(bytesName);
    if (bytes == object.end()) {
        return text->template get<std::string>();
    }
    if (!bytes->is_string()) {
        throw std::invalid_argument("\"" + bytesName + "\" is not a string");
    }
    std::string path;
    try {
        path = percentDecodeName(bytes->template get<std::string>());
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("\"" + bytesName + "\" is not a percent-encoded name: " + e.what());
    }
    // A tool that rewrote the text field but left the byte form would otherwise be overruled.
    if (utf8Text(path) != text->template get<std::string>()) {
        throw std::invalid_argument("\"" + bytesName + "\" does not match \"" + name + "\"");
    }
    return path;
}

}  // namespace

bool isUtf8(std::string_view bytes)
{
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t length = sequenceLength(bytes, i);
        if (length == 0) {
            return false;
        }
        i += length;
    }
    return true;
}

std::string utf8Text(std::string_view bytes)
{
    std::string text;
    text.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t length = sequenceLength(bytes, i);
        if (length == 0) {
            text += kReplacement;
            ++i;
        } else {
            text.append(bytes.substr(i, length));
            i += length;
        }
    }
    return text;
}

std::string percentEncodeName(std::string_view bytes)
{
    std::string text;
    text.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t length = sequenceLength(bytes, i);
        if (length == 0 || bytes[i] == '%') {
            const auto b = static_cast<unsigned char>(bytes[i]);
            text += '%';
            text += kHex[b >> 4];
            text += kHex[b & 0xF];
            ++i;
        } else {
            text.append(bytes.substr(i, length));
            i += length;
        }
    }
    return text;
}

std::string percentDecodeName(std::string_view text)
{
    std::string bytes;
    bytes.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            bytes += text[i];
            continue;
        }
        if (text.size() - i < 3 || hexValue(text[i + 1]) < 0 || hexValue(text[i + 2]) < 0) {
            throw std::invalid_argument("'%' at byte " + std::to_string(i) + " is not followed by two hex digits");
        }
        bytes += static_cast<char>(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2]));
        i += 2;
    }
    return bytes;
}

std::string bytesKey(std::string_view key)
{
    return std::string(key) + "_bytes";
}

void putPath(nlohmann::json& object, std::string_view key, const std::string& path)
{
    putPathIn(object, key, path);
}

void putPath(nlohmann::ordered_json& object, std::string_view key, const std::string& path)
{
    putPathIn(object, key, path);
}

std::string pathFrom(const nlohmann::json& object, std::string_view key)
{
    return pathFromIn(object, key);
}

std::string pathFrom(const nlohmann::ordered_json& object, std::string_view key)
{
    return pathFromIn(object, key);
}

std::string jsonText(const nlohmann::json& doc, int indent)
{
    return doc.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string jsonText(const nlohmann::ordered_json& doc, int indent)
{
    return doc.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace tessera::app
