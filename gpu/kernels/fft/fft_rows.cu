// SPDX-License-Identifier: Apache-2.0
#include "gpu/kernels/arch/async_copy.cuh"
#include "gpu/runtime/cuda_check.cuh"
#include "gpu/kernels/common/direct_recompute.cuh"
#include "values/errors.h"
#include "tessera/gpu/values.h"
#include "gpu/kernels/fft/fft_layout.h"
#include "gpu/kernels/fft/fft_rows.h"
#include "gpu/kernels/common/kernel_common.cuh"
#include "gpu/kernels/common/launch_common.cuh"
#include "gpu/plan/plan_data.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

// The row-spectrum FFT method ("fft-rows"): overlap-save along x, direct along y, all in one
// kernel and all on chip. A block owns a strip of 129 - kw output columns and kFftRowsTile
// output rows. It reads the kFftRowsTile + kh - 1 input rows of its window (128 columns each,
// through the border rule), transforms each into 65 frequency bins with a 128-point real FFT,
// sums kh products of input-row spectrum and kernel-row spectrum for every output row (the
// vertical taps, as complex multiply-adds), transforms the sums back and keeps the 129 - kw
// columns that did not wrap. Each input pixel is read about (1 + kh / 64) x 128 / (129 - kw)
// times and each output written once, against the whole-image FFT's five passes over a padded
// frame; the arithmetic per output is 256 kh / (129 - kw) FMAs plus two short transforms,
// against kw kh for the direct kernels.
//
// The 128-point real FFT is a 64-point complex FFT of (even, odd) pairs, done by eight threads
// as 8 x 8 (two radix-8 steps with one exchange through shared memory), then split into the
// real signal's bins. Bin 0 and bin 64 are both real and share slot 0 (bin 0 in x, bin 64 in
// y), so a row's spectrum is 64 float2 and takes the 512 bytes its 128 input floats took: the
// transform runs in place.
//
// Accuracy: fp32 transforms of 128 points; the error stays at a few 1e-7 of
// |scale| sum|k| max|input| (integer inputs are centred on the middle of their range first,
// as in the whole-image FFT). Tests allow the FFT methods' bound. A NaN or infinity spreads
// through the transforms of the block whose window holds it, and of no other block: a block
// whose row spectra are not all finite computes its tile again as direct sums
// (direct_recompute.cuh).

