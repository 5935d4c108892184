// SPDX-License-Identifier: Apache-2.0
// What several variants' launches share: the direct parameters with spilled taps, and the
// plan's direct taps on its device.
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/plan/plan_data.h"
#include "gpu/plan/variant_rows.h"

#include <mutex>

namespace tessera::gpu::detail {

ConvParams directParams(const LaunchArgs& a)
{
    ConvParams p = makeConvParams(a.plan.spec, a.src, a.dst);
    const PlanData& data = *a.plan.data;
    if (data.pinnedTaps) {
        TESSERA_CUDA_CHECK(cudaMemcpyAsync(a.workspace, data.pinnedTaps->data(), data.pinnedTaps->bytes(),
                                           cudaMemcpyHostToDevice, cudaStreamOf(a.stream)));
    }
    p.globalTaps = data.taps.size() > kMaxInlineDirectTaps ? reinterpret_cast<const float*>(a.workspace) : nullptr;
    return p;
}

const float* uploadedDirectTaps(const Plan& plan)
{
    const PlanData& data = *plan.data;
    if (!data.directTaps) {
        return nullptr;
    }
    DeviceTaps& taps = *data.directTaps;
    std::call_once(taps.once,
                   [&] { taps.buffer = uploadNow(data.taps.data(), data.taps.size() * sizeof(float), plan.device); });
    return static_cast<const float*>(taps.buffer.data());
}

}  // namespace tessera::gpu::detail
