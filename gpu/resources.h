#pragma once

#include <cstddef>
#include <utility>

namespace tessera::gpu {

// Move-only owners of CUDA handles. Each remembers its device and switches to it when it needs
// to; every failure throws CudaError (OutOfDeviceMemory for allocations). No CUDA types here.

/// Makes `device` current for the scope and restores the previous device afterwards.
class ScopedDevice {
public:
    explicit ScopedDevice(int device);
    ~ScopedDevice();
    ScopedDevice(const ScopedDevice&) = delete;
    ScopedDevice& operator=(const ScopedDevice&) = delete;

private:
    int previous_ = 0;
    bool changed_ = false;
};

/// A non-blocking CUDA stream on one device.
class Stream {
public:
    /// Creates a stream on `device`.
    explicit Stream(int device);
    ~Stream();
    Stream(Stream&& other) noexcept;
    Stream& operator=(Stream&& other) noexcept;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    /// The cudaStream_t, as an opaque pointer.
    void* handle() const { return handle_; }
    int device() const { return device_; }
    /// Blocks the calling thread until all work queued so far has finished.
    void synchronize() const;

private:
    void* handle_ = nullptr;
    int device_ = -1;
};

/// A CUDA event with timing enabled.
class Event {
public:
    explicit Event(int device);
    ~Event();
    Event(Event&& other) noexcept;
    Event& operator=(Event&& other) noexcept;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    /// Records on `stream` (which must be on the event's device).
    void record(const Stream& stream);
    /// Waits on the host for the event.
    void synchronize() const;
    /// Milliseconds from `start` to this event; both must have completed.
    float elapsedSince(const Event& start) const;
    void* handle() const { return handle_; }

private:
    void* handle_ = nullptr;
    int device_ = -1;
};

/// Untyped device memory; DeviceBuffer<T> is the typed view.
class RawDeviceBuffer {
public:
    RawDeviceBuffer() = default;
    /// Allocates `bytes` on `device`; throws OutOfDeviceMemory when it does not fit.
    RawDeviceBuffer(std::size_t bytes, int device);
    ~RawDeviceBuffer();
    RawDeviceBuffer(RawDeviceBuffer&& other) noexcept;
    RawDeviceBuffer& operator=(RawDeviceBuffer&& other) noexcept;
    RawDeviceBuffer(const RawDeviceBuffer&) = delete;
    RawDeviceBuffer& operator=(const RawDeviceBuffer&) = delete;

    void* data() const { return data_; }
    std::size_t bytes() const { return bytes_; }
    int device() const { return device_; }
    /// Fills every byte with `value`, queued on `stream`.
    void fillAsync(int value, const Stream& stream);

private:
    void release() noexcept;
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
    int device_ = -1;
};

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(std::size_t count, int device) : raw_(count * sizeof(T), device), count_(count) {}
    T* data() const { return static_cast<T*>(raw_.data()); }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return raw_.bytes(); }
    int device() const { return raw_.device(); }
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
/// Pitches and widths in bytes. Pinned host memory makes it truly asynchronous.
void copy2DAsync(void* dst, std::size_t dstPitch, const void* src, std::size_t srcPitch,
                 std::size_t widthBytes, std::size_t rows, const Stream& stream);

/// Whether `p` points into page-locked host memory (cudaMallocHost or registered), so copies
/// from and to it can run asynchronously without staging. False on any error.
bool isPinnedHost(const void* p);

/// Free bytes on `device` now. Throws CudaError.
std::size_t freeDeviceMemory(int device);

/// Makes the calling thread's view of `device` usable again after a failure (clears the last
/// error). Never throws.
void clearLastError() noexcept;

}  // namespace tessera::gpu
