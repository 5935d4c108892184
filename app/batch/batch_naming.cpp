// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_naming.h"

#include <cctype>
#include <ctime>
#include <stdexcept>

namespace tessera::app {

namespace {

std::string padded(int value, int count)
{
    const std::string digits = std::to_string(value);
    const size_t width = std::to_string(count < 1 ? 1 : count).size();
    return digits.size() >= width ? digits : std::string(width - digits.size(), '0') + digits;
}

// Keeps names portable: the ids already are, but a user-given name may hold anything.
std::string fileSafe(const std::string& text)
{
    std::string out;
    for (unsigned char c : text) {
        out += (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '+' || c == '.') ? static_cast<char>(c) : '_';
    }
    return out;
}

}  // namespace

std::string expandNameTemplate(const std::string& nameTemplate, const NameFields& fields)
{
    std::string out;
    for (size_t i = 0; i < nameTemplate.size(); ++i) {
        const char c = nameTemplate[i];
        if (c == '}') {
            throw std::invalid_argument("name template '" + nameTemplate + "': '}' without '{'");
        }
        if (c != '{') {
            out += c;
            continue;
        }
        const size_t close = nameTemplate.find('}', i);
        if (close == std::string::npos) {
            throw std::invalid_argument("name template '" + nameTemplate + "': '{' without '}'");
        }
        const std::string field = nameTemplate.substr(i + 1, close - i - 1);
        if (field == "stem") {
            out += fields.stem;
        } else if (field == "ext") {
            out += fields.ext;
        } else if (field == "filter") {
            out += fileSafe(fields.filter);
        } else if (field == "index") {
            out += padded(fields.index, fields.count);
        } else if (field == "date") {
            out += fields.date;
        } else {
            throw std::invalid_argument("name template '" + nameTemplate + "': unknown field {" + field +
                                        "} (use {stem}, {ext}, {filter}, {index} or {date})");
        }
        i = close;
    }
    if (out.find_first_of("/\\") != std::string::npos) {
        throw std::invalid_argument("name template '" + nameTemplate + "' must give a file name, not a path");
    }
    if (out.empty() || out == "." || out == "..") {
        throw std::invalid_argument("name template '" + nameTemplate + "' gives an empty file name");
    }
    return out;
}

void checkNameTemplate(const std::string& nameTemplate)
{
    // A stem of one letter stands for any input: a template that fails here fails for all.
    expandNameTemplate(nameTemplate, {"a", "png", "f", 1, 1, "2000-01-01"});
}

std::string filterLabel(const filters::FilterChain& chain)
{
    if (chain.steps.empty()) {
        return "none";
    }
    std::string label;
    for (const auto& step : chain.steps) {
        label += (label.empty() ? "" : "+") + fileSafe(step.id);
    }
    return label;
}

std::string todayDate()
{
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    ::localtime_r(&now, &local);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", &local);
    return text;
}

}  // namespace tessera::app
