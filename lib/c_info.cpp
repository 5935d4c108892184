// SPDX-License-Identifier: Apache-2.0
// The JSON texts of tessera_filters_json and tessera_devices_json: the very documents that
// `tessera-cli filters --json` and `tessera-cli devices --json` print, on one line.
#include "lib/c_info.h"

#include "filters/registry_json.h"
#include "tessera/gpu/device_info.h"
#include "values/device_json.h"

namespace tessera::capi {

std::string filtersJson()
{
    return filters::registryJson(filters::builtinRegistry(), -1);
}

std::string devicesJson()
{
    return values::devicesJson(gpu::enumerateDevices(), -1);
}

}  // namespace tessera::capi
