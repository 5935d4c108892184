#include "gpu/gpu_apply.h"

#include "gpu/device_info.h"
#include "gpu/resources.h"

#include <stdexcept>

namespace tessera::gpu {

namespace {

DeviceInfo findDevice(int device)
{
    const auto snap = enumerateDevices();
    for (const auto& d : snap.devices) {
        if (d.id == device) {
            return d;
        }
    }
    throw std::invalid_argument("GPU " + std::to_string(device) + " does not exist" +
                                (snap.hasGpu() ? "" : " (" + snap.reason + ")"));
}

struct DeviceMat {
    RawDeviceBuffer buffer;
    DeviceImage image;
};

DeviceMat allocate(int width, int height, PixelFormat format, int device)
{
    DeviceMat m;
    const std::size_t pitch = static_cast<std::size_t>(width) * format.bytesPerPixel();
    m.buffer = RawDeviceBuffer(pitch * static_cast<std::size_t>(height), device);
    m.image = {m.buffer.data(), pitch, width, height, format};
    return m;
}

}  // namespace

cv::Mat applyGpu(const cv::Mat& src, const filters::FilterChain& chain, int device, Method method,
                 GpuRunInfo* info)
{
    if (src.empty()) {
        throw std::invalid_argument("applyGpu: empty image");
    }
    if (chain.steps.empty()) {
        return src.clone();
    }
    const DeviceInfo dev = findDevice(device);
    const cv::Mat input = src.isContinuous() ? src : src.clone();
    PixelFormat format = pixelFormatFromCvType(input.type());

    Stream stream(device);
    Event t0(device), t1(device), t2(device), t3(device);
    DeviceMat current = allocate(input.cols, input.rows, format, device);
    t0.record(stream);
    copy2DAsync(current.image.data, current.image.pitch, input.data, input.step, current.image.pitch,
                static_cast<std::size_t>(input.rows), stream);
    t1.record(stream);

    GpuRunInfo local;
    local.device = device;
    std::vector<RawDeviceBuffer> keepAlive;  // workspaces live until the stream is drained
    for (const auto& spec : chain.steps) {
        Method m = method;
        if (m == Method::Separable && !spec.separable) {
            m = Method::Auto;
        }
        const Plan plan = makePlan(spec, format, input.cols, input.rows, dev, m);
        DeviceMat next = allocate(input.cols, input.rows, plan.output, device);
        keepAlive.emplace_back(plan.workspaceBytes, device);
        run(plan, current.image, next.image, keepAlive.back().data(), stream);
        local.plans.push_back(plan.describe());
        local.methods.push_back(plan.method);
        keepAlive.push_back(std::move(current.buffer));
        current = std::move(next);
        format = plan.output;
    }
    t2.record(stream);
    cv::Mat out(input.rows, input.cols, toCvType(format));
    copy2DAsync(out.data, out.step, current.image.data, current.image.pitch, current.image.pitch,
                static_cast<std::size_t>(input.rows), stream);
    t3.record(stream);
    stream.synchronize();
    local.uploadMs = t1.elapsedSince(t0);
    local.kernelMs = t2.elapsedSince(t1);
    local.downloadMs = t3.elapsedSince(t2);
    if (info != nullptr) {
        *info = std::move(local);
    }
    return out;
}

cv::Mat applyGpu(const cv::Mat& src, const filters::FilterSpec& spec, int device, Method method, GpuRunInfo* info)
{
    return applyGpu(src, filters::FilterChain{{spec}}, device, method, info);
}

}  // namespace tessera::gpu
