// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/resources.h"

#include "gpu/calibration/calibration_kernels.cuh"
#include "gpu/runtime/cuda_check.cuh"
#include "values/errors.h"
#include "tessera/gpu/values.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

namespace tessera::gpu {

namespace detail {

void throwCudaError(cudaError_t err, const char* call, const char* file, int line)
{
    // Clear the sticky-free error state so later calls on this thread start clean.
    cudaGetLastError();
    const std::string text = std::string(cudaGetErrorName(err)) + " (" + cudaGetErrorString(err) + ")";
    if (err == cudaErrorMemoryAllocation) {
        throw OutOfDeviceMemory(static_cast<int>(err), call, file, line, text);
    }
    throw CudaError(static_cast<int>(err), call, file, line, text);
}

}  // namespace detail

namespace {

std::string composeMessage(const std::string& call, const std::string& file, int line, const std::string& text)
{
    return call + " failed at " + file + ":" + std::to_string(line) + ": " + text;
}

}  // namespace

CudaError::CudaError(int code, std::string call, std::string file, int line, const std::string& text)
    : std::runtime_error(composeMessage(call, file, line, text)), code_(code), call_(std::move(call)),
      file_(std::move(file)), line_(line)
{
}

ScopedDevice::ScopedDevice(DeviceId device)
{
    TESSERA_CUDA_CHECK(cudaGetDevice(&previous_));
    if (previous_ != device.value()) {
        TESSERA_CUDA_CHECK(cudaSetDevice(device.value()));
        changed_ = true;
    }
}

ScopedDevice::ScopedDevice(DeviceId device, std::nothrow_t) noexcept
{
    const cudaError_t got = cudaGetDevice(&previous_);
    TESSERA_ASSERT_CUDA_SUCCESS(got);
    if (got == cudaSuccess && previous_ != device.value()) {
        const cudaError_t set = cudaSetDevice(device.value());
        TESSERA_ASSERT_CUDA_SUCCESS(set);
        changed_ = set == cudaSuccess;
    }
}

ScopedDevice::~ScopedDevice()
{
    if (changed_) {
        TESSERA_ASSERT_CUDA_SUCCESS(cudaSetDevice(previous_));
    }
}

namespace detail {

void destroyStream(void* handle, DeviceId /*device*/) noexcept
{
    TESSERA_ASSERT_CUDA_SUCCESS(cudaStreamDestroy(static_cast<cudaStream_t>(handle)));
}

void destroyEvent(void* handle, DeviceId /*device*/) noexcept
{
    TESSERA_ASSERT_CUDA_SUCCESS(cudaEventDestroy(static_cast<cudaEvent_t>(handle)));
}

}  // namespace detail

namespace {

void* createStream(DeviceId device)
{
    ScopedDevice on(device);
    cudaStream_t s = nullptr;
    TESSERA_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
}

void* createEvent(DeviceId device)
{
    ScopedDevice on(device);
    cudaEvent_t e = nullptr;
    TESSERA_CUDA_CHECK(cudaEventCreate(&e));
    return e;
}

}  // namespace

Stream::Stream(DeviceId device) : owned_(createStream(device), device)
{
}

void Stream::synchronize() const
{
    TESSERA_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(handle())));
}

Event::Event(DeviceId device) : owned_(createEvent(device), device)
{
}

void Event::record(StreamView stream)
{
    TESSERA_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(handle()), static_cast<cudaStream_t>(stream.handle())));
}

void Event::synchronize() const
{
    TESSERA_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(handle())));
}

float Event::elapsedSince(const Event& start) const
{
    float ms = 0.0f;
    TESSERA_CUDA_CHECK(
        cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start.handle()), static_cast<cudaEvent_t>(handle())));
    return ms;
}

RawDeviceBuffer::RawDeviceBuffer(std::size_t bytes, DeviceId device) : bytes_(bytes), device_(device)
{
    if (bytes == 0) {
        return;
    }
    ScopedDevice on(device);
    TESSERA_CUDA_CHECK(cudaMalloc(&data_, bytes));
}

RawDeviceBuffer uploadNow(const void* host, std::size_t bytes, DeviceId device)
{
    RawDeviceBuffer buffer(bytes, device);
    if (bytes == 0) {
        return buffer;
    }
    RawPinnedBuffer staging(bytes);
    std::memcpy(staging.data(), host, bytes);
    ScopedDevice on(device);
    // From page-locked memory cudaMemcpy returns only once the copy is done.
    TESSERA_CUDA_CHECK(cudaMemcpy(buffer.data(), staging.data(), bytes, cudaMemcpyHostToDevice));
    return buffer;
}

RawDeviceBuffer::~RawDeviceBuffer()
{
    release();
}

void RawDeviceBuffer::release() noexcept
{
    if (data_ != nullptr) {
        ScopedDevice on(device_, std::nothrow);
        TESSERA_ASSERT_CUDA_SUCCESS(cudaFree(data_));
        data_ = nullptr;
    }
}

RawDeviceBuffer::RawDeviceBuffer(RawDeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)), device_(other.device_)
{
}

RawDeviceBuffer& RawDeviceBuffer::operator=(RawDeviceBuffer&& other) noexcept
{
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
        device_ = other.device_;
    }
    return *this;
}

void RawDeviceBuffer::fillAsync(int value, StreamView stream)
{
    if (bytes_ == 0) {
        return;
    }
    ScopedDevice on(device_);
    TESSERA_CUDA_CHECK(cudaMemsetAsync(data_, value, bytes_, static_cast<cudaStream_t>(stream.handle())));
}

RawPinnedBuffer::RawPinnedBuffer(std::size_t bytes) : bytes_(bytes)
{
    if (bytes > 0) {
        TESSERA_CUDA_CHECK(cudaMallocHost(&data_, bytes));
    }
}

RawPinnedBuffer::~RawPinnedBuffer()
{
    release();
}

void RawPinnedBuffer::release() noexcept
{
    if (data_ != nullptr) {
        TESSERA_ASSERT_CUDA_SUCCESS(cudaFreeHost(data_));
        data_ = nullptr;
    }
}

RawPinnedBuffer::RawPinnedBuffer(RawPinnedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0))
{
}

RawPinnedBuffer& RawPinnedBuffer::operator=(RawPinnedBuffer&& other) noexcept
{
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

void copy2DAsync(void* dst, std::size_t dstPitch, const void* src, std::size_t srcPitch, std::size_t widthBytes,
                 std::size_t rows, StreamView stream)
{
    if (widthBytes == 0 || rows == 0) {
        return;
    }
    ScopedDevice on(stream.device());
    TESSERA_CUDA_CHECK(cudaMemcpy2DAsync(dst, dstPitch, src, srcPitch, widthBytes, rows, cudaMemcpyDefault,
                                         static_cast<cudaStream_t>(stream.handle())));
}

void copyOnDeviceAsync(void* dst, const void* src, std::size_t bytes, StreamView stream)
{
    if ((reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src)) % 16 != 0) {
        throw PreconditionError("copyOnDeviceAsync: both buffers must start on 16-byte boundaries");
    }
    ScopedDevice on(stream.device());
    detail::launchCopy(dst, src, bytes, static_cast<cudaStream_t>(stream.handle()));
}

bool isPinnedHost(const void* p)
{
    if (p == nullptr) {
        return false;
    }
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return attributes.type == cudaMemoryTypeHost;
}

std::size_t freeDeviceMemory(DeviceId device)
{
    ScopedDevice on(device);
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
    TESSERA_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    return freeBytes;
}

void clearLastError() noexcept
{
    cudaGetLastError();
}

}  // namespace tessera::gpu
