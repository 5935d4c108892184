// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <stdexcept>
#include <string>

namespace tessera::gpu {

/// A failed CUDA call: what() reads "cudaMalloc(...) failed at gpu/x.cu:42: cudaErrorX (text)".
class CudaError : public std::runtime_error {
public:
    CudaError(int code, std::string call, std::string file, int line, const std::string& text);
    int code() const { return code_; }
    const std::string& call() const { return call_; }
    const std::string& file() const { return file_; }
    int line() const { return line_; }

private:
    int code_;
    std::string call_;
    std::string file_;
    int line_;
};

/// A device allocation that did not fit; callers may retry with smaller tiles or another device.
class OutOfDeviceMemory : public CudaError {
public:
    using CudaError::CudaError;
};

}  // namespace tessera::gpu
