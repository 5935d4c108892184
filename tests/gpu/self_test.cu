// SPDX-License-Identifier: Apache-2.0
#include "self_test.h"
#include "tessera/gpu/values.h"

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace tessera::gpu {

namespace {

__global__ void fillIota(unsigned* out, unsigned n, unsigned salt)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = i * 2654435761u ^ salt;
    }
}

std::string describe(const char* what, cudaError_t err)
{
    return std::string(what) + ": " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")";
}

}  // namespace

std::string runSelfTest(DeviceId device)
{
    int previous = 0;
    cudaGetDevice(&previous);
    cudaError_t err = cudaSetDevice(device.value());
    if (err != cudaSuccess) {
        cudaGetLastError();
        return describe("cudaSetDevice", err);
    }
    constexpr unsigned n = 1u << 16;
    constexpr unsigned salt = 0x5eed1234u;
    unsigned* dev = nullptr;
    std::string failure;
    err = cudaMalloc(&dev, n * sizeof(unsigned));
    if (err != cudaSuccess) {
        failure = describe("cudaMalloc", err);
    } else {
        fillIota<<<(n + 255) / 256, 256>>>(dev, n, salt);
        err = cudaGetLastError();
        std::vector<unsigned> host(n, 0u);
        if (err != cudaSuccess) {
            failure = describe("kernel launch", err);
        } else if ((err = cudaMemcpy(host.data(), dev, n * sizeof(unsigned), cudaMemcpyDeviceToHost)) != cudaSuccess) {
            failure = describe("cudaMemcpy", err);
        } else {
            for (unsigned i = 0; i < n; ++i) {
                if (host[i] != (i * 2654435761u ^ salt)) {
                    failure = "wrong value at index " + std::to_string(i);
                    break;
                }
            }
        }
        cudaFree(dev);
    }
    cudaGetLastError();
    cudaSetDevice(previous);
    return failure;
}

}  // namespace tessera::gpu
