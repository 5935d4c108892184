// SPDX-License-Identifier: Apache-2.0
// Batch output name templates (--name): the first NUL-separated part is the template, the
// others fill {stem}, {ext} and {filter}. Only std::invalid_argument may come out, and a template
// checkNameTemplate() accepts must expand for ordinary fields.
#include "fuzz_support.h"

#include "app/batch/batch_naming.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::vector<std::string> parts = tessera::fuzz::splitAtNul(data, size);
    const std::string& nameTemplate = parts[0];
    tessera::app::NameFields fields;
    fields.stem = parts.size() > 1 ? parts[1] : "photo";
    fields.ext = parts.size() > 2 ? parts[2] : "png";
    fields.filter = parts.size() > 3 ? parts[3] : "gaussian+box";
    fields.index = 7;
    fields.count = size > 0 ? static_cast<int>(data[0]) * 1000 : 1;
    fields.date = "2024-05-31";
    bool accepted = true;
    try {
        tessera::app::checkNameTemplate(nameTemplate);
    } catch (const std::invalid_argument&) {
        accepted = false;
    }
    try {
        const std::string name = tessera::app::expandNameTemplate(nameTemplate, fields);
        if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
            name.find('\\') != std::string::npos) {
            std::abort();
        }
    } catch (const std::invalid_argument&) {
    }
    if (accepted) {
        tessera::app::NameFields plain;
        plain.stem = "photo";
        plain.ext = "png";
        plain.filter = "box";
        plain.date = "2024-05-31";
        try {
            tessera::app::expandNameTemplate(nameTemplate, plain);
        } catch (const std::invalid_argument&) {
            std::abort();
        }
    }
    return 0;
}
