// SPDX-License-Identifier: Apache-2.0
#include "gpu/kernels/common/fft_cache.cuh"

#include "gpu/runtime/cuda_check.cuh"
#include "tessera/gpu/cuda_error.h"
#include "gpu/runtime/cufft_loader.h"

#include <cstring>
#include <string>

namespace tessera::gpu {

namespace detail {

const char* cufftResultName(cufftResult r)
{
    switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "cuFFT error";
    }
}

void throwCufftError(cufftResult r, const char* call, const char* file, int line)
{
    // cuFFT may have left a runtime error behind (a failed allocation inside a plan, say).
    cudaGetLastError();
    const std::string text =
        std::string(cufftResultName(r)) + " (cuFFT result " + std::to_string(static_cast<int>(r)) + ")";
    if (r == CUFFT_ALLOC_FAILED) {
        throw OutOfDeviceMemory(static_cast<int>(r), call, file, line, text);
    }
    throw CudaError(static_cast<int>(r), call, file, line, text);
}

FftPlanHandle FftPlanHandle::create()
{
    const CufftApi& fft = cufftApi();
    FftPlanHandle h;
    TESSERA_CUFFT_CHECK(fft.cufftCreate(&h.handle_));
    h.valid_ = true;
    TESSERA_CUFFT_CHECK(fft.cufftSetAutoAllocation(h.handle_, 0));
    return h;
}

void FftPlanHandle::reset() noexcept
{
    if (valid_) {
        // A valid handle was made through the loaded library, which stays open.
        cufftLibrary().api().cufftDestroy(handle_);
        valid_ = false;
    }
}

}  // namespace detail

namespace {

/// More distinct streams than this and the oldest markers are waited for and dropped, so a
/// plan reused over many short-lived streams keeps a bounded list.
constexpr std::size_t kMaxTrackedStreams = 32;

cudaEvent_t makeEvent()
{
    cudaEvent_t e = nullptr;
    TESSERA_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    return e;
}

}  // namespace

FftCache::FftCache(const detail::FftGeometry& geometry, DeviceId device, std::vector<float> scaledTaps, double tapSum,
                   std::size_t reservedWork)
    : geometry_(geometry), device_(device), scaledTaps_(std::move(scaledTaps)), tapSum_(tapSum),
      reservedWork_(reservedWork)
{
}

FftCache::~FftCache()
{
    try {
        ScopedDevice on(device_);
        releaseDevice();
    } catch (...) {
        // No device to switch to: nothing can be freed on it either.
    }
}

void FftCache::releaseDevice() noexcept
{
    for (const auto& use : lastUse_) {
        cudaEventSynchronize(use.second);
        cudaEventDestroy(use.second);
    }
    lastUse_.clear();
    forward_.reset();
    inverse_.reset();
    ownWork_ = RawDeviceBuffer();
    spectrum_ = RawDeviceBuffer();
    if (ready_ != nullptr) {
        cudaEventDestroy(ready_);
        ready_ = nullptr;
    }
    if (workFree_ != nullptr) {
        cudaEventDestroy(workFree_);
        workFree_ = nullptr;
    }
    // A failed synchronisation above must not look like the next launch's error.
    cudaGetLastError();
}

void FftCache::makePlans()
{
    const auto& g = geometry_;
    const detail::CufftApi& fft = detail::cufftApi();
    long long n[2] = {g.padH, g.padW};
    long long realEmbed[2] = {g.padH, g.padW};
    long long complexEmbed[2] = {g.padH, g.spectrumCols()};
    const long long batch = g.channels;

    auto fwd = detail::FftPlanHandle::create();
    std::size_t fwdWork = 0;
    TESSERA_CUFFT_CHECK(fft.cufftMakePlanMany64(fwd.get(), 2, n, realEmbed, 1, g.planeFloats(), complexEmbed, 1,
                                                g.planeComplex(), CUFFT_R2C, batch, &fwdWork));
    auto inv = detail::FftPlanHandle::create();
    std::size_t invWork = 0;
    TESSERA_CUFFT_CHECK(fft.cufftMakePlanMany64(inv.get(), 2, n, complexEmbed, 1, g.planeComplex(), realEmbed, 1,
                                                g.planeFloats(), CUFFT_C2R, batch, &invWork));
    const std::size_t need = fwdWork > invWork ? fwdWork : invWork;
    if (need > reservedWork_) {
        ownWork_ = RawDeviceBuffer(need, device_);
        if (workFree_ == nullptr) {
            workFree_ = makeEvent();
        }
    }
    forward_ = std::move(fwd);
    inverse_ = std::move(inv);
}