namespace tessera::gpu::detail {

namespace {

constexpr int kLen = kFftRowsLength;  // real samples per transformed row
constexpr int kSlots = kLen / 2;      // float2 per row spectrum
// Rows sit 68 float2 apart: the four rows a warp transforms at once then start 8 banks apart
// instead of on the same bank.
constexpr int kRowStride = kSlots + 4;
constexpr int kLoadBatch = 16;       // window loads a thread issues before storing any
constexpr int kTile = kFftRowsTile;  // output rows per block
constexpr int kThreads = 256;
constexpr int kRowsPerThread = kTile * kSlots / kThreads;  // vertical sums per thread (16)
static_assert(kRowsPerThread == 16, "the sliding window below is written for 16 rows");

__device__ __forceinline__ float2 cadd(float2 a, float2 b)
{
    return make_float2(a.x + b.x, a.y + b.y);
}
__device__ __forceinline__ float2 csub(float2 a, float2 b)
{
    return make_float2(a.x - b.x, a.y - b.y);
}
__device__ __forceinline__ float2 cmul(float2 a, float2 b)
{
    return make_float2(fmaf(a.x, b.x, -a.y * b.y), fmaf(a.x, b.y, a.y * b.x));
}
__device__ __forceinline__ float2 conjf2(float2 a)
{
    return make_float2(a.x, -a.y);
}
/// a * (S i) with S = +1 or -1.
template <int S>
__device__ __forceinline__ float2 mulI(float2 a)
{
    return S > 0 ? make_float2(-a.y, a.x) : make_float2(a.y, -a.x);
}

/// In-register 8-point DFT, natural order in and out; S = -1 forward, +1 inverse (unscaled).
template <int S>
__device__ __forceinline__ void dft8(float2 (&a)[8])
{
    constexpr float r = 0.70710678118654752f;
    const float2 u0 = cadd(a[0], a[4]), u1 = csub(a[0], a[4]);
    const float2 u2 = cadd(a[2], a[6]), u3 = csub(a[2], a[6]);
    const float2 u4 = cadd(a[1], a[5]), u5 = csub(a[1], a[5]);
    const float2 u6 = cadd(a[3], a[7]), u7 = csub(a[3], a[7]);
    const float2 e0 = cadd(u0, u2), e2 = csub(u0, u2);
    const float2 e1 = cadd(u1, mulI<S>(u3)), e3 = csub(u1, mulI<S>(u3));
    const float2 o0 = cadd(u4, u6), o2 = csub(u4, u6);
    const float2 o1 = cadd(u5, mulI<S>(u7)), o3 = csub(u5, mulI<S>(u7));
    // Twiddles W8^k = exp(S i pi k / 4).
    const float2 t1 = make_float2(r * (o1.x - S * o1.y), r * (o1.y + S * o1.x));  // (1 + S i) / sqrt 2
    const float2 t2 = mulI<S>(o2);
    const float2 t3 = make_float2(r * (-o3.x - S * o3.y), r * (-o3.y + S * o3.x));  // (-1 + S i) / sqrt 2
    a[0] = cadd(e0, o0);
    a[4] = csub(e0, o0);
    a[1] = cadd(e1, t1);
    a[5] = csub(e1, t1);
    a[2] = cadd(e2, t2);
    a[6] = csub(e2, t2);
    a[3] = cadd(e3, t3);
    a[7] = csub(e3, t3);
}

/// exp(S 2 pi i e / 128) from the block's table of exp(-2 pi i j / 128).
template <int S>
__device__ __forceinline__ float2 twiddle(const float2* table, int e)
{
    const float2 w = table[e & (kLen - 1)];
    return S < 0 ? w : conjf2(w);
}

/// The 64-point complex FFT's two radix-8 steps for lane t of a row's eight threads: on entry
/// v[n] holds element t + 8 n, on exit output t + 8 k. `row` (64 float2) is the exchange area;
/// `tw64[k * 8 + t]` is exp(-2 pi i t k / 64), laid out so a group's eight lanes read eight
/// neighbouring entries.
template <int S>
__device__ __forceinline__ void fft64(float2 (&v)[8], float2* row, const float2* tw64, int t, unsigned mask)
{
    dft8<S>(v);
#pragma unroll
    for (int k = 1; k < 8; ++k) {
        const float2 w = tw64[k * 8 + t];
        v[k] = cmul(v[k], S < 0 ? w : conjf2(w));
    }
    __syncwarp(mask);  // every lane has read its inputs from row
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        row[t * 8 + ((k + t) & 7)] = v[k];  // rotated within each group of 8: fewer bank conflicts
    }
    __syncwarp(mask);
#pragma unroll
    for (int n = 0; n < 8; ++n) {
        v[n] = row[n * 8 + ((t + n) & 7)];
    }
    dft8<S>(v);
}

/// Forward transform of one row in place: 128 floats in, 64 spectrum slots out (slot 0: bin 0
/// in x, bin 64 in y; slot k: bin k), each bin twice its true value.
__device__ __forceinline__ void forwardRow(float2* row, const float2* table, const float2* tw64, int t, unsigned mask)
{
    float2 v[8];
#pragma unroll
    for (int n = 0; n < 8; ++n) {
        v[n] = row[t + 8 * n];  // (x[2m], x[2m + 1]) with m = t + 8 n
    }
    fft64<-1>(v, row, tw64, t, mask);
    __syncwarp(mask);
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        row[t + 8 * k] = v[k];
    }
    __syncwarp(mask);
    float2 partner[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        partner[k] = row[(kSlots - (t + 8 * k)) & (kSlots - 1)];
    }
    __syncwarp(mask);
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        const int bin = t + 8 * k;
        const float2 z = v[k];
        const float2 zm = conjf2(partner[k]);
        // 2 X[k] = (Z[k] + conj Z[64-k]) - i W128^k (Z[k] - conj Z[64-k])
        const float2 even = cadd(z, zm);
        const float2 odd = cmul(twiddle<-1>(table, bin), csub(z, zm));
        float2 x = make_float2(even.x + odd.y, even.y - odd.x);
        if (bin == 0) {
            x = make_float2(2.0f * (z.x + z.y), 2.0f * (z.x - z.y));
        }
        row[bin] = x;
    }
}

