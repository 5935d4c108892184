// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_id.h"
#include "tessera/gpu/values.h"

#include <cstddef>
#include <new>
#include <utility>

namespace tessera::gpu {

// Move-only owners of CUDA handles. Each remembers its device and switches to it when it needs
// to; every failure throws CudaError (OutOfDeviceMemory for allocations). No CUDA types here.

/// Makes `device` current for the scope and restores the previous device afterwards.
class ScopedDevice {
public:
    /// Throws CudaError when the device cannot be made current.
    explicit ScopedDevice(DeviceId device);
    /// For destructors: never throws; a failure leaves the current device as it was (and
    /// trips the debug-build assertion on CUDA errors).
    ScopedDevice(DeviceId device, std::nothrow_t) noexcept;
    ~ScopedDevice();
    ScopedDevice(const ScopedDevice&) = delete;
    ScopedDevice& operator=(const ScopedDevice&) = delete;

private:
    int previous_ = 0;  // as cudaGetDevice reports it, handed back to cudaSetDevice unchanged
    bool changed_ = false;
};

namespace detail {

// How the handle owners free their handle; never throw (debug builds assert on a CUDA error).
void destroyStream(void* handle, DeviceId device) noexcept;
void destroyEvent(void* handle, DeviceId device) noexcept;

/// One device-bound CUDA handle, freed by Destroy: the move and destroy logic Stream and Event
/// share. A moved-from owner keeps its device and holds no handle.
template <void (*Destroy)(void*, DeviceId) noexcept>
class DeviceHandle {
public:
    DeviceHandle(void* handle, DeviceId device) noexcept : handle_(handle), device_(device) {}
    ~DeviceHandle() { reset(); }
    DeviceHandle(DeviceHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)), device_(other.device_)
    {
    }
    DeviceHandle& operator=(DeviceHandle&& other) noexcept
    {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, nullptr);
            device_ = other.device_;
        }
        return *this;
    }
    DeviceHandle(const DeviceHandle&) = delete;
    DeviceHandle& operator=(const DeviceHandle&) = delete;

    void* get() const { return handle_; }
    DeviceId device() const { return device_; }

private:
    void reset() noexcept
    {
        if (handle_ != nullptr) {
            Destroy(handle_, device_);
            handle_ = nullptr;
        }
    }
    void* handle_ = nullptr;
    DeviceId device_;
};

}  // namespace detail

/// A non-blocking CUDA stream on one device.
class Stream {
public:
    /// Creates a stream on `device`; throws CudaError.
    explicit Stream(DeviceId device);

    /// The cudaStream_t, as an opaque pointer.
    void* handle() const { return owned_.get(); }
    /// The device the stream was created on. Never throws.
    DeviceId device() const { return owned_.device(); }
    /// Blocks the calling thread until all work queued so far has finished; throws CudaError.
    void synchronize() const;

private:
    detail::DeviceHandle<detail::destroyStream> owned_;
};

/// A stream someone else owns, as launchers take it: the cudaStream_t as an opaque handle and
/// the device it belongs to. Cheap to copy; it must not outlive the stream.
class StreamView {
public:
    /// Views an owned Stream (implicit, so a Stream goes wherever a StreamView is taken).
    StreamView(const Stream& stream) noexcept  // NOLINT(google-explicit-constructor)
        : handle_(stream.handle()), device_(stream.device())
    {
    }
    /// Views a cudaStream_t the caller owns (nullptr: the legacy default stream) on `device`.
    StreamView(void* handle, DeviceId device) noexcept : handle_(handle), device_(device) {}

    /// The cudaStream_t, as an opaque pointer.
    void* handle() const { return handle_; }
    /// The device the viewed stream belongs to. Never throws.
    DeviceId device() const { return device_; }

private:
    void* handle_ = nullptr;
    DeviceId device_;
};

/// A CUDA event with timing enabled.
class Event {
public:
    /// Creates an event on `device`; throws CudaError.
    explicit Event(DeviceId device);

    /// Records on `stream` (which must be on the event's device); throws CudaError.
    void record(StreamView stream);
    /// Waits on the host for the event; throws CudaError.
    void synchronize() const;
    /// Milliseconds from `start` to this event; both must have completed. Throws CudaError.
    float elapsedSince(const Event& start) const;
    void* handle() const { return owned_.get(); }

private:
    detail::DeviceHandle<detail::destroyEvent> owned_;
};

