#pragma once

#include "filters/filter_spec.h"
#include "gpu/executor.h"

#include <opencv2/core/mat.hpp>
#include <opencv2/core/types.hpp>

#include <memory>
#include <string>
#include <vector>

namespace tessera::gpu {

/// What a synchronous GPU run did.
struct GpuRunInfo {
    int device = -1;
    std::vector<std::string> plans;  ///< Plan::describe() of each step
    std::vector<Method> methods;     ///< method of each step
    double kernelMs = 0.0;           ///< all steps' kernels, CUDA events on the work stream
    double uploadMs = 0.0;
    double downloadMs = 0.0;
};

/// An image kept on one GPU so that repeated filtering uploads nothing: the interactive preview
/// path. Not thread-safe; use it from one thread (the Engine's worker).
class ResidentImage {
public:
    /// Uploads image to device and waits for the copy. Throws CudaError / OutOfDeviceMemory /
    /// std::invalid_argument (unsupported format, no such device).
    ResidentImage(const cv::Mat& image, int device);
    ~ResidentImage();
    ResidentImage(const ResidentImage&) = delete;
    ResidentImage& operator=(const ResidentImage&) = delete;

    /// Runs the chain on the resident image and returns the downloaded result (synchronous);
    /// same method rules as applyGpu(). info->uploadMs is 0: nothing is uploaded.
    cv::Mat apply(const filters::FilterChain& chain, Method method = Method::Auto, GpuRunInfo* info = nullptr);
    /// The chain's output inside region only (clipped to the image; throws std::invalid_argument
    /// when nothing is left): runs on the crop filters::regionWithHalo gives and downloads the
    /// region, so a preview of the visible part costs that part, not the whole image.
    cv::Mat applyRegion(const filters::FilterChain& chain, const cv::Rect& region, Method method = Method::Auto,
                        GpuRunInfo* info = nullptr);
    /// How long the upload in the constructor took (CUDA events).
    double uploadMilliseconds() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

/// Uploads src to `device`, runs the chain there (forcing `method` where it applies: a step
/// that cannot use it, such as Separable on a rank-2 kernel, falls back to Auto), downloads the
/// result and waits for it. Throws CudaError / OutOfDeviceMemory / std::invalid_argument.
cv::Mat applyGpu(const cv::Mat& src, const filters::FilterChain& chain, int device,
                 Method method = Method::Auto, GpuRunInfo* info = nullptr);

/// One spec; same contract as the chain version.
cv::Mat applyGpu(const cv::Mat& src, const filters::FilterSpec& spec, int device,
                 Method method = Method::Auto, GpuRunInfo* info = nullptr);

}  // namespace tessera::gpu
