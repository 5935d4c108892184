// SPDX-License-Identifier: Apache-2.0
#include "app/batch/input_list.h"

#include "files/input_file.h"

namespace tessera::app {

namespace {

bool blank(std::string_view line)
{
    return line.find_first_not_of(" \t") == std::string_view::npos;
}

}  // namespace

std::string inputListName(const std::string& path)
{
    return path == "-" ? std::string("standard input") : path;
}

std::vector<std::string> parseInputList(std::string_view text, const std::string& name, const InputListLimits& limits)
{
    if (text.size() > limits.maxBytes) {
        throw InputListError("input list " + name + " is larger than " + files::describeBytes(limits.maxBytes));
    }
    std::vector<std::string> inputs;
    std::size_t lineNumber = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        ++lineNumber;
        if (lineNumber > limits.maxLines) {
            throw InputListError("input list " + name + " has more than " + std::to_string(limits.maxLines) + " lines");
        }
        const std::size_t end = text.find('\n', start);
        std::string_view line =
            text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        start = end == std::string_view::npos ? text.size() : end + 1;
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (line.find('\0') != std::string_view::npos) {
            throw InputListError("input list " + name + ", line " + std::to_string(lineNumber) +
                                 ": a NUL byte (a list holds one path a line, as text)");
        }
        if (!blank(line)) {
            inputs.emplace_back(line);
        }
    }
    return inputs;
}

std::vector<std::string> readInputList(const std::string& path, const InputListLimits& limits)
{
    // Under the input rule with pipes taken: a regular file, a FIFO (`<(find ...)`), or for "-"
    // whatever standard input is except a folder; reading stops one byte past the bound.
    std::string text;
    try {
        text = files::readInputFile(path, {"an input list", limits.maxBytes, true});
    } catch (const files::InputFileError& e) {
        throw InputListError(
            (path == "-" ? std::string("the input list on standard input") : "input list " + e.path()) + ": " +
            e.reason());
    }
    return parseInputList(text, inputListName(path), limits);
}

}  // namespace tessera::app
