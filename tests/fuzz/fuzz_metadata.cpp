// SPDX-License-Identifier: Apache-2.0
// The metadata reader sees every input's EXIF, XMP and ICC profile before the outputs carry
// them on: it must never crash or hang, must keep each part within its bound, and whatever it
// returns must go into an output (here a small PNG) without a crash.
#include "app/io/image_metadata.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cstdlib>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const tessera::app::ImageMetadata m = tessera::app::readMetadata(data, size);
    if (m.orientation < 1 || m.orientation > 8 || m.exif.size() > tessera::app::kMaxMetadataPartBytes ||
        m.xmp.size() > tessera::app::kMaxMetadataPartBytes || m.icc.size() > tessera::app::kMaxMetadataPartBytes) {
        std::abort();
    }
    if (!m.empty()) {
        static const std::vector<unsigned char> png = [] {
            std::vector<unsigned char> out;
            cv::imencode(".png", cv::Mat(4, 4, CV_8UC3, cv::Scalar(1, 2, 3)), out);
            return out;
        }();
        std::vector<unsigned char> encoded = png;
        tessera::app::embedMetadata(encoded, m, 4, 4);
        if (encoded.empty()) {
            std::abort();
        }
    }
    return 0;
}
