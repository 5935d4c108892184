// SPDX-License-Identifier: Apache-2.0
#include "gpu/plan/cost_model.h"

#include <algorithm>

namespace tessera::gpu::detail {

CostModel CostModel::forDevice(const DeviceInfo& d)
{
    const double scale =
        d.smCount > 0 && d.clockKHz > 0 ? (d.smCount * d.clockKHz) / (kReferenceSmCount * kReferenceClockKHz) : 1.0;
    const double bw = d.peakBandwidthGBs() > 0 ? d.peakBandwidthGBs() / kReferencePeakBandwidthGBs : 1.0;
    CostModel m;
    m.fmaPerMs_ = kDirectFmaPerMs * scale;
    m.bytesPerMs_ = kAchievedBytesPerMs * bw;
    m.fftMsPerMpix_ = kFftMsPerMpix / bw;
    m.mmaPerMs_ = kMmaPerMs * scale;
    m.tf32MmaPerMs_ = kTf32MmaPerMs * scale;
    m.immaPerMs_ = kImmaPerMs * scale;
    m.fftRowsUnitsPerMs_ = kFftRowsUnitsPerMs * scale;
    m.valueMs_ = kTensorValueMs / scale;
    return m;
}

double CostModel::direct(double pixels, int channels, int taps, double bytes) const
{
    return std::max(pixels * channels * taps / fmaPerMs_, bytes / bytesPerMs_);
}

double CostModel::separable(double pixels, int channels, int kw, int kh, double bytes, double bandwidthShare) const
{
    return std::max(pixels * channels * (kw + kh) * kSeparableTapOverhead / fmaPerMs_,
                    bytes / (bytesPerMs_ * bandwidthShare));
}

double CostModel::fft(double pixels, int channels, int kw, int kh) const
{
    const double padded = pixels * (1.0 + (kw + kh) * kFftPaddingPerTap);
    return channels * padded / 1e6 * fftMsPerMpix_ + kFftFixedMs;
}

double CostModel::fftRows(double pixels, int channels, int bytesPerSample, int kw, int kh, double bytes) const
{
    // Per 128-sample segment: kh x 64 complex multiply-adds (4 FMAs each) for each output row,
    // one forward transform per input row (1 + (kh - 1) / 64 per output row) and one inverse;
    // the segment keeps 129 - kw outputs. (kw is at most 64 where this variant is eligible.)
    const double perSegment = 256.0 * kh + kFftRowsTransformUnits * (2.0 + (kh - 1) / 64.0);
    const double interleave = 1.0 + (channels - 1) * bytesPerSample / kFftRowsInterleaveBytes;
    const double units = pixels * channels * interleave * perSegment / (129.0 - std::min(kw, 64));
    return std::max(units / fftRowsUnitsPerMs_, bytes / bytesPerMs_);
}

double CostModel::tensor(double mmaCount, double values, double bytes) const
{
    return std::max(mmaCount / mmaPerMs_ + values * valueMs_, bytes / bytesPerMs_);
}

double CostModel::tf32(double mmaCount, double bytes, double bandwidthShare) const
{
    return std::max(mmaCount / tf32MmaPerMs_, bytes / (bytesPerMs_ * bandwidthShare));
}

double CostModel::imma(double mmaCount, double bytes) const
{
    return std::max(mmaCount / immaPerMs_, bytes / bytesPerMs_);
}

}  // namespace tessera::gpu::detail
