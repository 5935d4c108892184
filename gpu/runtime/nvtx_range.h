// SPDX-License-Identifier: Apache-2.0
#pragma once

// Inside gpu/: a named NVTX range for the scope, so Nsight Systems shows Tessera's phases by
// name. NVTX costs nothing when no tool is attached.

#include <nvtx3/nvToolsExt.h>

#include <string>

namespace tessera::gpu {

class NvtxRange {
public:
    explicit NvtxRange(const std::string& name) { nvtxRangePushA(name.c_str()); }
    ~NvtxRange() { nvtxRangePop(); }
    NvtxRange(const NvtxRange&) = delete;
    NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace tessera::gpu