void FftCache::buildSpectrum(cudaStream_t stream, const Buffers& b)
{
    const auto& g = geometry_;
    const std::size_t tapBytes = scaledTaps_.size() * sizeof(float);
    if (pinnedTaps_.data() == nullptr) {
        pinnedTaps_ = RawPinnedBuffer(tapBytes);
        std::memcpy(pinnedTaps_.data(), scaledTaps_.data(), tapBytes);
    }
    if (spectrum_.data() == nullptr) {
        spectrum_ = RawDeviceBuffer(g.spectrumBytes(), device_);
    }
    if (ready_ == nullptr) {
        ready_ = makeEvent();
    }
    // The kernel goes unflipped into the first frame at the origin, the other frames stay zero;
    // the batched transform then leaves its spectrum in the first spectrum's place.
    TESSERA_CUDA_CHECK(cudaMemsetAsync(b.frames, 0, g.framesBytes(), stream));
    TESSERA_CUDA_CHECK(cudaMemcpy2DAsync(b.frames, static_cast<std::size_t>(g.padW) * sizeof(float), pinnedTaps_.data(),
                                         static_cast<std::size_t>(g.kw) * sizeof(float),
                                         static_cast<std::size_t>(g.kw) * sizeof(float), static_cast<std::size_t>(g.kh),
                                         cudaMemcpyHostToDevice, stream));
    execute(true, stream, b);
    TESSERA_CUDA_CHECK(
        cudaMemcpyAsync(spectrum_.data(), b.spectra, g.spectrumBytes(), cudaMemcpyDeviceToDevice, stream));
    TESSERA_CUDA_CHECK(cudaEventRecord(ready_, stream));
}

void FftCache::prepare(cudaStream_t stream, const Buffers& b)
{
    std::lock_guard lock(mutex_);
    if (!forward_.valid() || !inverse_.valid()) {
        makePlans();
    }
    if (!built_) {
        buildSpectrum(stream, b);
        built_ = true;
    } else {
        TESSERA_CUDA_CHECK(cudaStreamWaitEvent(stream, ready_, 0));
    }
}

void FftCache::forward(cudaStream_t stream, const Buffers& b)
{
    std::lock_guard lock(mutex_);
    execute(true, stream, b);
}

void FftCache::inverse(cudaStream_t stream, const Buffers& b)
{
    std::lock_guard lock(mutex_);
    execute(false, stream, b);
    markUse(stream);
}

void FftCache::execute(bool forward, cudaStream_t stream, const Buffers& b)
{
    const detail::CufftApi& fft = detail::cufftLibrary().api();  // the plans exist: it is loaded
    const cufftHandle h = forward ? forward_.get() : inverse_.get();
    void* area = b.work;
    const bool own = ownWork_.data() != nullptr;
    if (own) {
        area = ownWork_.data();
        TESSERA_CUDA_CHECK(cudaStreamWaitEvent(stream, workFree_, 0));
    }
    TESSERA_CUFFT_CHECK(fft.cufftSetStream(h, stream));
    TESSERA_CUFFT_CHECK(fft.cufftSetWorkArea(h, area));
    if (forward) {
        TESSERA_CUFFT_CHECK(fft.cufftExecR2C(h, b.frames, b.spectra));
    } else {
        TESSERA_CUFFT_CHECK(fft.cufftExecC2R(h, b.spectra, b.frames));
    }
    if (own) {
        TESSERA_CUDA_CHECK(cudaEventRecord(workFree_, stream));
    }
}

void FftCache::markUse(cudaStream_t stream)
{
    for (const auto& use : lastUse_) {
        if (use.first == stream) {
            TESSERA_CUDA_CHECK(cudaEventRecord(use.second, stream));
            return;
        }
    }
    if (lastUse_.size() >= kMaxTrackedStreams) {
        cudaError_t first = cudaSuccess;
        for (const auto& use : lastUse_) {
            const cudaError_t err = cudaEventSynchronize(use.second);
            first = first == cudaSuccess ? err : first;
            cudaEventDestroy(use.second);
        }
        lastUse_.clear();
        TESSERA_CUDA_CHECK(first);
    }
    cudaEvent_t event = makeEvent();
    lastUse_.emplace_back(stream, event);
    TESSERA_CUDA_CHECK(cudaEventRecord(event, stream));
}

}  // namespace tessera::gpu
