// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/device_info.h"

#include "gpu/runtime/cufft_loader.h"
#include "values/log.h"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <optional>

namespace tessera::gpu {

namespace {

int attribute(cudaDeviceAttr attr, int ordinal)
{
    int value = 0;
    if (cudaDeviceGetAttribute(&value, attr, ordinal) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return value;
}

std::string reasonFor(cudaError_t err, int driverVersion, int runtimeVersion)
{
    switch (err) {
    case cudaErrorNoDevice: return "no CUDA device found (the NVIDIA driver is loaded but reports no GPU)";
    case cudaErrorInsufficientDriver:
        if (driverVersion == 0) {
            return "no NVIDIA driver is installed (libcuda.so was not found)";
        }
        return "the NVIDIA driver supports CUDA " + formatCudaVersion(driverVersion) + " but Tessera needs CUDA " +
               formatCudaVersion(runtimeVersion) + ": update the driver";
    default: return std::string("CUDA is not usable: ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")";
    }
}

DeviceInfo readDevice(int id, int count)
{
    DeviceInfo d;
    d.id = DeviceId{id};
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, id) == cudaSuccess) {
        d.name = prop.name;
        d.ccMajor = prop.major;
        d.ccMinor = prop.minor;
        d.smCount = prop.multiProcessorCount;
        d.memoryTotal = prop.totalGlobalMem;
        d.l2CacheBytes = prop.l2CacheSize;
        d.sharedMemPerBlock = prop.sharedMemPerBlock;
        d.sharedMemPerBlockOptin = prop.sharedMemPerBlockOptin;
        d.sharedMemPerSm = prop.sharedMemPerMultiprocessor;
        d.memoryBusWidthBits = prop.memoryBusWidth;
        d.maxThreadsPerBlock = prop.maxThreadsPerBlock;
        d.warpSize = prop.warpSize;
    } else {
        cudaGetLastError();
    }
    // Clock rates left cudaDeviceProp in CUDA 13; attributes work on 12 and 13 alike.
    d.clockKHz = attribute(cudaDevAttrClockRate, id);
    d.memoryClockKHz = attribute(cudaDevAttrMemoryClockRate, id);

    char bus[32] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, id) == cudaSuccess) {
        d.pciBusId = bus;
    } else {
        cudaGetLastError();
    }

    int previous = 0;
    cudaGetDevice(&previous);
    if (cudaSetDevice(id) == cudaSuccess) {
        size_t freeBytes = 0;
        size_t totalBytes = 0;
        if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess) {
            d.memoryFree = freeBytes;
            d.memoryTotal = totalBytes;
        } else {
            cudaGetLastError();
        }
    } else {
        cudaGetLastError();
    }
    cudaSetDevice(previous);

    d.peerAccess.assign(static_cast<size_t>(count), false);
    for (int j = 0; j < count; ++j) {
        int can = 0;
        if (j != id && cudaDeviceCanAccessPeer(&can, id, j) == cudaSuccess) {
            d.peerAccess[static_cast<size_t>(j)] = can != 0;
        } else {
            cudaGetLastError();
        }
    }
    return d;
}

DeviceSnapshot queryDevices()
{
    DeviceSnapshot snap;
    // cuFFT is opened on the first call and kept; later snapshots read what that found.
    const detail::CufftLibrary& cufft = detail::cufftLibrary();
    snap.cufftVersion = cufft.version();
    snap.fft = cufft.describe();
    if (cudaDriverGetVersion(&snap.driverVersion) != cudaSuccess) {
        snap.driverVersion = 0;
        cudaGetLastError();
    }
    if (cudaRuntimeGetVersion(&snap.runtimeVersion) != cudaSuccess) {
        snap.runtimeVersion = 0;
        cudaGetLastError();
    }
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        cudaGetLastError();
        snap.reason = reasonFor(err, snap.driverVersion, snap.runtimeVersion);
        return snap;
    }
    if (count == 0) {
        snap.reason = "no CUDA device found";
        return snap;
    }
    for (int i = 0; i < count; ++i) {
        snap.devices.push_back(readDevice(i, count));
    }
    return snap;
}

// One snapshot per process; the lock also keeps two first calls from querying twice.
struct Cache {
    std::mutex mutex;
    std::optional<DeviceSnapshot> snapshot;
    std::atomic<std::uint64_t> scans{0};
};

Cache& cache()
{
    static Cache c;
    return c;
}

DeviceSnapshot scanLocked(Cache& c)
{
    c.snapshot = queryDevices();
    ++c.scans;
    values::logIf(values::LogCategory::Device, [&] {
        const DeviceSnapshot& snap = *c.snapshot;
        if (!snap.hasGpu()) {
            return "no GPU: " + snap.reason + "; the CPU path runs everything";
        }
        std::string text = std::to_string(snap.devices.size()) + " CUDA device(s):";
        for (const DeviceInfo& d : snap.devices) {
            char line[160];
            std::snprintf(line, sizeof line, " %s %s (%.1f of %.1f GiB free);", describe(d.id).c_str(), d.name.c_str(),
                          static_cast<double>(d.memoryFree) / (1u << 30),
                          static_cast<double>(d.memoryTotal) / (1u << 30));
            text += line;
        }
        return text + " " + snap.fft;
    });
    return *c.snapshot;
}

}  // namespace

DeviceSnapshot enumerateDevices()
{
    Cache& c = cache();
    const std::lock_guard lock(c.mutex);
    return c.snapshot ? *c.snapshot : scanLocked(c);
}

DeviceSnapshot rescanDevices()
{
    Cache& c = cache();
    const std::lock_guard lock(c.mutex);
    return scanLocked(c);
}

std::uint64_t deviceScans() noexcept
{
    return cache().scans.load();
}

}  // namespace tessera::gpu
