// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: the planner's estimate of each method's kernel time. The numbers only need to
// rank the methods correctly; they are scaled from one reference device to the one planned for.

#include "tessera/gpu/device_info.h"

namespace tessera::gpu::detail {

/// The reference device the constants below were measured on: one H200.
inline constexpr double kReferenceSmCount = 132.0;
inline constexpr double kReferenceClockKHz = 1980000.0;
/// The H200's theoretical DRAM bandwidth (GB/s) from clock and bus width; a device's bandwidth
/// constants scale with its own theoretical figure over this one.
inline constexpr double kReferencePeakBandwidthGBs = 4800.0;

/// Sustained shared-memory FMA throughput of the fp32 direct kernels on the reference, per ms.
inline constexpr double kDirectFmaPerMs = 1.2e10;
/// Achieved device-memory bandwidth on the reference (about 3.3 TB/s of the 4.15 TB/s a plain
/// copy reaches), bytes per ms.
inline constexpr double kAchievedBytesPerMs = 3.3e9;
/// FFT method, one channel of one megapixel: forward and inverse transform and the spectrum
/// product, ms on the reference.
inline constexpr double kFftMsPerMpix = 0.030;
/// Fixed cost of an FFT run (launches, the pad and extract passes' start), ms.
inline constexpr double kFftFixedMs = 0.05;
/// Border padding of the FFT frame as a share of the image per tap of kw + kh.
inline constexpr double kFftPaddingPerTap = 1.0 / 4096.0;
/// The fused separable kernel spends about this many FMA slots per tap of kw + kh: the
/// horizontal pass also runs over the halo rows.
inline constexpr double kSeparableTapOverhead = 1.3;
/// Where bytes decide (short taps), the fused separable kernels move them at this share of the
/// direct kernels' rate: they stage the window and an intermediate and do two dependent passes
/// per step. Measured on an H200 at 8192^2 with 3 taps: f32 1-channel walk 0.180 ms against
/// direct 0.137; RGBA8 tiled 0.660 against direct 0.224.
inline constexpr double kSeparableBandwidthShare = 0.75;
inline constexpr double kSeparableTiledBandwidthShare = 0.3;
/// The two-pass separable form, against the fused one: taps from global memory and a float
/// intermediate written and read back.
inline constexpr double kTwoPassPenalty = 4.0;
/// Sustained m16n8k16 fp16 tensor-core operations on the reference, per ms. Measured on an
/// H200 with RGBA8 8192^2 (0.47 ms at 3x3, 0.83 at 15x15, 2.1 at 31x31).
inline constexpr double kMmaPerMs = 1.0e8;
/// m16n8k8 TF32 operations of the TF32 walking separable kernel on the reference, per ms, set
/// on the separable estimate's scale so that the two rank as measured on an H200 at 8192^2
/// f32 Gaussians: 31 taps 0.270 ms against the FMA walk's 0.287 (estimates 0.42 and 0.45),
/// 15 taps 0.218 against 0.208 (estimates 0.24 and 0.22).
inline constexpr double kTf32MmaPerMs = 4.0e7;
/// m16n8k32 integer operations of the integer RGBA8 kernel (direct-rgba8-imma) on the reference,
/// per ms: K / 16 of them per pixel for a K x K kernel. Set from 5 x 5 on an H200 at 8192^2
/// (0.265 ms for 21 million); at 3 x 3 (0.199 ms) the bytes decide the estimate.
inline constexpr double kImmaPerMs = 7.9e7;
/// Staging and converting one pixel channel of a tensor-core window on the reference, ms.
inline constexpr double kTensorValueMs = 1.2e-9;
/// Row-spectrum FFT (fft-rows). Per 128-sample segment of an output row it does 256 FMAs per
/// kernel row plus the two transforms, which cost like kFftRowsTransformUnits FMAs each: fitted
/// to the H200 at 8192^2 f32 (0.383, 0.423, 0.464, 0.534, 0.678 ms for 7, 11, 15, 21, 31 taps
/// per side). The rate is set on the direct estimate's scale, which reads the fixed-size direct
/// kernels about 1.7 times too slow (0.396 ms at 11 x 11, 0.735 at 15 x 15), so that the two
/// cross where they do on the device: between 11 and 13 taps per side.
inline constexpr double kFftRowsUnitsPerMs = 1.57e10;
inline constexpr double kFftRowsTransformUnits = 8700.0;
/// fft-rows runs one channel per block and so reads every other channel's bytes of its window
/// too: each channel costs 1 + (C - 1) x (bytes per sample) / kFftRowsInterleaveBytes times one
/// channel alone. Fitted to f32 4-channel 15 x 15 (5.63 ms, 3.0 x four 0.464) and u16 3-channel
/// (2.73 ms, 2.0 x three).
inline constexpr double kFftRowsInterleaveBytes = 6.0;
/// Below this many taps the direct kernels always beat the FFT; it is not even estimated.
inline constexpr int kFftMinTaps = 64;

/// Rough kernel-time estimates in milliseconds for one device.
class CostModel {
public:
    /// The constants above scaled to `d` (SM count times clock for arithmetic, theoretical
    /// bandwidth for memory); an unknown figure keeps the reference's. Never throws.
    static CostModel forDevice(const DeviceInfo& d);

    /// fp32 direct kernels: taps per output, or the bytes moved, whichever takes longer.
    double direct(double pixels, int channels, int taps, double bytes) const;
    /// The fused separable kernel (two-pass: multiply by kTwoPassPenalty), its bytes moved at
    /// `bandwidthShare` of the direct kernels' rate.
    double separable(double pixels, int channels, int kw, int kh, double bytes, double bandwidthShare) const;
    /// The FFT method.
    double fft(double pixels, int channels, int kw, int kh) const;
    /// The row-spectrum FFT variant: its vertical sums and transforms, or the bytes moved.
    double fftRows(double pixels, int channels, int bytesPerSample, int kw, int kh, double bytes) const;
    /// Tensor-core kernels: mma.sync count plus window staging, or the bytes moved.
    double tensor(double mmaCount, double values, double bytes) const;
    /// The TF32 walking separable kernel: its m16n8k8 count, or the bytes moved at
    /// `bandwidthShare` of the direct kernels' rate (it stages like the FMA walk).
    double tf32(double mmaCount, double bytes, double bandwidthShare) const;
    /// The integer RGBA8 kernel: its m16n8k32 count, or the bytes moved.
    double imma(double mmaCount, double bytes) const;

private:
    double fmaPerMs_ = kDirectFmaPerMs;
    double bytesPerMs_ = kAchievedBytesPerMs;
    double fftMsPerMpix_ = kFftMsPerMpix;
    double mmaPerMs_ = kMmaPerMs;
    double tf32MmaPerMs_ = kTf32MmaPerMs;
    double immaPerMs_ = kImmaPerMs;
    double fftRowsUnitsPerMs_ = kFftRowsUnitsPerMs;
    double valueMs_ = kTensorValueMs;
};

}  // namespace tessera::gpu::detail
