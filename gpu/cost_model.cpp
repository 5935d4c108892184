// SPDX-License-Identifier: Apache-2.0
#include "gpu/cost_model.h"

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

double CostModel::tensor(double mmaCount, double values, double bytes) const
{
    return std::max(mmaCount / mmaPerMs_ + values * valueMs_, bytes / bytesPerMs_);
}

}  // namespace tessera::gpu::detail
