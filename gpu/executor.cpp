#include "gpu/executor.h"

#include "gpu/cuda_check.cuh"
#include "gpu/plan_data.h"
#include "gpu/tensor_conv.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace tessera::gpu {

std::string toString(Method m)
{
    switch (m) {
    case Method::Auto: return "auto";
    case Method::Direct: return "direct";
    case Method::Separable: return "separable";
    case Method::Fft: return "fft";
    }
    return "auto";
}

Method parseMethod(const std::string& text)
{
    for (Method m : {Method::Auto, Method::Direct, Method::Separable, Method::Fft}) {
        if (toString(m) == text) {
            return m;
        }
    }
    throw std::invalid_argument("unknown method '" + text + "' (expected auto, direct, separable or fft)");
}

std::string Plan::describe() const
{
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s %dx%d %s->%s, block %dx%d, tile %dx%d, grid %dx%d, smem %zu B, workspace %zu B",
                  toString(method).c_str(), spec.kernel.width, spec.kernel.height, input.name().c_str(),
                  output.name().c_str(), shape.blockX, shape.blockY, shape.tileWidth, shape.tileHeight, shape.gridX,
                  shape.gridY, shape.sharedBytes, workspaceBytes);
    return std::string(buf) + (tensorCores ? ", tensor cores" : "") + (reason.empty() ? "" : " (" + reason + ")");
}

namespace {

constexpr std::size_t kAlign = 256;

std::size_t alignUp(std::size_t n)
{
    return (n + kAlign - 1) / kAlign * kAlign;
}

PixelDepth resolveDepth(filters::OutputDepth d, PixelDepth in)
{
    switch (d) {
    case filters::OutputDepth::Same: return in;
    case filters::OutputDepth::U8: return PixelDepth::U8;
    case filters::OutputDepth::U16: return PixelDepth::U16;
    case filters::OutputDepth::F32: return PixelDepth::F32;
    }
    return in;
}

/// Rough kernel-time estimates in milliseconds, relative to one H200 (132 SMs at 1.98 GHz,
/// 4.15 TB/s copy bandwidth). They only need to rank the methods correctly.
struct CostModel {
    double fmaPerMs;     // sustained shared-memory FMA throughput of the direct kernels
    double bytesPerMs;   // achieved device-memory bandwidth
    double fftMsPerMpix; // one channel: forward + inverse transform and the spectrum product
    double mmaPerMs;     // sustained m16n8k16 fp16 tensor-core operations
    double valueMs;      // staging one pixel channel of a tensor-core window

    static CostModel forDevice(const DeviceInfo& d)
    {
        const double scale = d.smCount > 0 && d.clockKHz > 0 ? (d.smCount * d.clockKHz) / (132.0 * 1980000.0) : 1.0;
        const double bw = d.peakBandwidthGBs() > 0 ? d.peakBandwidthGBs() / 4800.0 : 1.0;
        return {1.2e10 * scale, 3.3e9 * bw, 0.030 / bw, 1.0e8 * scale, 1.2e-9 / scale};
    }

    /// Measured on an H200 (RGBA8 8192^2: 0.47 ms at 3x3, 0.83 at 15x15, 2.1 at 31x31): about
    /// 1e8 mma per ms plus a per-value cost of staging and converting the window.
    double tensor(double mmaCount, double values, double bytes) const
    {
        return std::max(mmaCount / mmaPerMs + values * valueMs, bytes / bytesPerMs);
    }

