// SPDX-License-Identifier: Apache-2.0
// Saved device comparisons (the compare dialog's Load): the file is written to a scratch folder
// and read with loadComparison(), which promises std::runtime_error naming the file for anything
// it cannot use; what loads is saved again and must load again.
#include "fuzz_support.h"

#include "app/compare/compare_json.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string path = tessera::fuzz::writeScratch("comparison.json", data, size);
    tessera::app::SavedComparison saved;
    try {
        saved = tessera::app::loadComparison(path);
    } catch (const std::runtime_error& e) {
        if (std::string(e.what()).rfind(path, 0) != 0) {
            std::abort();  // the message names the file
        }
        return 0;
    }
    try {
        tessera::app::comparisonFromJson(tessera::app::toJson(saved));
    } catch (const std::runtime_error&) {
        std::abort();  // what loaded must survive a save and a reload
    }
    return 0;
}
