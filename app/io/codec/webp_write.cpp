// SPDX-License-Identifier: Apache-2.0
// WebP writing on libwebp: lossy at the quality asked or lossless above 100, colours under
// transparent pixels kept, and the ICC, EXIF and XMP parts placed as chunks with libwebpmux.
#include "app/io/codec/codec.h"

#include <opencv2/core.hpp>

#include <webp/encode.h>
#include <webp/mux.h>

#include <algorithm>
#include <memory>
#include <string>

namespace tessera::app::codec {
namespace {

std::string encodeReason(WebPEncodingError error)
{
    switch (error) {
    case VP8_ENC_OK: return "WebP encoding failed";
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory while encoding WebP";
    case VP8_ENC_ERROR_BAD_DIMENSION:
        return "WebP holds at most " + std::to_string(WEBP_MAX_DIMENSION) + " x " + std::to_string(WEBP_MAX_DIMENSION) +
               " pixels";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW:
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "the image is too large for a lossy WebP at this quality";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "the encoded WebP would pass 4 GiB";
    default: return "WebP encoding failed (libwebp error " + std::to_string(static_cast<int>(error)) + ")";
    }
}

struct PictureGuard {
    WebPPicture* picture;
    ~PictureGuard() { WebPPictureFree(picture); }
};
struct WriterGuard {
    WebPMemoryWriter* writer;
    ~WriterGuard() { WebPMemoryWriterClear(writer); }
};
struct MuxDeleter {
    void operator()(WebPMux* mux) const { WebPMuxDelete(mux); }
};

/// The bare image (a VP8 or VP8L bitstream in its RIFF container).
std::vector<std::uint8_t> encodeImage(const cv::Mat& bgr, const EncodeOptions& options)
{
    const bool lossless = options.webpQuality > 100;
    // As OpenCV did: the quality of a lossless encode is libwebp's default 70 (effort, not loss);
    // a lossy quality below 1 is taken as 1.
    const float quality = lossless ? 70.0f : static_cast<float>(std::clamp(options.webpQuality, 1, 100));
    WebPConfig config;
    if (!WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, quality)) {
        throw CodecError("the WebP library does not match the version Tessera was built with");
    }
    config.lossless = lossless ? 1 : 0;
    // Transparent pixels keep their colour: a later step may change the alpha again.
    config.exact = 1;
    if (!WebPValidateConfig(&config)) {
        throw CodecError("invalid WebP encoder settings");
    }
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) {
        throw CodecError("the WebP library does not match the version Tessera was built with");
    }
    const PictureGuard pictureGuard{&picture};
    picture.width = bgr.cols;
    picture.height = bgr.rows;
    picture.use_argb = lossless ? 1 : 0;
    if (bgr.cols > WEBP_MAX_DIMENSION || bgr.rows > WEBP_MAX_DIMENSION) {
        throw CodecError(encodeReason(VP8_ENC_ERROR_BAD_DIMENSION) + "; this image is " + std::to_string(bgr.cols) +
                         " x " + std::to_string(bgr.rows));
    }
    const int stride = static_cast<int>(bgr.step);
    const int imported = bgr.channels() == 4 ? WebPPictureImportBGRA(&picture, bgr.data, stride)
                                             : WebPPictureImportBGR(&picture, bgr.data, stride);
    if (!imported) {
        throw CodecError(encodeReason(picture.error_code));
    }
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    const WriterGuard writerGuard{&writer};
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    if (!WebPEncode(&config, &picture)) {
        throw CodecError(encodeReason(picture.error_code));
    }
    return {writer.mem, writer.mem + writer.size};
}

}  // namespace

std::vector<std::uint8_t> writeWebp(const cv::Mat& img, const ImageMetadata* metadata, const EncodeOptions& options,
                                    MetadataWritten& written)
{
    written = {};
    if (img.empty()) {
        throw CodecError("there is no image to write");
    }
    if (img.depth() != CV_8U) {
        throw CodecError("WebP holds 8-bit images only");
    }
    const int channels = img.channels();
    if (channels != 1 && channels != 3 && channels != 4) {
        throw CodecError("WebP holds grey, colour or colour with alpha; this image has " + std::to_string(channels) +
                         " channels");
    }
    cv::Mat bgr = img;
    if (channels == 1) {
        cv::merge(std::vector<cv::Mat>{img, img, img}, bgr);
    }
    std::vector<std::uint8_t> image = encodeImage(bgr, options);

    if (metadata == nullptr) {
        return image;
    }
    if (!metadata->iptc.empty()) {
        written.dropped.emplace_back("IPTC: WebP has no place for it");
    }
    if (metadata->icc.empty() && metadata->exif.empty() && metadata->xmp.empty()) {
        return image;
    }
    const WebPData bare{image.data(), image.size()};
    const std::unique_ptr<WebPMux, MuxDeleter> mux(WebPMuxCreate(&bare, 0));
    if (!mux) {
        throw CodecError("could not reopen the encoded WebP to add its metadata");
    }
    const auto place = [&](const char* fourcc, const std::string& bytes, std::string& record) {
        if (bytes.empty()) {
            return;
        }
        const WebPData payload{reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()};
        if (WebPMuxSetChunk(mux.get(), fourcc, &payload, 1) != WEBP_MUX_OK) {
            throw CodecError(std::string("could not add the ") + fourcc + " chunk to the WebP");
        }
        record = bytes;
    };
    ImageMetadata parts;
    place("ICCP", metadata->icc, parts.icc);
    place("EXIF", metadata->exif, parts.exif);
    place("XMP ", metadata->xmp, parts.xmp);
    WebPData assembled;
    WebPDataInit(&assembled);
    if (WebPMuxAssemble(mux.get(), &assembled) != WEBP_MUX_OK) {
        WebPDataClear(&assembled);
        throw CodecError("could not assemble the WebP with its metadata");
    }
    std::vector<std::uint8_t> out(assembled.bytes, assembled.bytes + assembled.size);
    WebPDataClear(&assembled);
    written.parts = std::move(parts);
    return out;
}

}  // namespace tessera::app::codec
