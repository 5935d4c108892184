// SPDX-License-Identifier: Apache-2.0
#pragma once

// JPEG files for the GPU decoder's tests, encoded straight through libjpeg so that the
// subsampling, progression and colour space are the test's choice: photo-like pictures
// (smooth shading, soft noise, a few hard edges) rather than noise, since those are what the
// two decoders are compared on.

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdio>
#include <jpeglib.h>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace tessera::testing {

/// Smooth colour ramps, blurred noise and hard-edged shapes: rows x cols, 3 channels (BGR)
/// or 1 when grey.
inline cv::Mat photoLike(int rows, int cols, bool grey = false, unsigned seed = 11)
{
    cv::Mat img(rows, cols, CV_8UC3);
    for (int y = 0; y < rows; ++y) {
        auto* p = img.ptr<cv::Vec3b>(y);
        for (int x = 0; x < cols; ++x) {
            p[x] = cv::Vec3b(static_cast<std::uint8_t>(40 + 160 * x / std::max(1, cols - 1)),
                             static_cast<std::uint8_t>(60 + 140 * y / std::max(1, rows - 1)),
                             static_cast<std::uint8_t>(128 + 100 * std::sin((x + y) * 0.01)));
        }
    }
    cv::Mat noise(rows, cols, CV_8UC3);
    cv::RNG rng(seed);
    rng.fill(noise, cv::RNG::NORMAL, 0, 24);
    cv::GaussianBlur(noise, noise, cv::Size(5, 5), 1.5);
    cv::add(img, noise, img);
    for (int i = 0; i < 12; ++i) {
        const cv::Point a(rng.uniform(0, cols), rng.uniform(0, rows));
        const cv::Point b(rng.uniform(0, cols), rng.uniform(0, rows));
        cv::rectangle(img, a, b, cv::Scalar(rng.uniform(0, 256), rng.uniform(0, 256), rng.uniform(0, 256)),
                      std::max(1, cols / 200));
    }
    if (grey) {
        cv::Mat g;
        cv::cvtColor(img, g, cv::COLOR_BGR2GRAY);
        return g;
    }
    return img;
}

struct JpegChoice {
    int quality = 90;
    bool progressive = false;
    bool full444 = false;   ///< no chroma subsampling (libjpeg's default is 4:2:0)
    bool cmyk = false;      ///< stored as 4-component CMYK (the image's BGR channels and 255 as K)
    bool storeRgb = false;  ///< three components stored as RGB, without the colour transform
};

/// img (BGR or grey) as a JPEG file. No error handling: the inputs are the tests' own.
inline std::vector<std::uint8_t> encodeJpeg(const cv::Mat& img, const JpegChoice& choice = {})
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
    cv::Mat rows = img;
    if (choice.cmyk) {
        std::vector<cv::Mat> planes;
        cv::split(img, planes);
        planes.push_back(cv::Mat(img.size(), CV_8UC1, cv::Scalar(255)));
        cv::merge(planes, rows);
        cinfo.input_components = 4;
        cinfo.in_color_space = JCS_CMYK;
    } else {
        cinfo.input_components = img.channels();
        cinfo.in_color_space = img.channels() == 1 ? JCS_GRAYSCALE : JCS_EXT_BGR;
    }
    jpeg_set_defaults(&cinfo);
    if (choice.storeRgb) {
        jpeg_set_colorspace(&cinfo, JCS_RGB);
    }
    jpeg_set_quality(&cinfo, choice.quality, TRUE);
    if (choice.full444 && cinfo.num_components >= 3) {
        cinfo.comp_info[0].h_samp_factor = 1;
        cinfo.comp_info[0].v_samp_factor = 1;
    }
    if (choice.progressive) {
        jpeg_simple_progression(&cinfo);
    }
    jpeg_start_compress(&cinfo, TRUE);
    for (int y = 0; y < rows.rows; ++y) {
        JSAMPROW row = const_cast<JSAMPROW>(rows.ptr<std::uint8_t>(y));
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    std::vector<std::uint8_t> out(buffer, buffer + size);
    jpeg_destroy_compress(&cinfo);
    std::free(buffer);
    return out;
}

/// The offset of the first frame header's marker (FF Cx) in a file encodeJpeg made.
inline std::size_t frameHeaderAt(const std::vector<std::uint8_t>& file)
{
    for (std::size_t i = 2; i + 1 < file.size(); ++i) {
        if (file[i] == 0xFF && (file[i + 1] == 0xC0 || file[i + 1] == 0xC1 || file[i + 1] == 0xC2)) {
            return i;
        }
    }
    std::abort();
}

}  // namespace tessera::testing
