// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::values {

/// Properties of one CUDA device, read once; plain data, no CUDA types.
struct DeviceInfo {
    DeviceId id;  ///< the CUDA ordinal; the default names the CPU path
    std::string name;
    int ccMajor = 0;
    int ccMinor = 0;
    int smCount = 0;
    std::uint64_t memoryTotal = 0;  ///< bytes
    std::uint64_t memoryFree = 0;   ///< bytes, at the time of the snapshot
    int l2CacheBytes = 0;
    std::uint64_t sharedMemPerBlock = 0;       ///< default limit, bytes
    std::uint64_t sharedMemPerBlockOptin = 0;  ///< opt-in limit, bytes
    std::uint64_t sharedMemPerSm = 0;
    int clockKHz = 0;  ///< SM clock
    int memoryClockKHz = 0;
    int memoryBusWidthBits = 0;
    int maxThreadsPerBlock = 0;
    int warpSize = 0;
    std::string pciBusId;          ///< e.g. "0000:19:00.0"
    std::vector<bool> peerAccess;  ///< peerAccess[j]: this device can access device j's memory

    /// Theoretical DRAM bandwidth from clock and bus width, GB/s (0 when unknown).
    double peakBandwidthGBs() const;
};

/// Every CUDA device and the versions around them. An empty device list is a normal answer;
/// `reason` then says why (no driver, driver too old, no device).
struct DeviceSnapshot {
    std::vector<DeviceInfo> devices;
    int driverVersion = 0;   ///< e.g. 13000; 0 when no driver is installed
    int runtimeVersion = 0;  ///< the CUDA runtime Tessera was built with, e.g. 13000
    std::string reason;      ///< empty when devices were found
    int cufftVersion = 0;    ///< cuFFT as opened at run time, e.g. 12000; 0 when it could not be
    /// One line on the FFT method: "FFT method: cuFFT 12.0.0 (<file>)", or why it is unavailable
    /// ("FFT method unavailable: ..."); empty when nobody looked.
    std::string fft;

    bool hasGpu() const { return !devices.empty(); }
    bool fftAvailable() const { return cufftVersion > 0; }
};

/// "13.0" from 13000; "none" for 0.
std::string formatCudaVersion(int version);
/// "12.0.0" from cuFFT's 12000; "none" for 0.
std::string formatCufftVersion(int version);

}  // namespace tessera::values
