// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/common/direct_recompute.cuh"
#include "gpu/runtime/cufft_loader.h"
#include "values/errors.h"
#include "tessera/gpu/values.h"
#include "gpu/kernels/common/fft_cache.cuh"
#include "gpu/kernels/fft/fft_layout.h"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/plan/plan_data.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <stdexcept>
#include <string>

// The FFT method: every channel of the image, extended by the border rule, goes through one
// batched R2C, a product with the conjugated kernel spectrum and a C2R; the W x H window at the
// origin of the result is the correlation.
//
// Accuracy. The transforms run in fp32, so each output carries an absolute error that scales
// with sum|k| x max|input - centre| and grows slowly with log2(padW * padH). A host model of the
// same computation (fp32 FFT against fp64) gives about 4e-7 of that product at most for
// uncentred random images from 1k x 1k to 4k x 4k with 31..127 taps per side, and an H200 run
// over all formats, borders and kernels up to 255 x 255 stayed below 7e-6; tests should allow
// 1e-5 of it, plus the fp32 rounding of the offset. Integer inputs are transformed around the middle of their range (128,
// 32768) and the centre's share, centre x sum(k), is added back afterwards in double precision:
// for smoothing kernels that cuts the error by one to two orders of magnitude. u8 and u16
// outputs therefore match the CPU path except where the exact value lies within that error of
// a rounding boundary, i.e. by at most 1. f32 inputs are not centred (their range is unknown).
// A non-finite input spreads over the whole channel: the extract pass notes an output that is
// not finite, and a last pass then computes the image again as direct sums
// (direct_recompute.cuh), so NaN and infinity end where a direct method puts them.

namespace tessera::gpu::detail {

namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr int kMaxGridY = 65535;
constexpr int kCols = 4;
constexpr int kMaxRecomputeDevices = 64;  // frame columns per thread in the pad and extract passes (one float4)
static_assert(kCols == 4, "the pad and extract passes move frame columns as float4");

/// Frame geometry as the kernels need it.
struct FrameParams {
    int width = 0;
    int height = 0;
    int extentW = 0;
    int extentH = 0;
    int padW = 0;
    int padH = 0;
    long long planeFloats = 0;  ///< floats per channel frame; rows are padW floats
    int anchorX = 0;
    int anchorY = 0;
    int border = kReflect101;
    float borderValue = 0.0f;
    float centre = 0.0f;   ///< subtracted before the transform
    float addBack = 0.0f;  ///< offset + centre * sum(taps), added after it
};

/// Writes frame (u, v) of every channel: the border-extended image pixel at (u - anchorX,
/// v - anchorY) minus the centre inside the extent, zero outside it. Each thread writes kCols
/// adjacent frame columns of a row, as one 16-byte store per channel where the rows allow it
/// (padW a multiple of kCols), so the pass runs near the copy rate instead of at half of it.
template <typename T, int C>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    padKernel(const void* src, std::size_t srcPitch, float* frames, const FrameParams p)
{
    const int u0 = (blockIdx.x * blockDim.x + threadIdx.x) * kCols;
    if (u0 >= p.padW) {
        return;
    }
    const bool vectors = p.padW % kCols == 0 && reinterpret_cast<std::uintptr_t>(frames) % 16 == 0;
    int sx[kCols];
#pragma unroll
    for (int j = 0; j < kCols; ++j) {
        const int u = u0 + j;
        sx[j] = u < p.extentW ? mapBorder(u - p.anchorX, p.width, p.border) : -1;
    }
    for (int v = blockIdx.y * blockDim.y + threadIdx.y; v < p.padH; v += gridDim.y * blockDim.y) {
        const bool rowInside = v < p.extentH;
        const int sy = rowInside ? mapBorder(v - p.anchorY, p.height, p.border) : -1;
        float val[kCols][C];
#pragma unroll
        for (int j = 0; j < kCols; ++j) {
            if (!rowInside || u0 + j >= p.extentW) {
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    val[j][c] = 0.0f;
                }
                continue;
            }
            if (sx[j] < 0 || sy < 0) {
#pragma unroll
                for (int c = 0; c < C; ++c) {
                    val[j][c] = p.borderValue;
                }
            } else {
                loadPixel<T, C>(rowPtr<T>(src, srcPitch, sy), sx[j], val[j]);
            }
#pragma unroll
            for (int c = 0; c < C; ++c) {
                val[j][c] -= p.centre;
            }
        }
        float* out = frames + static_cast<long long>(v) * p.padW + u0;
#pragma unroll
        for (int c = 0; c < C; ++c) {
            float* plane = out + c * p.planeFloats;
            if (vectors) {
                *reinterpret_cast<float4*>(plane) = make_float4(val[0][c], val[1][c], val[2][c], val[3][c]);
            } else {
#pragma unroll
                for (int j = 0; j < kCols; ++j) {
                    if (u0 + j < p.padW) {
                        plane[j] = val[j][c];
                    }
                }
            }
        }
    }
}