/// Untyped device memory; DeviceBuffer<T> is the typed view.
class RawDeviceBuffer {
public:
    RawDeviceBuffer() = default;
    /// Allocates `bytes` on `device`; throws OutOfDeviceMemory when it does not fit.
    RawDeviceBuffer(std::size_t bytes, DeviceId device);
    ~RawDeviceBuffer();
    RawDeviceBuffer(RawDeviceBuffer&& other) noexcept;
    RawDeviceBuffer& operator=(RawDeviceBuffer&& other) noexcept;
    RawDeviceBuffer(const RawDeviceBuffer&) = delete;
    RawDeviceBuffer& operator=(const RawDeviceBuffer&) = delete;

    void* data() const { return data_; }
    std::size_t bytes() const { return bytes_; }
    /// The device the memory lives on (the CPU id for a default-constructed buffer). Never throws.
    DeviceId device() const { return device_; }
    /// Fills every byte with `value`, queued on `stream`; throws CudaError.
    void fillAsync(int value, StreamView stream);

private:
    void release() noexcept;
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
    DeviceId device_;
};

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(std::size_t count, DeviceId device) : raw_(count * sizeof(T), device), count_(count) {}
    T* data() const { return static_cast<T*>(raw_.data()); }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return raw_.bytes(); }
    DeviceId device() const { return raw_.device(); }
    RawDeviceBuffer& raw() { return raw_; }

private:
    RawDeviceBuffer raw_;
    std::size_t count_ = 0;
};

/// Page-locked host memory for fast, asynchronous copies.
class RawPinnedBuffer {
public:
    RawPinnedBuffer() = default;
    explicit RawPinnedBuffer(std::size_t bytes);
    ~RawPinnedBuffer();
    RawPinnedBuffer(RawPinnedBuffer&& other) noexcept;
    RawPinnedBuffer& operator=(RawPinnedBuffer&& other) noexcept;
    RawPinnedBuffer(const RawPinnedBuffer&) = delete;
    RawPinnedBuffer& operator=(const RawPinnedBuffer&) = delete;

    void* data() const { return data_; }
    std::size_t bytes() const { return bytes_; }

private:
    void release() noexcept;
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
};

/// A device copy of `bytes` bytes at `host`, complete when this returns: the bytes go through a
/// page-locked staging buffer, because a copy from pageable memory may return before its DMA has
/// landed, and a kernel on a non-blocking stream could then read the buffer too early. Throws
/// CudaError, OutOfDeviceMemory.
RawDeviceBuffer uploadNow(const void* host, std::size_t bytes, DeviceId device);

template <typename T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    explicit PinnedBuffer(std::size_t count) : raw_(count * sizeof(T)), count_(count) {}
    T* data() const { return static_cast<T*>(raw_.data()); }
    std::size_t size() const { return count_; }

private:
    RawPinnedBuffer raw_;
    std::size_t count_ = 0;
};

/// Queues a 2D copy between host and device memory (or within one device) on `stream`.
/// Pitches and widths in bytes. Pinned host memory makes it truly asynchronous. Throws CudaError.
void copy2DAsync(void* dst, std::size_t dstPitch, const void* src, std::size_t srcPitch, std::size_t widthBytes,
                 std::size_t rows, StreamView stream);

/// Queues a copy of `bytes` within one device's memory (both ends on 16-byte boundaries) by a
/// kernel on its SMs rather than by cudaMemcpy: the way the convolution kernels move their bytes,
/// and on an H200 about 2.5 times the rate cudaMemcpy reaches. Throws PreconditionError for
/// unaligned ends, CudaError on failure.
void copyOnDeviceAsync(void* dst, const void* src, std::size_t bytes, StreamView stream);

/// Whether `p` points into page-locked host memory (cudaMallocHost or registered), so copies
/// from and to it can run asynchronously without staging. False on any error.
bool isPinnedHost(const void* p);

/// Free bytes on `device` now. Throws CudaError.
std::size_t freeDeviceMemory(DeviceId device);

/// Makes the calling thread's view of `device` usable again after a failure (clears the last
/// error). Never throws.
void clearLastError() noexcept;

}  // namespace tessera::gpu