/// Inverse of forwardRow for a product spectrum (its factors folded into the kernel spectrum):
/// on exit lane t holds outputs 2 (t + 8 k) and 2 (t + 8 k) + 1 in out[k].x and out[k].y.
__device__ __forceinline__ void inverseRow(float2* row, const float2* table, const float2* tw64, int t, unsigned mask,
                                           float2 (&v)[8])
{
#pragma unroll
    for (int n = 0; n < 8; ++n) {
        const int bin = t + 8 * n;
        const float2 c = row[bin];
        const float2 cm = conjf2(row[(kSlots - bin) & (kSlots - 1)]);
        // Even samples' spectrum E = C[k] + conj C[64-k], odd samples' O = (C[k] - conj C[64-k]) W128^-k.
        float2 e = cadd(c, cm);
        float2 o = cmul(csub(c, cm), twiddle<1>(table, bin));
        if (bin == 0) {
            e = make_float2(c.x + c.y, 0.0f);
            o = make_float2(c.x - c.y, 0.0f);
        }
        v[n] = make_float2(e.x - o.y, e.y + o.x);  // E + i O
    }
    fft64<1>(v, row, tw64, t, mask);
}

/// One channel of pixel (x, y) through the border rule, centred: value - centre.
template <typename T, int C>
__device__ __forceinline__ float fetchChannel(const ConvParams& p, int x, int y, int c, bool inside, float centre)
{
    const int gy = inside ? y : mapBorder(y, p.height, p.border);
    const int gx = inside ? x : mapBorder(x, p.width, p.border);
    if (gx < 0 || gy < 0) {
        return p.borderValue - centre;
    }
    const T* row = rowPtr<T>(p.src, p.srcPitch, gy);
    return static_cast<float>(row[static_cast<std::size_t>(gx) * C + c]) - centre;
}

/// Loads the block's input window, rows x kLen values of channel c through the border rule and
/// centred, into rows of 2 kRowStride floats. Each thread keeps one column (256 threads, 128
/// columns: rows r0, r0 + 2, ...), so the column's border mapping and address are worked out
/// once. A float image inside the border is copied with cp.async, everything in flight at
/// once; the rest goes through registers in batches, every load of a batch before its stores.
template <typename Tin, int C>
__device__ __forceinline__ void loadWindowRows(const ConvParams& p, float* flat, int ox, int oy, int rows, int c,
                                               bool inside, float centre)
{
    const int n = threadIdx.x & (kLen - 1);
    const int r0 = threadIdx.x / kLen;
    float* column = flat + n;
    if constexpr (std::is_same_v<Tin, float> && C == 1) {
        if (inside) {
            const char* from = reinterpret_cast<const char*>(rowPtr<float>(p.src, p.srcPitch, oy) + ox + n);
            for (int r = r0; r < rows; r += 2) {
                copyAsync4(column + r * (2 * kRowStride), from + static_cast<std::size_t>(r) * p.srcPitch);
            }
            commitAsync();
            waitAsync();
            return;
        }
    }
    const int gx = inside ? ox + n : mapBorder(ox + n, p.width, p.border);
    const std::size_t element = static_cast<std::size_t>(gx) * C + c;
    const float outside = p.borderValue - centre;
    for (int rb = r0; rb < rows; rb += 2 * kLoadBatch) {
        float v[kLoadBatch];
#pragma unroll
        for (int u = 0; u < kLoadBatch; ++u) {
            const int r = rb + 2 * u;
            if (r < rows) {
                const int gy = inside ? oy + r : mapBorder(oy + r, p.height, p.border);
                v[u] = gx < 0 || gy < 0 ? outside
                                        : static_cast<float>(rowPtr<Tin>(p.src, p.srcPitch, gy)[element]) - centre;
            }
        }
#pragma unroll
        for (int u = 0; u < kLoadBatch; ++u) {
            const int r = rb + 2 * u;
            if (r < rows) {
                column[r * (2 * kRowStride)] = v[u];
            }
        }
    }
}

