// SPDX-License-Identifier: Apache-2.0
// run(): a plan carried out on a stream. Planning is plan/planner.cpp's.
#include "tessera/gpu/executor.h"

#include "gpu/plan/plan_data.h"
#include "gpu/plan/variant_support.h"
#include "values/errors.h"
#include "tessera/gpu/values.h"

namespace tessera::gpu {

void run(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, void* workspace, const Stream& stream,
         RowSpan rows)
{
    run(plan, src, dst, workspace, StreamView(stream), rows);
}

void run(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, void* workspace, StreamView stream,
         RowSpan rows)
{
    if (src.width != plan.width || src.height != plan.height || dst.width != plan.width || dst.height != plan.height) {
        throw InvalidInput("run: image size differs from the plan's");
    }
    if (!(src.format == plan.input) || !(dst.format == plan.output)) {
        throw InvalidInput("run: image format differs from the plan's (" + src.format.name() + " -> " +
                           dst.format.name() + " given, " + plan.input.name() + " -> " + plan.output.name() +
                           " planned)");
    }
    if (plan.workspaceBytes > 0 && workspace == nullptr) {
        throw InvalidInput("run: the plan needs a workspace");
    }
    if (stream.device() != plan.device) {
        throw InvalidInput("run: the stream is on another device than the plan");
    }
    if (!plan.data || plan.method == Method::Auto) {
        throw PreconditionError("run: a plan that makePlan did not make");
    }
    const PlanData& data = *plan.data;
    ScopedDevice on(plan.device);
    auto* ws = static_cast<char*>(workspace);

    DeviceImage target = dst;
    if (data.needsConvert) {
        target.data = ws + data.convertWorkspaceOffset;
        target.pitch = static_cast<std::size_t>(plan.width) * plan.input.channels * sizeof(float);
        target.format = data.kernelOutput;
    }
    // The variant's own launch (its row in the variant table): no code here knows which it is.
    detail::variantEntry(plan.shape.variant).run(detail::LaunchArgs{plan, src, target, ws, stream, rows});
    if (data.needsConvert) {
        detail::launchConvert(target, dst, stream);
    }
}

}  // namespace tessera::gpu
