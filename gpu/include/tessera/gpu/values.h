// SPDX-License-Identifier: Apache-2.0
#pragma once

// gpu/ works in the values every layer shares (values/: device ids and properties, methods, run
// reports, errors, geometry) and names them without qualification. Other layers write values::.

namespace tessera::values {
}

namespace tessera::gpu {
using namespace tessera::values;
}  // namespace tessera::gpu
