#include "gpu/gpu_apply.h"

#include "filters/cpu_executor.h"
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

struct ResidentImage::State {
    DeviceInfo device;
    int width = 0;
    int height = 0;
    PixelFormat format;
    Stream stream;
    DeviceMat source;
    double uploadMs = 0.0;

    State(const DeviceInfo& d, const cv::Mat& image)
        : device(d),
          width(image.cols),
          height(image.rows),
          format(pixelFormatFromCvType(image.type())),
          stream(d.id)
    {
    }
};

ResidentImage::ResidentImage(const cv::Mat& image, int device)
{
    if (image.empty()) {
        throw std::invalid_argument("cannot keep an empty image on the GPU");
    }
    const cv::Mat input = image.isContinuous() ? image : image.clone();
    state_ = std::make_unique<State>(findDevice(device), input);
    auto& s = *state_;
    s.source = allocate(s.width, s.height, s.format, device);
    Event t0(device), t1(device);
    t0.record(s.stream);
    copy2DAsync(s.source.image.data, s.source.image.pitch, input.data, input.step, s.source.image.pitch,
                static_cast<std::size_t>(s.height), s.stream);
    t1.record(s.stream);
    s.stream.synchronize();
    s.uploadMs = t1.elapsedSince(t0);
}

ResidentImage::~ResidentImage() = default;

double ResidentImage::uploadMilliseconds() const
{
    return state_->uploadMs;
}

cv::Mat ResidentImage::apply(const filters::FilterChain& chain, Method method, GpuRunInfo* info)
{
    return applyRegion(chain, cv::Rect(0, 0, state_->width, state_->height), method, info);
}

cv::Mat ResidentImage::applyRegion(const filters::FilterChain& chain, const cv::Rect& region, Method method,
                                   GpuRunInfo* info)
{
    auto& s = *state_;
    const int device = s.device.id;
    const cv::Rect inside = region & cv::Rect(0, 0, s.width, s.height);
    if (inside.empty()) {
        throw std::invalid_argument("the preview region lies outside the image");
    }
    const cv::Rect crop = filters::regionWithHalo(chain, inside, cv::Size(s.width, s.height));
    const std::size_t bpp = s.format.bytesPerPixel();
    // The crop as an image of its own: same rows, shifted start.
    DeviceImage view = s.source.image;
    view.data = static_cast<char*>(view.data) + static_cast<std::size_t>(crop.y) * view.pitch +
                static_cast<std::size_t>(crop.x) * bpp;
    view.width = crop.width;
    view.height = crop.height;

    GpuRunInfo local;
    local.device = device;
    Event t1(device), t2(device), t3(device);
    t1.record(s.stream);
    PixelFormat format = s.format;
    const DeviceImage* current = &view;
    DeviceMat last;
    std::vector<RawDeviceBuffer> keepAlive;  // intermediates and workspaces live until the stream drains
    for (const auto& spec : chain.steps) {
        Method m = method;
        if (m == Method::Separable && !spec.separable) {
            m = Method::Auto;
        }
        const Plan plan = makePlan(spec, format, crop.width, crop.height, s.device, m);
        DeviceMat next = allocate(crop.width, crop.height, plan.output, device);
        keepAlive.emplace_back(plan.workspaceBytes, device);
        run(plan, *current, next.image, keepAlive.back().data(), s.stream);
        local.plans.push_back(plan.describe());
        local.methods.push_back(plan.method);
        if (last.buffer.data() != nullptr) {
            keepAlive.push_back(std::move(last.buffer));
        }
        last = std::move(next);
        current = &last.image;
        format = plan.output;
    }
    t2.record(s.stream);
    cv::Mat out(inside.height, inside.width, toCvType(format));
    const std::size_t outBpp = format.bytesPerPixel();
    const char* first = static_cast<const char*>(current->data) +
                        static_cast<std::size_t>(inside.y - crop.y) * current->pitch +
                        static_cast<std::size_t>(inside.x - crop.x) * outBpp;
    copy2DAsync(out.data, out.step, first, current->pitch, static_cast<std::size_t>(inside.width) * outBpp,
                static_cast<std::size_t>(inside.height), s.stream);
    t3.record(s.stream);
    s.stream.synchronize();
    local.kernelMs = t2.elapsedSince(t1);
    local.downloadMs = t3.elapsedSince(t2);
    if (info != nullptr) {
        *info = std::move(local);
    }
    return out;
}

cv::Mat applyGpu(const cv::Mat& src, const filters::FilterChain& chain, int device, Method method,
                 GpuRunInfo* info)
{
    if (src.empty()) {
        throw std::invalid_argument("applyGpu: empty image");
    }
    if (chain.steps.empty()) {
        return src.clone();
    }
    ResidentImage resident(src, device);
    GpuRunInfo local;
    cv::Mat out = resident.apply(chain, method, &local);
    local.uploadMs = resident.uploadMilliseconds();
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
