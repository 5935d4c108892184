// SPDX-License-Identifier: Apache-2.0
// Plan::describe(): a plan's shape in words, with what its variant's row adds.
#include "tessera/gpu/executor.h"

#include "gpu/plan/variant_support.h"

#include <cstdio>

namespace tessera::gpu {

std::string Plan::describe() const
{
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "%s %dx%d %s->%s, variant %s, block %dx%d, tile %dx%d, grid %dx%d, smem %zu B, workspace %zu B",
                  toString(method).c_str(), spec.kernel.width, spec.kernel.height, input.name().c_str(),
                  output.name().c_str(), toString(shape.variant).c_str(), shape.blockX, shape.blockY, shape.tileWidth,
                  shape.tileHeight, shape.gridX, shape.gridY, shape.sharedBytes, workspaceBytes);
    std::string text = buf;
    if (shape.compiledSize > 0) {
        text += ", compiled for " + std::to_string(shape.compiledSize);
    }
    if (const detail::VariantEntry& entry = detail::variantEntry(shape.variant); entry.details != nullptr) {
        text += entry.details(*this);
    }
    return text + (tensorCores ? ", tensor cores" : "") + (reason.empty() ? "" : " (" + reason + ")");
}

}  // namespace tessera::gpu