template <typename Tin, typename Tout, int C>
__global__ void __launch_bounds__(kThreads, 2) fftRowsKernel(const ConvParams p, const float2* __restrict__ spectrum,
                                                             float centre, const __grid_constant__ DirectTaps direct)
{
    extern __shared__ float4 sharedArea[];
    float2* table = reinterpret_cast<float2*>(sharedArea);  // kLen twiddles
    float2* tw64 = table + kLen;                            // 64 twiddles of the 8 x 8 steps
    float2* kernelSpec = tw64 + 64;                         // kh x kSlots
    float2* rows = kernelSpec + p.kh * kSlots;              // (kTile + kh - 1) x kRowStride
    const int tid = threadIdx.x;
    const int c = blockIdx.z;
    const int strip = kLen + 1 - p.kw;
    const int x0 = blockIdx.x * strip;
    const int y0 = blockIdx.y * kTile;
    const int inRows = kTile + p.kh - 1;

    if (tid < kLen) {
        float s, co;
        sincospif(-static_cast<float>(tid) / (kLen / 2), &s, &co);
        table[tid] = make_float2(co, s);
    } else if (tid < kLen + 64) {
        const int k = (tid - kLen) >> 3;
        const int lane8 = tid & 7;
        float s, co;
        sincospif(-static_cast<float>(lane8 * k) / 32.0f, &s, &co);
        tw64[k * 8 + lane8] = make_float2(co, s);
    }
    for (int i = tid; i < p.kh * kSlots; i += kThreads) {
        kernelSpec[i] = spectrum[i];
    }
    const int ox = x0 - p.anchorX;
    const int oy = y0 - p.anchorY;
    const bool inside = ox >= 0 && oy >= 0 && ox + kLen <= p.width && oy + inRows <= p.height;
    loadWindowRows<Tin, C>(p, reinterpret_cast<float*>(rows), ox, oy, inRows, c, inside, centre);
    __syncthreads();

    // Forward transforms, eight threads per row.
    const int lane = tid & 31;
    const int t = tid & 7;
    const unsigned mask = 0xFFu << (lane & ~7);
    for (int r = tid >> 3; r < inRows; r += kThreads / 8) {
        forwardRow(rows + r * kRowStride, table, tw64, t, mask);
    }
    // The float rule: every bin of a row depends on every sample with a weight of 1 for bin 0,
    // so a NaN or an infinity in the window (or a row sum past the float range) leaves slot 0 of
    // its row not finite. The barrier the transforms need anyway tells the whole block.
    bool rowBad = false;
    if (tid < inRows) {
        const float2 slot0 = rows[tid * kRowStride];
        rowBad = !isfinite(slot0.x) || !isfinite(slot0.y);
    }
    const bool recompute = __syncthreads_or(rowBad) != 0;

    // Vertical taps: thread (slot s, rows q * 16 .. q * 16 + 15), a window of 16 input-row
    // spectra sliding down by one row per tap (the ring index keeps the registers in place).
    const int s = tid & (kSlots - 1);
    const int firstRow = (tid / kSlots) * kRowsPerThread;
    // Slot s of a kernel row is the complex factor (a, b): re += x a - y b, im += x b + y a. Slot 0
    // holds two real factors instead, bin 0's for x and bin 64's for y: re += x a, im += y b.
    const bool packed = s == 0;
    float2 acc[kRowsPerThread];
    float2 w[kRowsPerThread];
#pragma unroll
    for (int j = 0; j < kRowsPerThread; ++j) {
        acc[j] = make_float2(0.0f, 0.0f);
    }
#pragma unroll
    for (int j = 0; j + 1 < kRowsPerThread; ++j) {
        w[j] = rows[(firstRow + j) * kRowStride + s];
    }
    for (int kb = 0; kb < p.kh; kb += kRowsPerThread) {
#pragma unroll
        for (int u = 0; u < kRowsPerThread; ++u) {
            const int ky = kb + u;
            if (ky < p.kh) {
                w[(u + kRowsPerThread - 1) % kRowsPerThread] =
                    rows[(firstRow + ky + kRowsPerThread - 1) * kRowStride + s];
                const float2 k = kernelSpec[ky * kSlots + s];
                const float cross = packed ? 0.0f : k.y;  // multiplies the other part
                const float own = packed ? k.y : k.x;     // multiplies y into im
#pragma unroll
                for (int j = 0; j < kRowsPerThread; ++j) {
                    const float2 x = w[(u + j) % kRowsPerThread];
                    acc[j].x = fmaf(x.x, k.x, fmaf(-x.y, cross, acc[j].x));
                    acc[j].y = fmaf(x.x, cross, fmaf(x.y, own, acc[j].y));
                }
            }
        }
    }
    __syncthreads();  // every thread is done with the input spectra
#pragma unroll
    for (int j = 0; j < kRowsPerThread; ++j) {
        rows[(firstRow + j) * kRowStride + s] = acc[j];
    }
    __syncthreads();

    // Inverse transforms and stores: the first `strip` samples of each row did not wrap.
    const float offset = p.offset;
    for (int r = tid >> 3; r < kTile; r += kThreads / 8) {
        float2 v[8];
        inverseRow(rows + r * kRowStride, table, tw64, t, mask, v);
        const int y = y0 + r;
        if (y >= p.height) {
            continue;
        }
        Tout* out = rowPtr<Tout>(p.dst, p.dstPitch, y);
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            const int m = 2 * (t + 8 * k);
            const int x = x0 + m;
            if (m < strip && x < p.width) {
                out[static_cast<std::size_t>(x) * C + c] = Saturate<Tout>::from(v[k].x + offset);
            }
            if (m + 1 < strip && x + 1 < p.width) {
                out[static_cast<std::size_t>(x + 1) * C + c] = Saturate<Tout>::from(v[k].y + offset);
            }
        }
    }
    if (recompute) {      // the same for the whole block
        __syncthreads();  // every transform output is stored before the direct sums replace it
        storeDirectTile<Tout, C>(direct, p.dst, p.dstPitch, x0, y0, strip, kTile, c);
    }
}

}  // namespace

