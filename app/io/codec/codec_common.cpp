// SPDX-License-Identifier: Apache-2.0
#include "app/io/codec/codec.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace tessera::app::codec {

void checkSize(int width, int height, const DecodeBudget& budget)
{
    if (width <= 0 || height <= 0) {
        throw CodecError("the header gives an image size of " + std::to_string(width) + " x " + std::to_string(height));
    }
    const std::string size = std::to_string(width) + " x " + std::to_string(height);
    if (width > budget.maxWidth || height > budget.maxHeight) {
        throw CodecError(size + " exceeds the limit of " + std::to_string(budget.maxWidth) + " x " +
                         std::to_string(budget.maxHeight));
    }
    const std::uint64_t pixels = std::uint64_t(width) * std::uint64_t(height);
    if (pixels > budget.maxPixels) {
        throw CodecError(size + " (" + std::to_string(pixels) + " pixels) exceeds the limit of " +
                         std::to_string(budget.maxPixels) + " pixels");
    }
}

void checkCancel(const DecodeBudget& budget)
{
    if (budget.cancel != nullptr && budget.cancel->load(std::memory_order_relaxed)) {
        throw DecodeCancelled();
    }
}

void reportProgress(const DecodeBudget& budget, std::int64_t done, std::int64_t total)
{
    if (budget.progress && total > 0) {
        budget.progress(std::clamp(static_cast<double>(done) / static_cast<double>(total), 0.0, 1.0));
    }
}

void ioDiagnostic(std::string_view source, std::string_view message)
{
    static const bool enabled = [] {
        const char* value = std::getenv("TESSERA_DIAGNOSTICS");
        return value != nullptr && std::strcmp(value, "1") == 0;
    }();
    if (!enabled) {
        return;
    }
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
    std::fprintf(stderr, "tessera: diagnostic: %.*s: %.*s\n", static_cast<int>(source.size()), source.data(),
                 static_cast<int>(message.size()), message.data());
}

}  // namespace tessera::app::codec