/// The float rule's second half: when the extract pass met an output that is not finite in this
/// run (the flag holds this run's epoch), every output again as a direct sum. A NaN or an
/// infinity spreads over the whole channel in a whole-image transform, so the whole image. A
/// clean run costs one launch whose blocks leave at once.
template <typename T, int C>
__global__ void __launch_bounds__(kBlockX* kBlockY)
    recomputeKernel(const __grid_constant__ DirectTaps direct, void* dst, std::size_t dstPitch, const unsigned* flag,
                    unsigned epoch)
{
    if (*flag != epoch) {
        return;
    }
    const long long n = static_cast<long long>(direct.p.width) * direct.p.height * C;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * blockDim.x) {
        const int c = static_cast<int>(i % C);
        const long long px = i / C;
        const int y = static_cast<int>(px / direct.p.width);
        const int x = static_cast<int>(px - static_cast<long long>(y) * direct.p.width);
        rowPtr<T>(dst, dstPitch, y)[static_cast<std::size_t>(x) * C + c] =
            Saturate<T>::from(directOutput(direct, C, x, y, c));
    }
}

/// spectra[c][i] *= conj(kernel[i]) for every channel c: the conjugate turns the circular
/// convolution the transforms compute into correlation (taps not flipped).
template <int C>
__global__ void __launch_bounds__(256) multiplyKernel(float2* spectra, const float2* kernel, long long planeComplex)
{
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < planeComplex; i += stride) {
        const float2 k = kernel[i];
#pragma unroll
        for (int c = 0; c < C; ++c) {
            float2* s = spectra + c * planeComplex + i;
            const float2 a = *s;
            *s = make_float2(fmaf(a.x, k.x, a.y * k.y), fmaf(a.y, k.x, -a.x * k.y));
        }
    }
}

/// Reads the W x H window at the frames' origin, adds the offset and the centre's share back
/// and stores the channels interleaved, rounded and saturated into T. Each thread takes kCols
/// adjacent pixels of a row: one 16-byte load per channel where the rows allow it, one store.
template <typename T, int C>
__global__ void __launch_bounds__(kBlockX* kBlockY) extractKernel(const float* frames, void* dst, std::size_t dstPitch,
                                                                  const FrameParams p, unsigned* flag, unsigned epoch)
{
    const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * kCols;
    if (x0 >= p.width) {
        return;
    }
    const bool vectors = p.padW % kCols == 0 && reinterpret_cast<std::uintptr_t>(frames) % 16 == 0;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < p.height; y += gridDim.y * blockDim.y) {
        const float* in = frames + static_cast<long long>(y) * p.padW + x0;
        float v[kCols][C];
#pragma unroll
        for (int c = 0; c < C; ++c) {
            const float* plane = in + c * p.planeFloats;
            if (vectors) {
                const float4 q = *reinterpret_cast<const float4*>(plane);
                v[0][c] = q.x;
                v[1][c] = q.y;
                v[2][c] = q.z;
                v[3][c] = q.w;
            } else {
#pragma unroll
                for (int j = 0; j < kCols; ++j) {
                    v[j][c] = x0 + j < p.width ? plane[j] : 0.0f;
                }
            }
        }
        bool finite = true;
#pragma unroll
        for (int j = 0; j < kCols; ++j) {
#pragma unroll
            for (int c = 0; c < C; ++c) {
                finite = finite && isfinite(v[j][c]);
            }
        }
        if (!finite) {
            *flag = epoch;  // the float rule: recomputeKernel below computes the image again
        }
        storeStrip<T, C, kCols>(rowPtr<T>(dst, dstPitch, y), x0, p.width, p.addBack, v);
    }
}

