// SPDX-License-Identifier: Apache-2.0
// run(): a plan carried out on a stream. Planning is executor.cpp's.
#include "tessera/gpu/executor.h"

#include "gpu/runtime/cuda_check.cuh"
#include "gpu/plan/plan_data.h"
#include "gpu/kernels/tensor/tensor_conv.h"
#include "values/errors.h"

#include <mutex>

namespace tessera::gpu {

void run(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, void* workspace, const Stream& stream,
         RowSpan rows)
{
    run(plan, src, dst, workspace, StreamView(stream), rows);
}

namespace {

/// The plan's direct taps on its device (uploaded at the first call), or null where the variant
/// does not use them.
const float* directTapsOf(const Plan& plan)
{
    const PlanData& data = *plan.data;
    if (!data.directTaps) {
        return nullptr;
    }
    DeviceTaps& taps = *data.directTaps;
    std::call_once(taps.once, [&] {
        taps.buffer = uploadNow(data.taps.data(), data.taps.size() * sizeof(float), plan.device);
    });
    return static_cast<const float*>(taps.buffer.data());
}

}  // namespace

void run(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, void* workspace, StreamView stream,
         RowSpan rows)
{
    if (src.width != plan.width || src.height != plan.height || dst.width != plan.width ||
        dst.height != plan.height) {
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
    switch (plan.shape.variant) {
    case KernelVariant::DirectRgba8Walk:
    case KernelVariant::DirectRgba8Imma:
    case KernelVariant::DirectFixed:
    case KernelVariant::DirectTiled: {
        const float* globalTaps = nullptr;
        if (data.pinnedTaps) {
            TESSERA_CUDA_CHECK(cudaMemcpyAsync(ws, data.pinnedTaps->data(), data.pinnedTaps->bytes(),
                                               cudaMemcpyHostToDevice, detail::cudaStreamOf(stream)));
            globalTaps = reinterpret_cast<const float*>(ws);
        }
        detail::launchDirect(plan, src, target, globalTaps, stream);
        break;
    }
    case KernelVariant::DirectTensor:
    case KernelVariant::DirectTensorPersistent: {
        auto* counter = reinterpret_cast<unsigned*>(ws + data.tileCounterOffset);
        detail::launchTensorDirect(plan, src, target, counter, rows, stream);
        break;
    }
    case KernelVariant::SeparableWalk:
    case KernelVariant::SeparableTf32Walk:
    case KernelVariant::SeparableSingle:
    case KernelVariant::SeparableTiled:
    case KernelVariant::SeparableTwoPass:
        detail::launchSeparable(plan, src, target, ws + data.separableWorkspaceOffset, directTapsOf(plan), stream);
        break;
    case KernelVariant::SeparableTensorWalk:
    case KernelVariant::SeparableTensor:
        detail::launchTensorSeparable(plan, src, target, stream);
        break;
    case KernelVariant::FftRows:
    case KernelVariant::Fft: {
        const float* direct = directTapsOf(plan);
        if (plan.shape.variant == KernelVariant::Fft) {
            detail::launchFft(plan, src, target, ws + data.fftWorkspaceOffset, direct, stream);
        } else {
            detail::launchFftRows(plan, src, target, direct, stream);
        }
        break;
    }
    }
    if (data.needsConvert) {
        detail::launchConvert(target, dst, stream);
    }
}

}  // namespace tessera::gpu
