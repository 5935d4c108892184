// SPDX-License-Identifier: Apache-2.0
// The real reader: the fuzz input is written to a file in a scratch folder and read with
// readImage(), sniffer, limits and OpenCV's decoders together. Small limits keep each run
// cheap; what matters is that a hostile file gives an ImageError, never a crash.
#include "fuzz_support.h"

#include "app/io/image_io.h"

#include <opencv2/core/utility.hpp>

#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    cv::setNumThreads(0);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string path = tessera::fuzz::writeScratch("input.img", data, size);
    tessera::app::ImageLimits limits;
    limits.maxWidth = 2048;
    limits.maxHeight = 2048;
    limits.maxPixels = 1u << 20;
    try {
        const cv::Mat img = tessera::app::readImage(path, limits);
        const int depth = img.depth();
        if (img.empty() || img.cols > limits.maxWidth || img.rows > limits.maxHeight ||
            (depth != CV_8U && depth != CV_16U && depth != CV_32F) ||
            (img.channels() != 1 && img.channels() != 3 && img.channels() != 4)) {
            std::abort();  // readImage promises these shapes
        }
    } catch (const tessera::app::ImageError&) {
    }
    return 0;
}