std::size_t fftRowsSharedBytes(int kh)
{
    return (static_cast<std::size_t>(kLen + 64) + static_cast<std::size_t>(kh) * kSlots +
            static_cast<std::size_t>(kTile + kh - 1) * kRowStride) *
           sizeof(float2);
}

std::vector<float> fftRowsSpectrum(const std::vector<float>& taps, int kw, int kh)
{
    // Slot k of kernel row ky: conj(G[k]) / 256 for the row g zero-padded to 128 (the forward
    // transform yields twice each bin, the inverse 64 times each sample); slot 0 holds the real
    // factors of bins 0 and 64.
    std::vector<float> out(static_cast<std::size_t>(kh) * kSlots * 2);
    constexpr double kPi = 3.14159265358979323846;
    // exp(-2 pi i j / 128) for every j: the sums below index it, not sin and cos per tap.
    std::complex<double> roots[kLen];
    for (int j = 0; j < kLen; ++j) {
        const double a = -2.0 * kPi * j / kLen;
        roots[j] = {std::cos(a), std::sin(a)};
    }
    for (int ky = 0; ky < kh; ++ky) {
        std::complex<double> bins[kSlots + 1];
        for (int k = 0; k <= kSlots; ++k) {
            std::complex<double> sum = 0.0;
            for (int n = 0; n < kw; ++n) {
                sum += static_cast<double>(taps[static_cast<std::size_t>(ky * kw + n)]) * roots[(k * n) % kLen];
            }
            bins[k] = std::conj(sum) / 256.0;
        }
        float* row = out.data() + static_cast<std::size_t>(ky) * kSlots * 2;
        row[0] = static_cast<float>(bins[0].real());
        row[1] = static_cast<float>(bins[kSlots].real());
        for (int k = 1; k < kSlots; ++k) {
            row[2 * k] = static_cast<float>(bins[k].real());
            row[2 * k + 1] = static_cast<float>(bins[k].imag());
        }
    }
    return out;
}

