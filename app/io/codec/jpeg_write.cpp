// SPDX-License-Identifier: Apache-2.0
// The JPEG writer on libjpeg-turbo, set up as OpenCV 4.6's encoder sets it up (JFIF, 4:2:0
// chroma, baseline quantisation tables at the given quality), with the metadata segments placed
// after the JFIF header.
#include "app/io/codec/jpeg_common.h"

#include <algorithm>
#include <cstdlib>

namespace tessera::app::codec {
namespace {

struct Compressor {
    jpeg_compress_struct cinfo{};
    jpeg::ErrorManager err;
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    bool created = false;

    Compressor() = default;
    Compressor(const Compressor&) = delete;
    Compressor& operator=(const Compressor&) = delete;
    ~Compressor()
    {
        if (created) {
            jpeg_destroy_compress(&cinfo);
        }
        std::free(buffer);
    }
};

}  // namespace

std::vector<std::uint8_t> writeJpeg(const cv::Mat& img, const ImageMetadata* metadata, const EncodeOptions& options,
                                    MetadataWritten& written)
{
    written = MetadataWritten{};
    if (img.empty()) {
        throw CodecError("JPEG: there is no image to write");
    }
    if (img.depth() != CV_8U) {
        throw CodecError("JPEG holds 8-bit samples only; the image has deeper samples");
    }
    if (img.channels() != 1 && img.channels() != 3) {
        throw CodecError("JPEG holds grey or colour images; the image has " + std::to_string(img.channels()) +
                         " channels");
    }
    if (img.cols > JPEG_MAX_DIMENSION || img.rows > JPEG_MAX_DIMENSION) {
        throw CodecError("JPEG holds at most " + std::to_string(JPEG_MAX_DIMENSION) + " pixels a side");
    }
    std::vector<jpeg::Segment> segments;
    if (metadata != nullptr) {
        segments = jpeg::buildSegments(*metadata, written);
    }
    const bool colour = img.channels() == 3;
    Compressor c;
    jpeg_compress_struct* cinfo = &c.cinfo;
    cinfo->err = jpeg::installErrorManager(c.err);
    const bool started = jpeg::guarded(c.err, [&] {
        jpeg_create_compress(cinfo);
        c.created = true;
        jpeg_mem_dest(cinfo, &c.buffer, &c.size);
        cinfo->image_width = static_cast<JDIMENSION>(img.cols);
        cinfo->image_height = static_cast<JDIMENSION>(img.rows);
        cinfo->input_components = colour ? 3 : 1;
        cinfo->in_color_space = colour ? JCS_EXT_BGR : JCS_GRAYSCALE;
        jpeg_set_defaults(cinfo);
        jpeg_set_quality(cinfo, std::clamp(options.jpegQuality, 1, 100), TRUE);
        jpeg_start_compress(cinfo, TRUE);
    });
    if (!started) {
        jpeg::raise(c.err);
    }
    for (const jpeg::Segment& s : segments) {
        const bool ok = jpeg::guarded(c.err, [&] {
            jpeg_write_marker(cinfo, s.code, reinterpret_cast<const JOCTET*>(s.data.data()),
                              static_cast<unsigned>(s.data.size()));
        });
        if (!ok) {
            jpeg::raise(c.err);
        }
    }
    for (int y = 0; y < img.rows; ++y) {
        JSAMPROW row = const_cast<JSAMPROW>(img.ptr<std::uint8_t>(y));
        if (!jpeg::guarded(c.err, [&] { jpeg_write_scanlines(cinfo, &row, 1); })) {
            jpeg::raise(c.err);
        }
    }
    if (!jpeg::guarded(c.err, [&] { jpeg_finish_compress(cinfo); })) {
        jpeg::raise(c.err);
    }
    return std::vector<std::uint8_t>(c.buffer, c.buffer + c.size);
}

}  // namespace tessera::app::codec
