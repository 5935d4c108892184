// SPDX-License-Identifier: Apache-2.0
#pragma once

// Lets GoogleTest print kernel variants by name in failure messages.

#include "tessera/gpu/kernel_variant.h"

#include <ostream>

namespace tessera::gpu {

inline void PrintTo(KernelVariant v, std::ostream* os)
{
    *os << toString(v);
}

}  // namespace tessera::gpu
