// SPDX-License-Identifier: Apache-2.0
#pragma once

// Helpers of the JPEG tests: images with detail, OpenCV's encoder and decoder as an outside
// reference, and encodes libjpeg can make that OpenCV cannot (CMYK, many scans).

#include "app/io/codec/codec.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cstdio>
#include <jpeglib.h>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

namespace tessera::app::codec::testing {

/// An image with gradients and noise, so that every DCT block has detail.
inline cv::Mat detailedImage(int rows, int cols, int type, unsigned seed = 7)
{
    cv::Mat img(rows, cols, type);
    cv::RNG rng(seed);
    rng.fill(img, cv::RNG::UNIFORM, 0, 256);
    for (int y = 0; y < rows; ++y) {
        auto* row = img.ptr<std::uint8_t>(y);
        for (int x = 0; x < cols * img.channels(); x += 2) {
            row[x] = static_cast<std::uint8_t>((x * 3 + y * 5) & 0xff);
        }
    }
    return img;
}

inline std::vector<std::uint8_t> cvEncode(const std::string& ext, const cv::Mat& img,
                                          const std::vector<int>& params = {})
{
    std::vector<std::uint8_t> out;
    if (!cv::imencode(ext, img, out, params)) {
        std::abort();
    }
    return out;
}

inline cv::Mat cvDecode(const std::vector<std::uint8_t>& bytes)
{
    return cv::imdecode(bytes, cv::IMREAD_UNCHANGED);
}

inline bool samePixels(const cv::Mat& a, const cv::Mat& b)
{
    return a.type() == b.type() && a.size() == b.size() && (a.empty() || cv::norm(a, b, cv::NORM_INF) == 0);
}

/// A JPEG encoded straight through libjpeg: colour space cs with components channels, a
/// progressive scan script when progressive is set. No error handling: the inputs are fixed.
inline std::vector<std::uint8_t> libjpegEncode(const cv::Mat& img, J_COLOR_SPACE in, J_COLOR_SPACE stored,
                                               bool progressive, int quality = 90)
{
    jpeg_compress_struct cinfo{};
    jpeg_error_mgr err{};
    cinfo.err = jpeg_std_error(&err);
    jpeg_create_compress(&cinfo);
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    jpeg_mem_dest(&cinfo, &buffer, &size);
    cinfo.image_width = static_cast<JDIMENSION>(img.cols);
    cinfo.image_height = static_cast<JDIMENSION>(img.rows);
    cinfo.input_components = img.channels();
    cinfo.in_color_space = in;
    jpeg_set_defaults(&cinfo);
    jpeg_set_colorspace(&cinfo, stored);
    jpeg_set_quality(&cinfo, quality, TRUE);
    if (progressive) {
        jpeg_simple_progression(&cinfo);
    }
    jpeg_start_compress(&cinfo, TRUE);
    for (int y = 0; y < img.rows; ++y) {
        JSAMPROW row = const_cast<JSAMPROW>(img.ptr<std::uint8_t>(y));
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    std::vector<std::uint8_t> out(buffer, buffer + size);
    jpeg_destroy_compress(&cinfo);
    std::free(buffer);
    return out;
}

inline std::span<const std::uint8_t> bytesOf(const std::vector<std::uint8_t>& v)
{
    return {v.data(), v.size()};
}

}  // namespace tessera::app::codec::testing