dim3 gridFor(int w, int h)
{
    return dim3(static_cast<unsigned>((w + kBlockX - 1) / kBlockX),
                static_cast<unsigned>(std::min((h + kBlockY - 1) / kBlockY, kMaxGridY)));
}

template <typename T>
void launchPad(const DeviceImage& src, float* frames, const FrameParams& p, int channels, cudaStream_t s)
{
    const dim3 grid = gridFor((p.padW + kCols - 1) / kCols, p.padH);
    const dim3 block(kBlockX, kBlockY);
    switch (channels) {
    case 1: padKernel<T, 1><<<grid, block, 0, s>>>(src.data, src.pitch, frames, p); break;
    case 3: padKernel<T, 3><<<grid, block, 0, s>>>(src.data, src.pitch, frames, p); break;
    case 4: padKernel<T, 4><<<grid, block, 0, s>>>(src.data, src.pitch, frames, p); break;
    default: throw PreconditionError("fft: unsupported channel count");
    }
    TESSERA_LAUNCH_CHECK("fft padKernel");
}

template <typename T>
void launchExtract(const float* frames, const DeviceImage& dst, const FrameParams& p, int channels, unsigned* flag,
                   unsigned epoch, cudaStream_t s)
{
    const dim3 grid = gridFor((p.width + kCols - 1) / kCols, p.height);
    const dim3 block(kBlockX, kBlockY);
    switch (channels) {
    case 1: extractKernel<T, 1><<<grid, block, 0, s>>>(frames, dst.data, dst.pitch, p, flag, epoch); break;
    case 3: extractKernel<T, 3><<<grid, block, 0, s>>>(frames, dst.data, dst.pitch, p, flag, epoch); break;
    case 4: extractKernel<T, 4><<<grid, block, 0, s>>>(frames, dst.data, dst.pitch, p, flag, epoch); break;
    default: throw PreconditionError("fft: unsupported channel count");
    }
    TESSERA_LAUNCH_CHECK("fft extractKernel");
}

template <typename T>
void launchRecompute(const DirectTaps& direct, const DeviceImage& dst, int channels, const unsigned* flag,
                     unsigned epoch, DeviceId device, cudaStream_t s)
{
    // Two blocks per SM: one short wave when the run was clean, the whole GPU when it was not.
    static int sms[kMaxRecomputeDevices] = {};
    int& count = sms[std::clamp(device.value(), 0, kMaxRecomputeDevices - 1)];
    if (count == 0) {
        TESSERA_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device.value()));
    }
    const dim3 grid(static_cast<unsigned>(2 * count));
    const dim3 block(kBlockX * kBlockY);
    switch (channels) {
    case 1: recomputeKernel<T, 1><<<grid, block, 0, s>>>(direct, dst.data, dst.pitch, flag, epoch); break;
    case 3: recomputeKernel<T, 3><<<grid, block, 0, s>>>(direct, dst.data, dst.pitch, flag, epoch); break;
    case 4: recomputeKernel<T, 4><<<grid, block, 0, s>>>(direct, dst.data, dst.pitch, flag, epoch); break;
    default: throw PreconditionError("fft: unsupported channel count");
    }
    TESSERA_LAUNCH_CHECK("fft recomputeKernel");
}

