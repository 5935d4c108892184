// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/device_chain.h"

#include "gpu/exec/chain_runner.h"
#include "gpu/runtime/cuda_check.cuh"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/engine.h"
#include "values/errors.h"
#include "tessera/gpu/values.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <utility>

namespace tessera::gpu {

namespace {

constexpr std::size_t kScratchAlignment = 256;

std::size_t alignUp(std::size_t bytes)
{
    return (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment;
}

/// The alignment the kernels' pixel loads need: whole 4-channel pixels are read as one vector,
/// other formats one channel at a time.
std::size_t pixelAlignment(PixelFormat format)
{
    return format.channels == 4 ? format.bytesPerPixel() : format.bytesPerChannel();
}

void checkImage(const DeviceImage& image, PixelFormat format, int width, int height, const char* role)
{
    const std::string name(role);
    if (image.data == nullptr) {
        throw InvalidInput(name + " image has no data pointer");
    }
    if (image.width != width || image.height != height || !(image.format == format)) {
        throw InvalidInput(name + " image is " + std::to_string(image.width) + " x " + std::to_string(image.height) +
                           " " + image.format.name() + "; the chain was planned for " + std::to_string(width) + " x " +
                           std::to_string(height) + " " + format.name());
    }
    if (image.pitch < static_cast<std::size_t>(width) * format.bytesPerPixel()) {
        throw InvalidInput(name + " image's row pitch " + std::to_string(image.pitch) + " is shorter than a row");
    }
    const std::size_t align = pixelAlignment(format);
    if (reinterpret_cast<std::uintptr_t>(image.data) % align != 0 || image.pitch % align != 0) {
        throw InvalidInput(name + " image's address and row pitch must be multiples of " + std::to_string(align) +
                           " bytes for " + format.name() + " pixels");
    }
}

/// The bytes an image spans, from its first pixel to the end of its last row.
std::pair<std::uintptr_t, std::uintptr_t> span(const DeviceImage& image)
{
    const auto begin = reinterpret_cast<std::uintptr_t>(image.data);
    const std::size_t rowBytes = static_cast<std::size_t>(image.width) * image.format.bytesPerPixel();
    return {begin, begin + image.pitch * static_cast<std::size_t>(image.height - 1) + rowBytes};
}

}  // namespace

DeviceChain::DeviceChain(const filters::FilterChain& chain, PixelFormat input, int width, int height, DeviceId device,
                         Method method)
    : input_(input), output_(input), width_(width), height_(height), device_(device)
{
    if (chain.steps.empty()) {
        throw InvalidInput("the chain has no filter");
    }
    // The process's one reading of the devices (enumerateDevices keeps it): plans need each
    // GPU's limits, not its free memory.
    const DeviceSnapshot snap = enumerateDevices();
    const auto info = std::find_if(snap.devices.begin(), snap.devices.end(),
                                   [device](const DeviceInfo& d) { return d.id == device; });
    if (device.isCpu() || info == snap.devices.end()) {
        throw InvalidInput(gpu::describe(device) + " is not a CUDA device of this machine");
    }
    if (method != Method::Auto) {
        requireMethod(method);
    }
    plans_ = planSteps(chain, input, width, height, *info, method);
    std::size_t largestImage = 0;
    for (std::size_t i = 0; i < plans_.size(); ++i) {
        workspaceBytes_ = std::max(workspaceBytes_, alignUp(plans_[i].workspaceBytes));
        if (i + 1 < plans_.size()) {
            largestImage =
                std::max(largestImage, alignUp(static_cast<std::size_t>(width) * plans_[i].output.bytesPerPixel()));
        }
    }
    const PixelFormat format = plans_.back().output;
    output_ = format;
    bufferPitch_ = largestImage;
    bufferBytes_ = alignUp(bufferPitch_ * static_cast<std::size_t>(height));
    const std::size_t buffers = std::min<std::size_t>(plans_.size() - 1, 2);
    scratchBytes_ = workspaceBytes_ + buffers * bufferBytes_;
}

std::vector<std::string> DeviceChain::describe() const
{
    std::vector<std::string> lines;
    for (const auto& p : plans_) {
        lines.push_back(p.describe());
    }
    return lines;
}

RunReport DeviceChain::report() const
{
    RunReport r;
    r.placement = Placement::Device;
    r.policy = Fallback::None;
    r.plan = "device image " + std::to_string(width_) + " x " + std::to_string(height_) + " on " +
             gpu::describe(device_) + ", " + std::to_string(plans_.size()) + (plans_.size() == 1 ? " step" : " steps");
    Tile tile;
    tile.out = Rect{0, 0, width_, height_};
    tile.in = tile.out;
    tile.device = device_;
    r.tiles.push_back(tile);
    r.computed.push_back(true);
    SlotReport slot;
    slot.slot = DeviceSlot{device_};
    slot.tiles = 1;
    r.slotReports.push_back(slot);
    const std::uint64_t pixels = static_cast<std::uint64_t>(width_) * static_cast<std::uint64_t>(height_);
    for (const Plan& p : plans_) {
        r.methods.push_back(p.describe());
        r.stepMethods.push_back(p.method);
        TimingRecord record;
        record.device = device_;
        record.tile = 0;
        record.phase = Phase::Kernel;
        record.label = toString(p.method);
        record.bytes = pixels * (p.input.bytesPerPixel() + p.output.bytesPerPixel());
        record.width = width_;
        record.height = height_;
        r.records.push_back(std::move(record));
    }
    return r;
}

void DeviceChain::run(const DeviceImage& src, const DeviceImage& dst, void* scratch, StreamView stream,
                      RunReport* report, bool timeSteps) const
{
    const auto started = std::chrono::steady_clock::now();
    checkImage(src, input_, width_, height_, "the input");
    checkImage(dst, output_, width_, height_, "the output");
    const auto [srcBegin, srcEnd] = span(src);
    const auto [dstBegin, dstEnd] = span(dst);
    if (srcBegin < dstEnd && dstBegin < srcEnd) {
        throw InvalidInput("the output overlaps the input: give an output array of its own");
    }
    if (stream.device() != device_) {
        throw InvalidInput("the stream's device differs from the images' (" + gpu::describe(stream.device()) + ", " +
                           gpu::describe(device_) + ")");
    }
    ScopedDevice on(device_);
    std::vector<Event> marks;
    if (report != nullptr && timeSteps) {
        marks.reserve(plans_.size() + 1);
        for (std::size_t i = 0; i <= plans_.size(); ++i) {
            marks.emplace_back(device_);
        }
    }
    const cudaStream_t s = detail::cudaStreamOf(stream);
    char* base = static_cast<char*>(scratch);
    const bool ownScratch = base == nullptr && scratchBytes_ > 0;
    if (ownScratch) {
        void* p = nullptr;
        TESSERA_CUDA_CHECK(cudaMallocAsync(&p, scratchBytes_, s));
        base = static_cast<char*>(p);
    }
    try {
        const StepBuffers buffers{base + workspaceBytes_, base + workspaceBytes_ + bufferBytes_, bufferPitch_,
                                  workspaceBytes_ > 0 ? base : nullptr};
        enqueueSteps(plans_, src, dst, buffers, stream, {}, marks.empty() ? nullptr : &marks);
    } catch (...) {
        if (ownScratch) {
            cudaFreeAsync(base, s);
        }
        throw;
    }
    if (ownScratch) {
        TESSERA_CUDA_CHECK(cudaFreeAsync(base, s));
    }
    if (report == nullptr) {
        return;
    }
    *report = this->report();
    if (!marks.empty()) {
        marks.back().synchronize();
        double busy = 0.0;
        for (std::size_t i = 0; i < plans_.size(); ++i) {
            TimingRecord& record = report->records[i];
            record.beginUs = 1000.0 * marks[i].elapsedSince(marks[0]);
            record.endUs = 1000.0 * marks[i + 1].elapsedSince(marks[0]);
            busy += record.durationUs() / 1000.0;
        }
        report->slotReports.front().busyMs = busy;
    }
    report->wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
}

void streamWaits(DeviceId device, void* waiting, void* producer)
{
    if (waiting == producer) {
        return;
    }
    ScopedDevice on(device);
    cudaEvent_t event = nullptr;
    TESSERA_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    const cudaError_t recorded = cudaEventRecord(event, static_cast<cudaStream_t>(producer));
    const cudaError_t waited =
        recorded == cudaSuccess ? cudaStreamWaitEvent(static_cast<cudaStream_t>(waiting), event, 0) : recorded;
    // Destroying an event that work still waits on is allowed: CUDA frees it once done.
    cudaEventDestroy(event);
    TESSERA_CUDA_CHECK(waited);
}

DeviceId deviceOfPointer(const void* pointer)
{
    cudaPointerAttributes attributes{};
    const cudaError_t err = cudaPointerGetAttributes(&attributes, pointer);
    if (err == cudaErrorInvalidValue) {
        cudaGetLastError();
        throw InvalidInput("the pointer is not memory CUDA knows");
    }
    TESSERA_CUDA_CHECK(err);
    if (attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged) {
        return DeviceId(attributes.device);
    }
    throw InvalidInput("the pointer is host memory, not device memory");
}

}  // namespace tessera::gpu
