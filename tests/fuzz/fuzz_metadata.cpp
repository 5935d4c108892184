// SPDX-License-Identifier: Apache-2.0
// The metadata reader sees every input's EXIF, XMP, ICC profile and IPTC before the outputs
// carry them on: it must never crash or hang, must keep each part within its bound, and whatever
// it returns must be prepared for an output and placed by each writer that holds metadata
// without a crash.
#include "app/io/codec/codec.h"
#include "app/io/image_metadata.h"
#include "app/io/output_metadata.h"

#include <opencv2/core.hpp>

#include <cstdlib>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tessera::app;
    const ImageMetadata m = readMetadata(data, size);
    if (m.orientation < 1 || m.orientation > 8 || m.exif.size() > kMaxMetadataPartBytes ||
        m.xmp.size() > kMaxMetadataPartBytes || m.icc.size() > kMaxMetadataPartBytes ||
        m.iptc.size() > kMaxMetadataPartBytes) {
        std::abort();
    }
    if (!m.empty()) {
        const PreparedMetadata prepared = prepareOutputMetadata(m, 4, 4, true);
        const cv::Mat img(4, 4, CV_8UC3, cv::Scalar(1, 2, 3));
        for (auto* write : {codec::writePng, codec::writeJpeg, codec::writeTiff, codec::writeWebp}) {
            codec::MetadataWritten written;
            try {
                if (write(img, &prepared.parts, {}, written).empty()) {
                    std::abort();
                }
            } catch (const codec::CodecError&) {
                // A writer may refuse what its library refuses; it may not crash.
            }
        }
    }
    return 0;
}