void launchMultiply(float2* spectra, const float2* kernel, long long planeComplex, int channels, cudaStream_t s)
{
    constexpr int kThreads = 256;
    const long long blocks = std::min<long long>((planeComplex + kThreads - 1) / kThreads, 1LL << 20);
    const dim3 grid(static_cast<unsigned>(blocks));
    switch (channels) {
    case 1: multiplyKernel<1><<<grid, kThreads, 0, s>>>(spectra, kernel, planeComplex); break;
    case 3: multiplyKernel<3><<<grid, kThreads, 0, s>>>(spectra, kernel, planeComplex); break;
    case 4: multiplyKernel<4><<<grid, kThreads, 0, s>>>(spectra, kernel, planeComplex); break;
    default: throw PreconditionError("fft: unsupported channel count");
    }
    TESSERA_LAUNCH_CHECK("fft multiplyKernel");
}

/// cuFFT's own estimate of the larger work area of the two transforms, host-only (it matched
/// the plans' real needs on an H200, about one frame buffer). When it cannot tell (sizes past
/// its 32-bit interface, no driver), one frame buffer's worth. The cache falls back to a work
/// area of its own if the real plans turn out to need more.
std::size_t estimateWorkArea(const CufftApi& fft, const FftGeometry& g)
{
    const long long total = g.planeFloats() * g.channels;
    if (total <= INT_MAX) {
        int n[2] = {g.padH, g.padW};
        int realEmbed[2] = {g.padH, g.padW};
        int complexEmbed[2] = {g.padH, static_cast<int>(g.spectrumCols())};
        std::size_t fwd = 0;
        std::size_t inv = 0;
        const int realDist = static_cast<int>(g.planeFloats());
        const int complexDist = static_cast<int>(g.planeComplex());
        if (fft.cufftEstimateMany(2, n, realEmbed, 1, realDist, complexEmbed, 1, complexDist, CUFFT_R2C, g.channels,
                                  &fwd) == CUFFT_SUCCESS &&
            fft.cufftEstimateMany(2, n, complexEmbed, 1, complexDist, realEmbed, 1, realDist, CUFFT_C2R, g.channels,
                                  &inv) == CUFFT_SUCCESS) {
            return std::max(fwd, inv);
        }
    }
    return g.framesBytes();
}

}  // namespace

Support canFft(const ShapeQuery& q)
{
    // Without cuFFT (it is opened at run time) the method is not there at all.
    if (const CufftLibrary& library = cufftLibrary(); !library.available()) {
        return Support::no(library.error());
    }
    // Any size, depth and border; only a kernel whose weights do not fill it cannot be transformed.
    const auto& k = q.spec->kernel;
    if (k.weights.size() != static_cast<std::size_t>(k.width) * static_cast<std::size_t>(k.height)) {
        return Support::no("the FFT method needs the kernel's weights to fill its " + std::to_string(k.width) + " x " +
                           std::to_string(k.height) + " size");
    }
    return Support::yes();
}

LaunchShape fftShape(const ShapeQuery& /*q*/)
{
    // cuFFT and the pad, product and extract kernels size their own launches per run.
    LaunchShape s;
    s.variant = KernelVariant::Fft;
    return s;
}

std::size_t planFft(const Plan& plan, PlanData& data)
{
    const CufftApi& fft = cufftApi();
    const auto& spec = plan.spec;
    const auto anchor = spec.effectiveAnchor();
    const int kw = spec.kernel.width;
    const int kh = spec.kernel.height;
    if (data.taps.size() != static_cast<std::size_t>(kw) * static_cast<std::size_t>(kh)) {
        throw PreconditionError("fft: the kernel's weights do not match its size");
    }
    const FftGeometry g = makeFftGeometry(plan.width, plan.height, plan.input.channels, kw, kh, anchor.x, anchor.y);
    // The inverse transform is unnormalised: fold 1 / (padW * padH) into the kernel.
    const double norm = 1.0 / (static_cast<double>(g.padW) * static_cast<double>(g.padH));
    std::vector<float> scaled(data.taps.size());
    std::transform(data.taps.begin(), data.taps.end(), scaled.begin(),
                   [norm](float t) { return static_cast<float>(t * norm); });
    const std::size_t work = (estimateWorkArea(fft, g) + 255) / 256 * 256;
    data.fft = std::make_shared<FftCache>(g, plan.device, std::move(scaled), data.tapSum, work);
    return g.workAreaOffset() + work + sizeof(unsigned);  // the float rule's flag follows the work area
}