    double direct(double pixels, int channels, int taps, double bytes) const
    {
        return std::max(pixels * channels * taps / fmaPerMs, bytes / bytesPerMs);
    }
    double separable(double pixels, int channels, int kw, int kh, double bytes) const
    {
        // Horizontal pass runs over the halo rows too; about (kw + kh) taps per output.
        return std::max(pixels * channels * (kw + kh) * 1.3 / fmaPerMs, bytes / bytesPerMs);
    }
    double fft(double pixels, int channels, int kw, int kh) const
    {
        const double padded = pixels * (1.0 + (kw + kh) / 4096.0);
        return channels * padded / 1e6 * fftMsPerMpix + 0.05;
    }
};

/// True when making the shape does not throw (the method fits the device's shared memory).
template <typename F>
bool fits(F&& makeShape)
{
    try {
        makeShape();
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
}

}  // namespace

Plan makePlan(const filters::FilterSpec& spec, PixelFormat format, int width, int height, const DeviceInfo& device,
              Method force, TensorCores tensor)
{
    if (width < 1 || height < 1) {
        throw std::invalid_argument("cannot plan a filter for an empty image");
    }
    if (format.channels != 1 && format.channels != 3 && format.channels != 4) {
        throw std::invalid_argument("unsupported channel count " + std::to_string(format.channels));
    }
    Plan plan;
    plan.spec = spec;
    plan.input = format;
    plan.output = {resolveDepth(spec.depth, format.depth), format.channels};
    plan.width = width;
    plan.height = height;
    plan.device = device.id;

    auto data = std::make_shared<PlanData>();
    const int kw = spec.kernel.width;
    const int kh = spec.kernel.height;
    const double scale = spec.scale;
    data->taps.reserve(spec.kernel.weights.size());
    for (double w : spec.kernel.weights) {
        data->taps.push_back(static_cast<float>(w * scale));
    }
    if (spec.separable) {
        for (double w : spec.separable->row) {
            data->rowTaps.push_back(static_cast<float>(w * scale));
        }
        for (double w : spec.separable->column) {
            data->colTaps.push_back(static_cast<float>(w));
        }
    }
    // Kernels write their input depth or float; anything else goes through a float intermediate.
    const bool direct = plan.output.depth == format.depth || plan.output.depth == PixelDepth::F32;
    data->kernelOutput = direct ? plan.output : PixelFormat{PixelDepth::F32, format.channels};
    data->needsConvert = !direct;

    const std::size_t sharedLimit = device.sharedMemPerBlockOptin > 0 ? device.sharedMemPerBlockOptin : 48 * 1024;
    detail::ShapeQuery query;
    query.kw = kw;
    query.kh = kh;
    query.anchorX = spec.effectiveAnchor().x;
    query.anchorY = spec.effectiveAnchor().y;
    query.input = format;
    query.kernelOutput = data->kernelOutput;
    query.width = width;
    query.height = height;
    query.sharedLimit = sharedLimit;
    query.smCount = device.smCount;
    query.border = spec.border;
    query.borderValue = spec.borderValue;
    const double pixels = static_cast<double>(width) * height;
    const double bytes = pixels * static_cast<double>(format.bytesPerPixel() + plan.output.bytesPerPixel());
    const auto cost = CostModel::forDevice(device);
    const bool canSeparate = spec.separable.has_value() && kw <= 256 && kh <= 256;

    Method method = force;
    if (method == Method::Separable && !canSeparate) {
        throw std::invalid_argument("the separable method needs a rank-1 kernel of at most 256 taps per side");
    }
    const bool directFits =
        fits([&] { return detail::directShape(query); });
    const bool fused =
        canSeparate && fits([&] { return detail::separableShape(query); });
    // fp32 kernels; the two-pass separable form reads taps from global memory and moves a float
    // intermediate.
    const double tDirect32 = directFits ? cost.direct(pixels, format.channels, kw * kh, bytes) : 1e30;
    const double tSep32 = canSeparate ? cost.separable(pixels, format.channels, kw, kh, bytes) * (fused ? 1.0 : 4.0) : 1e30;
    auto tensorWhy = [&](bool separable) {
        return detail::tensorRefusal(spec, format, data->kernelOutput, device, separable, sharedLimit);
    };
    auto tensorCost = [&](bool separable) {
        if (tensor == TensorCores::Off || (separable && !canSeparate) || !tensorWhy(separable).empty()) {
            return 1e30;
        }
        return cost.tensor(detail::tensorMmaCount(spec, format.channels, width, height, separable),
                           pixels * format.channels, bytes);
    };
    const double tDirectTc = tensorCost(false);
    const double tSepTc = tensorCost(true);
    if (method == Method::Auto) {
        const double tDirect = std::min(tDirect32, tDirectTc);
        const double tSep = std::min(tSep32, tSepTc);
        const double tFft = kw * kh >= 64 || !directFits ? cost.fft(pixels, format.channels, kw, kh) : 1e30;
        char why[160];
        if (tSep <= tDirect && tSep <= tFft) {
            method = Method::Separable;
        } else if (tFft < tDirect) {
            method = Method::Fft;
        } else {
            method = Method::Direct;
        }
        std::snprintf(why, sizeof why, "estimated ms: direct %.3g, separable %.3g, fft %.3g", tDirect,
                      tSep < 1e29 ? tSep : -1.0, tFft < 1e29 ? tFft : -1.0);
        plan.reason = why;
    } else {
        plan.reason = "forced";
    }
    if (method == Method::Direct || method == Method::Separable) {
        const bool separable = method == Method::Separable;
        if (tensor == TensorCores::On) {
            const std::string why = tensorWhy(separable);
            if (!why.empty()) {
                throw std::invalid_argument("tensor cores cannot run this filter: " + why);
            }
            plan.tensorCores = true;
        } else {
            plan.tensorCores = separable ? tSepTc < tSep32 : tDirectTc < tDirect32;
        }
        if (plan.tensorCores) {
            char bound[96];
            std::snprintf(bound, sizeof bound, "; fp16 taps, error at most %.2g", detail::tensorErrorBound(spec, separable));
            plan.reason += bound;
        }
    }
    plan.method = method;

    std::size_t workspace = 0;
    switch (method) {
    case Method::Direct:
        if (plan.tensorCores) {
            plan.shape = detail::tensorDirectShape(spec, format.channels, width, height);
            data->tileCounterOffset = workspace;
            data->deviceTaps = std::make_shared<DeviceTaps>();
            workspace += detail::tensorDirectCounterBytes;
            break;
        }
        plan.shape = detail::directShape(query);
        if (data->taps.size() > 4096) {
            data->tapsWorkspaceBytes = alignUp(data->taps.size() * sizeof(float));
            data->pinnedTaps = std::make_shared<RawPinnedBuffer>(data->taps.size() * sizeof(float));
            std::copy(data->taps.begin(), data->taps.end(), static_cast<float*>(data->pinnedTaps->data()));
            workspace += data->tapsWorkspaceBytes;
        }
        break;
    case Method::Separable:
        if (plan.tensorCores) {
            plan.shape = detail::tensorSeparableShape(spec, format.channels, width, height);
        } else if (fits([&] { return detail::separableShape(query); })) {
            plan.shape = detail::separableShape(query);
        } else {
            // Too wide for one fused window: two passes through a float intermediate.
            data->separableTwoPass = true;
            data->separableWorkspaceOffset = workspace;
            workspace += alignUp(static_cast<std::size_t>(width) * height * format.channels * sizeof(float));
            plan.shape = LaunchShape{32, 8, 32, 8, (width + 31) / 32, (height + 7) / 8, 0, 0};
            plan.reason += plan.reason.empty() ? "two-pass" : "; two-pass";
        }
        break;
    case Method::Fft:
        data->fftWorkspaceOffset = workspace;
        plan.data = data;  // planFft reads the plan's taps
        data->fftWorkspaceBytes = alignUp(detail::planFft(plan, *data));
        workspace += data->fftWorkspaceBytes;
        break;
    case Method::Auto:
        break;
    }
    if (data->needsConvert) {
        data->convertWorkspaceOffset = workspace;
        workspace += alignUp(static_cast<std::size_t>(width) * height * format.channels * sizeof(float));
    }
    plan.workspaceBytes = workspace;
    plan.data = std::move(data);
    return plan;
}

void run(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, void* workspace, const Stream& stream,
         RowSpan rows)
{
    if (src.width != plan.width || src.height != plan.height || dst.width != plan.width ||
        dst.height != plan.height) {
        throw std::invalid_argument("run: image size differs from the plan's");
    }
    if (!(src.format == plan.input) || !(dst.format == plan.output)) {
        throw std::invalid_argument("run: image format differs from the plan's (" + src.format.name() + " -> " +
                                    dst.format.name() + " given, " + plan.input.name() + " -> " +
                                    plan.output.name() + " planned)");
    }
    if (plan.workspaceBytes > 0 && workspace == nullptr) {
        throw std::invalid_argument("run: the plan needs a workspace");
    }
    if (stream.device() != plan.device) {
        throw std::invalid_argument("run: the stream is on another device than the plan");
    }
    const PlanData& data = *plan.data;
    ScopedDevice on(plan.device);
    auto* ws = static_cast<char*>(workspace);
    void* s = stream.handle();

    DeviceImage target = dst;
    if (data.needsConvert) {
        target.data = ws + data.convertWorkspaceOffset;
        target.pitch = static_cast<std::size_t>(plan.width) * plan.input.channels * sizeof(float);
        target.format = data.kernelOutput;
    }
    switch (plan.method) {
    case Method::Direct: {
        const float* globalTaps = nullptr;
        if (data.pinnedTaps) {
            TESSERA_CUDA_CHECK(cudaMemcpyAsync(ws, data.pinnedTaps->data(), data.pinnedTaps->bytes(),
                                               cudaMemcpyHostToDevice, static_cast<cudaStream_t>(s)));
            globalTaps = reinterpret_cast<const float*>(ws);
        }
        if (plan.tensorCores) {
            auto* counter = reinterpret_cast<unsigned*>(ws + data.tileCounterOffset);
            detail::launchTensorDirect(plan, src, target, counter, rows, s);
        } else {
            detail::launchDirect(plan, src, target, globalTaps, s);
        }
        break;
    }
    case Method::Separable:
        if (plan.tensorCores) {
            detail::launchTensorSeparable(plan, src, target, s);
            break;
        }
        detail::launchSeparable(plan, src, target, ws + data.separableWorkspaceOffset, s);
        break;
    case Method::Fft:
        detail::launchFft(plan, src, target, ws + data.fftWorkspaceOffset, s);
        break;
    case Method::Auto:
        throw std::logic_error("run: plan without a method");
    }
    if (data.needsConvert) {
        detail::launchConvert(target, dst, s);
    }
}

}  // namespace tessera::gpu