Support canFftRows(const ShapeQuery& q)
{
    // First what the whole method needs. This kernel does not call cuFFT, but the FFT method
    // stays one switch for users: it is there exactly when cuFFT is (requireMethod and --method
    // fft say so up front).
    if (Support s = canFft(q); !s) {
        return s;
    }
    if (q.kw > kFftRowsMaxSide || q.kh > kFftRowsMaxSide) {
        return Support::no("row-spectrum FFT kernels take at most " + std::to_string(kFftRowsMaxSide) +
                           " taps per side, not " + std::to_string(q.kw) + " x " + std::to_string(q.kh));
    }
    const std::size_t bytes = fftRowsSharedBytes(q.kh);
    if (bytes > q.sharedLimit) {
        return Support::no("the row-spectrum FFT kernel needs " + std::to_string(bytes) +
                           " bytes of shared memory, the device has " + std::to_string(q.sharedLimit));
    }
    return Support::yes();
}

LaunchShape fftRowsShape(const ShapeQuery& q)
{
    LaunchShape s;
    s.blockX = kThreads;
    s.blockY = 1;
    s.tileWidth = kLen + 1 - q.kw;
    s.tileHeight = kTile;
    s.gridX = (q.width + s.tileWidth - 1) / s.tileWidth;
    s.gridY = (q.height + s.tileHeight - 1) / s.tileHeight;
    s.sharedBytes = fftRowsSharedBytes(q.kh);
    s.variant = KernelVariant::FftRows;
    return s;
}

static void launchFftRows(const Plan& plan, const DeviceImage& src, const DeviceImage& dst, const float* directTaps,
                          StreamView stream)
{
    if (plan.shape.variant != KernelVariant::FftRows || !plan.data || !plan.data->deviceTaps) {
        throw PreconditionError("launchFftRows: not a row-spectrum FFT plan");
    }
    const PlanData& data = *plan.data;
    const int kw = plan.spec.kernel.width;
    const int kh = plan.spec.kernel.height;
    const char* what = "fftRowsKernel launch";
    DeviceTaps& onDevice = *data.deviceTaps;
    std::call_once(onDevice.once, [&] {
        const std::vector<float> spectrum = fftRowsSpectrum(data.taps, kw, kh);
        onDevice.buffer = uploadNow(spectrum.data(), spectrum.size() * sizeof(float), plan.device);
    });
    ConvParams p = makeConvParams(plan.spec, src, dst);
    const float centre = fftCentre(plan.input.depth);
    // What centring took out comes back as a constant: centre x sum of the (scaled) taps.
    p.offset = static_cast<float>(plan.spec.offset + centre * data.tapSum);
    const auto* spectrum = static_cast<const float2*>(onDevice.buffer.data());
    const DirectTaps direct = makeDirectTaps(plan.spec, src, directTaps);
    const cudaStream_t s = cudaStreamOf(stream);
    const dim3 grid(static_cast<unsigned>(plan.shape.gridX), static_cast<unsigned>(plan.shape.gridY),
                    static_cast<unsigned>(plan.input.channels));
    dispatchDepths(plan.input.depth, data.kernelOutput.depth, "row-spectrum FFT", [&]<typename Tin, typename Tout>() {
        dispatchChannelCount(plan.input.channels, "row-spectrum FFT", [&]<int C>() {
            auto kernel = fftRowsKernel<Tin, Tout, C>;
            allowShared(kernel, plan.shape.sharedBytes);
            kernel<<<grid, kThreads, plan.shape.sharedBytes, s>>>(p, spectrum, centre, direct);
            check(cudaGetLastError(), what, __FILE__, __LINE__);
        });
    });
}

void runFftRows(const LaunchArgs& a)
{
    launchFftRows(a.plan, a.src, a.dst, uploadedDirectTaps(a.plan), a.stream);
}

}  // namespace tessera::gpu::detail