static void launchFft(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, void* workspace,
                      const float* directTaps, StreamView stream)
{
    if (!plan.data || !plan.data->fft) {
        throw PreconditionError("fft: plan without FFT data");
    }
    FftCache& cache = *plan.data->fft;
    const FftGeometry& g = cache.geometry();
    const PixelDepth in = plan.input.depth;
    const PixelDepth out = dst.format.depth;
    const int channels = plan.input.channels;
    if (src.width != g.width || src.height != g.height || dst.width != g.width || dst.height != g.height ||
        src.format.channels != channels || dst.format.channels != channels) {
        throw InvalidInput("fft: images differ from the plan");
    }
    if (out != in && out != PixelDepth::F32) {
        throw PreconditionError("fft: no variant for " + plan.input.name() + " -> " + dst.format.name());
    }

    const auto& spec = plan.spec;
    FrameParams p;
    p.width = g.width;
    p.height = g.height;
    p.extentW = g.extentW();
    p.extentH = g.extentH();
    p.padW = g.padW;
    p.padH = g.padH;
    p.planeFloats = g.planeFloats();
    p.anchorX = g.anchorX;
    p.anchorY = g.anchorY;
    p.border = borderCode(spec.border);
    p.borderValue = static_cast<float>(spec.borderValue);
    p.centre = fftCentre(in);
    p.addBack = static_cast<float>(spec.offset + static_cast<double>(p.centre) * cache.tapSum());

    const DirectTaps direct = makeDirectTaps(spec, src, directTaps);
    // Each run marks its own flag value, so no clearing pass is needed: a value left by an
    // earlier run never matches (and a stray match only costs a recompute, never a wrong pixel).
    static std::atomic<unsigned> runs{0};
    unsigned epoch = ++runs;
    if (epoch == 0) {
        epoch = ++runs;
    }
    const cudaStream_t s = cudaStreamOf(stream);
    auto* base = static_cast<char*>(workspace);
    FftCache::Buffers b;
    b.frames = reinterpret_cast<float*>(base);
    b.spectra = reinterpret_cast<cufftComplex*>(base + g.spectraOffset());
    b.work = base + g.workAreaOffset();
    auto* flag = reinterpret_cast<unsigned*>(base + g.workAreaOffset() + cache.reservedWork());

    cache.prepare(s, b);
    switch (in) {
    case PixelDepth::U8: launchPad<std::uint8_t>(src, b.frames, p, channels, s); break;
    case PixelDepth::U16: launchPad<std::uint16_t>(src, b.frames, p, channels, s); break;
    case PixelDepth::F32: launchPad<float>(src, b.frames, p, channels, s); break;
    }
    cache.forward(s, b);
    launchMultiply(b.spectra, cache.spectrum(), g.planeComplex(), channels, s);
    cache.inverse(s, b);
    switch (out) {
    case PixelDepth::U8:
        launchExtract<std::uint8_t>(b.frames, dst, p, channels, flag, epoch, s);
        launchRecompute<std::uint8_t>(direct, dst, channels, flag, epoch, plan.device, s);
        break;
    case PixelDepth::U16:
        launchExtract<std::uint16_t>(b.frames, dst, p, channels, flag, epoch, s);
        launchRecompute<std::uint16_t>(direct, dst, channels, flag, epoch, plan.device, s);
        break;
    case PixelDepth::F32:
        launchExtract<float>(b.frames, dst, p, channels, flag, epoch, s);
        launchRecompute<float>(direct, dst, channels, flag, epoch, plan.device, s);
        break;
    }
}

void runFft(const LaunchArgs& a)
{
    launchFft(a.plan, a.src, a.dst, a.workspace + a.plan.data->fftWorkspaceOffset, uploadedDirectTaps(a.plan),
              a.stream);
}

}  // namespace tessera::gpu::detail
