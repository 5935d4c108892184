// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the device state the FFT method keeps per plan, and cuFFT error checks.

#include "gpu/kernels/fft/fft_layout.h"
#include "tessera/gpu/resources.h"

#include <cuda_runtime.h>
#include <cufft.h>

#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

namespace tessera::gpu {

namespace detail {

/// "CUFFT_ALLOC_FAILED", ...
const char* cufftResultName(cufftResult r);
/// Throws OutOfDeviceMemory for CUFFT_ALLOC_FAILED and CudaError for everything else.
[[noreturn]] void throwCufftError(cufftResult r, const char* call, const char* file, int line);

inline void checkCufft(cufftResult r, const char* call, const char* file, int line)
{
    if (r != CUFFT_SUCCESS) {
        throwCufftError(r, call, file, line);
    }
}

/// Owns one cuFFT handle; move-only.
class FftPlanHandle {
public:
    FftPlanHandle() = default;
    ~FftPlanHandle() { reset(); }
    FftPlanHandle(FftPlanHandle&& other) noexcept : handle_(other.handle_), valid_(std::exchange(other.valid_, false))
    {
    }
    FftPlanHandle& operator=(FftPlanHandle&& other) noexcept
    {
        if (this != &other) {
            reset();
            handle_ = other.handle_;
            valid_ = std::exchange(other.valid_, false);
        }
        return *this;
    }
    FftPlanHandle(const FftPlanHandle&) = delete;
    FftPlanHandle& operator=(const FftPlanHandle&) = delete;

    /// Creates an empty handle that will not allocate its own work area.
    static FftPlanHandle create();
    cufftHandle get() const { return handle_; }
    bool valid() const { return valid_; }
    void reset() noexcept;

private:
    cufftHandle handle_ = 0;
    bool valid_ = false;
};

}  // namespace detail

#define TESSERA_CUFFT_CHECK(expr) ::tessera::gpu::detail::checkCufft((expr), #expr, __FILE__, __LINE__)

/// Kernel spectrum and cuFFT plans of one FFT plan, shared by every run of it on any stream of
/// its device. Built at the first run, under a mutex; the cuFFT enqueues (set stream, set work
/// area, execute) also happen under it so runs on different streams, each with its own
/// workspace, never share a work area. All members expect the plan's device to be current.
class FftCache {
public:
    /// `scaledTaps`: the kernel, row-major, already divided by padW * padH; `tapSum`: the sum of
    /// the unscaled taps. `reservedWork`: the work-area bytes the caller's workspace holds at
    /// geometry.workAreaOffset(). Host-only.
    FftCache(const detail::FftGeometry& geometry, DeviceId device, std::vector<float> scaledTaps, double tapSum,
             std::size_t reservedWork);
    /// Waits for runs still using the cache, then frees plans and memory on its device.
    ~FftCache();
    FftCache(const FftCache&) = delete;
    FftCache& operator=(const FftCache&) = delete;

    const detail::FftGeometry& geometry() const { return geometry_; }
    double tapSum() const { return tapSum_; }
    /// Work-area bytes the caller's workspace holds at geometry().workAreaOffset().
    std::size_t reservedWork() const { return reservedWork_; }

    /// One run's parts of the caller's workspace (see FftGeometry for the layout).
    struct Buffers {
        float* frames = nullptr;
        cufftComplex* spectra = nullptr;
        void* work = nullptr;
    };

    /// Makes the cuFFT plans and the kernel spectrum on first use (enqueued on `stream`, using
    /// the caller's buffers as scratch); on later runs orders `stream` after that build.
    /// Throws CudaError / OutOfDeviceMemory.
    void prepare(cudaStream_t stream, const Buffers& b);
    /// Batched R2C, frames to spectra, queued on `stream`.
    void forward(cudaStream_t stream, const Buffers& b);
    /// Batched C2R, spectra to frames, queued on `stream`; the run's last use of the cache.
    void inverse(cudaStream_t stream, const Buffers& b);
    /// Half spectrum of the scaled kernel as transformed (the product conjugates it); valid
    /// after prepare().
    const cufftComplex* spectrum() const { return static_cast<const cufftComplex*>(spectrum_.data()); }

private:
    void makePlans();
    void buildSpectrum(cudaStream_t stream, const Buffers& b);
    void execute(bool forward, cudaStream_t stream, const Buffers& b);
    void markUse(cudaStream_t stream);
    void releaseDevice() noexcept;

    detail::FftGeometry geometry_;
    DeviceId device_;
    std::vector<float> scaledTaps_;
    double tapSum_ = 0.0;
    std::size_t reservedWork_ = 0;

    std::mutex mutex_;
    detail::FftPlanHandle forward_;
    detail::FftPlanHandle inverse_;
    /// Used instead of the caller's work area only when cuFFT asks for more than was reserved
    /// at plan time; executions are then chained through workFree_ so no two overlap.
    RawDeviceBuffer ownWork_;
    cudaEvent_t workFree_ = nullptr;
    RawPinnedBuffer pinnedTaps_;
    RawDeviceBuffer spectrum_;
    cudaEvent_t ready_ = nullptr;
    bool built_ = false;
    /// Last use of the cache per stream, waited for before the destructor frees anything.
    std::vector<std::pair<cudaStream_t, cudaEvent_t>> lastUse_;
};

}  // namespace tessera::gpu
