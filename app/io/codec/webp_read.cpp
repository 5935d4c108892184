// SPDX-License-Identifier: Apache-2.0
// WebP reading on libwebp: the pixels through the incremental decoder (so a cancel is seen between
// pieces of the file) and the ICC, EXIF and XMP chunks through libwebpdemux.
#include "app/io/codec/codec.h"

#include <webp/decode.h>
#include <webp/demux.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

namespace tessera::app::codec {
namespace {

/// Bytes handed to the incremental decoder at a time; small enough that the work between two
/// cancel polls stays well under the 50 ms the budget asks for.
constexpr std::size_t kFeedBytes = 16 * 1024;

std::string statusReason(VP8StatusCode status)
{
    switch (status) {
    case VP8_STATUS_OK: return "no error";
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory while decoding WebP";
    case VP8_STATUS_INVALID_PARAM: return "corrupt WebP data: invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "corrupt WebP data: bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported WebP feature";
    case VP8_STATUS_SUSPENDED:
    case VP8_STATUS_NOT_ENOUGH_DATA: return "truncated WebP data: the file ends before the image does";
    case VP8_STATUS_USER_ABORT: return "WebP decoding was stopped";
    }
    return "corrupt WebP data";
}

struct DemuxDeleter {
    void operator()(WebPDemuxer* demux) const { WebPDemuxDelete(demux); }
};
using DemuxPtr = std::unique_ptr<WebPDemuxer, DemuxDeleter>;

struct IDecoderDeleter {
    void operator()(WebPIDecoder* decoder) const { WebPIDelete(decoder); }
};

/// The payload of the first chunk named fourcc, or empty. A part over the size limit is left out.
std::string chunk(WebPDemuxer* demux, const char* fourcc)
{
    WebPChunkIterator iter;
    if (!WebPDemuxGetChunk(demux, fourcc, 1, &iter)) {
        return {};
    }
    std::string bytes(reinterpret_cast<const char*>(iter.chunk.bytes), iter.chunk.size);
    WebPDemuxReleaseChunkIterator(&iter);
    if (bytes.size() > kMaxMetadataPartBytes) {
        ioDiagnostic("webp", std::string("the ") + fourcc + " chunk of " + std::to_string(bytes.size()) +
                                 " bytes is over the metadata size limit; left out");
        return {};
    }
    return bytes;
}

}  // namespace

ImageMetadata readWebpMetadata(std::span<const std::uint8_t> file)
{
    ImageMetadata metadata;
    try {
        const WebPData data{file.data(), file.size()};
        WebPDemuxState state = WEBP_DEMUX_PARSE_ERROR;
        const DemuxPtr demux(WebPDemuxPartial(&data, &state));
        if (!demux) {
            return metadata;
        }
        metadata.icc = chunk(demux.get(), "ICCP");
        metadata.exif = chunk(demux.get(), "EXIF");
        // Some writers keep JPEG's APP1 prefix inside the chunk; the part is the TIFF block alone.
        static constexpr char kExifPrefix[] = {'E', 'x', 'i', 'f', '\0', '\0'};
        if (metadata.exif.size() >= sizeof kExifPrefix &&
            std::memcmp(metadata.exif.data(), kExifPrefix, sizeof kExifPrefix) == 0) {
            metadata.exif.erase(0, sizeof kExifPrefix);
        }
        metadata.xmp = chunk(demux.get(), "XMP ");
    } catch (const std::exception& e) {
        ioDiagnostic("webp", e.what());
    }
    return metadata;
}

Decoded readWebp(std::span<const std::uint8_t> file, const DecodeBudget& budget)
{
    WebPBitstreamFeatures features;
    const VP8StatusCode status = WebPGetFeatures(file.data(), file.size(), &features);
    if (status != VP8_STATUS_OK) {
        if (status == VP8_STATUS_NOT_ENOUGH_DATA) {
            throw CodecError("truncated WebP data: the file ends inside its header");
        }
        throw CodecError(status == VP8_STATUS_BITSTREAM_ERROR ? "not a WebP file, or its header is corrupt"
                                                              : statusReason(status));
    }
    if (features.has_animation) {
        // OpenCV 4.6 could not decode these either (WebPDecode refuses an animation).
        const WebPData data{file.data(), file.size()};
        WebPDemuxState state = WEBP_DEMUX_PARSE_ERROR;
        const DemuxPtr demux(WebPDemuxPartial(&data, &state));
        const std::uint32_t frames = demux ? WebPDemuxGetI(demux.get(), WEBP_FF_FRAME_COUNT) : 0;
        throw CodecError("animated WebP (" + std::to_string(frames) + (frames == 1 ? " frame" : " frames") +
                         "): Tessera reads still images");
    }
    checkSize(features.width, features.height, budget);
    checkCancel(budget);
    {
        // The decoder reads zeros past the end of a lossy bitstream's last partition, so a file
        // cut a few bytes short would decode with damaged last rows; the container's chunk
        // sizes tell.
        const WebPData data{file.data(), file.size()};
        WebPDemuxState state = WEBP_DEMUX_PARSE_ERROR;
        const DemuxPtr demux(WebPDemuxPartial(&data, &state));
        if (state == WEBP_DEMUX_PARSING_HEADER || state == WEBP_DEMUX_PARSED_HEADER) {
            throw CodecError(statusReason(VP8_STATUS_NOT_ENOUGH_DATA));
        }
    }

    Decoded out;
    out.pixels.create(features.height, features.width, features.has_alpha ? CV_8UC4 : CV_8UC3);
    const cv::Mat& pixels = out.pixels;
    const std::unique_ptr<WebPIDecoder, IDecoderDeleter> decoder(
        WebPINewRGB(features.has_alpha ? MODE_BGRA : MODE_BGR, pixels.data, pixels.total() * pixels.elemSize(),
                    static_cast<int>(pixels.step)));
    if (!decoder) {
        throw CodecError("out of memory while decoding WebP");
    }
    VP8StatusCode progress = VP8_STATUS_NOT_ENOUGH_DATA;
    for (std::size_t offset = 0; offset < file.size();) {
        checkCancel(budget);
        const std::size_t piece = std::min(kFeedBytes, file.size() - offset);
        progress = WebPIAppend(decoder.get(), file.data() + offset, piece);
        offset += piece;
        if (progress == VP8_STATUS_OK) {
            break;
        }
        if (progress != VP8_STATUS_SUSPENDED) {
            throw CodecError(statusReason(progress));
        }
    }
    if (progress != VP8_STATUS_OK) {
        throw CodecError(statusReason(progress));
    }
    out.metadata = readWebpMetadata(file);
    return out;
}

}  // namespace tessera::app::codec
