// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: host-side plumbing shared by the kernel launchers.

#include "filters/filter_spec.h"
#include "gpu/runtime/cuda_check.cuh"
#include "values/errors.h"
#include "tessera/gpu/values.h"
#include "gpu/kernels/common/kernel_common.cuh"
#include "tessera/gpu/pixel_format.h"
#include "gpu/plan/variant_support.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace tessera::gpu::detail {

/// The kernels' code for a border mode.
inline int borderCode(filters::Border b)
{
    switch (b) {
    case filters::Border::Reflect101: return kReflect101;
    case filters::Border::Reflect: return kReflect;
    case filters::Border::Replicate: return kReplicate;
    case filters::Border::Constant: return kConstant;
    case filters::Border::Wrap: return kWrap;
    }
    return kReflect101;
}

/// True unless the border is constant with a value that is not a whole number from 0 to 255:
/// the kernels that keep 8-bit windows in bytes can only fill the border with a byte.
inline bool borderFitsByte(filters::Border border, double value)
{
    return border != filters::Border::Constant || (value >= 0.0 && value <= 255.0 && value == std::floor(value));
}

/// The constant border as a packed RGBA8 pixel: its byte in every channel.
inline unsigned borderPixelRgba8(float value)
{
    const auto byte = static_cast<unsigned>(std::lround(std::clamp(static_cast<double>(value), 0.0, 255.0)));
    return byte * 0x01010101u;
}

/// Geometry, border and offset of `spec` applied to src -> dst (taps travel separately).
inline ConvParams makeConvParams(const filters::FilterSpec& spec, const DeviceImage& src, const DeviceImage& dst)
{
    const filters::Point anchor = spec.effectiveAnchor();
    ConvParams p;
    p.src = src.data;
    p.srcPitch = src.pitch;
    p.dst = dst.data;
    p.dstPitch = dst.pitch;
    p.width = src.width;
    p.height = src.height;
    p.kw = spec.kernel.width;
    p.kh = spec.kernel.height;
    p.anchorX = anchor.x;
    p.anchorY = anchor.y;
    p.border = borderCode(spec.border);
    p.borderValue = static_cast<float>(spec.borderValue);
    p.offset = static_cast<float>(spec.offset);
    return p;
}

/// Calls f.template operator()<Tin, Tout>() for the depth pairs the kernels are built for: the
/// output in the input's depth or in float (other pairs go through a float intermediate).
template <typename F>
void dispatchDepths(PixelDepth in, PixelDepth out, const char* what, F&& f)
{
    if (in == PixelDepth::U8 && out == PixelDepth::U8) {
        f.template operator()<std::uint8_t, std::uint8_t>();
    } else if (in == PixelDepth::U8 && out == PixelDepth::F32) {
        f.template operator()<std::uint8_t, float>();
    } else if (in == PixelDepth::U16 && out == PixelDepth::U16) {
        f.template operator()<std::uint16_t, std::uint16_t>();
    } else if (in == PixelDepth::U16 && out == PixelDepth::F32) {
        f.template operator()<std::uint16_t, float>();
    } else if (in == PixelDepth::F32 && out == PixelDepth::F32) {
        f.template operator()<float, float>();
    } else {
        // The planner sends every other pair through a float intermediate.
        throw PreconditionError(std::string(what) + ": no variant for " + PixelFormat{in, 1}.name() + " -> " +
                                PixelFormat{out, 1}.name());
    }
}

/// Calls f.template operator()<C>() for 1, 3 or 4 channels.
template <typename F>
void dispatchChannelCount(int channels, const char* what, F&& f)
{
    switch (channels) {
    case 1: f.template operator()<1>(); break;
    case 3: f.template operator()<3>(); break;
    case 4: f.template operator()<4>(); break;
    // Planning refuses other channel counts.
    default: throw PreconditionError(std::string(what) + ": unsupported channel count " + std::to_string(channels));
    }
}

/// The direct variants' launch parameters for `a`: its images and spec, with taps too many for the
/// launch parameters copied first to the start of the workspace, where the kernels read them
/// (workspaceSpilledTaps planned that). Throws CudaError.
ConvParams directParams(const LaunchArgs& a);

/// The plan's direct taps on its device, uploaded at the first call and shared by every run of
/// the plan (PlanData::directTaps: the variants that compute outputs that are not finite again as
/// direct sums); null where the variant keeps none. Throws CudaError.
const float* uploadedDirectTaps(const Plan& plan);

/// Lets `kernel` use `bytes` of dynamic shared memory: above the default limit a kernel must opt
/// in, once per kernel and device. Throws CudaError.
template <typename Kernel>
inline void allowShared(Kernel kernel, std::size_t bytes)
{
    if (bytes > kDefaultDynamicSharedBytes) {
        TESSERA_CUDA_CHECK(
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
    }
}

}  // namespace tessera::gpu::detail
