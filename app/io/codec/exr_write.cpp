// SPDX-License-Identifier: Apache-2.0
// OpenEXR writing as OpenCV 4.6 wrote EXR with IMWRITE_EXR_TYPE_FLOAT: 32-bit float channels
// (Y for grey; R, G, B and A for colour), ZIP compression, into memory. EXR outputs carry no
// metadata: every part offered is named as left out.
#include "app/io/codec/codec.h"
#include "app/io/codec/exr_stream.h"

#include <ImfChannelList.h>
#include <ImfCompression.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfOutputFile.h>

#include <string>
#include <utility>

namespace tessera::app::codec {

std::vector<std::uint8_t> writeExr(const cv::Mat& img, const ImageMetadata* metadata, const EncodeOptions& /*options*/,
                                   MetadataWritten& written)
{
    written = {};
    if (img.empty()) {
        throw CodecError("there is no image to write");
    }
    if (img.depth() != CV_32F) {
        throw CodecError("EXR output takes 32-bit float images");
    }
    const int channels = img.channels();
    if (channels != 1 && channels != 3 && channels != 4) {
        throw CodecError("EXR output takes grey, colour or colour with alpha; this image has " +
                         std::to_string(channels) + " channels");
    }
    if (metadata != nullptr) {
        std::string offered;
        for (const auto& [present, name] :
             {std::pair{!metadata->exif.empty(), "EXIF"}, std::pair{!metadata->xmp.empty(), "XMP"},
              std::pair{!metadata->icc.empty(), "ICC profile"}, std::pair{!metadata->iptc.empty(), "IPTC"}}) {
            if (present) {
                offered += (offered.empty() ? "" : ", ") + std::string(name);
            }
        }
        if (!offered.empty()) {
            written.dropped.push_back(offered + ": EXR outputs carry no metadata");
        }
    }

    // Channel names in the order the pixels hold them.
    static constexpr const char* kGrey[] = {"Y"};
    static constexpr const char* kColour[] = {"B", "G", "R", "A"};
    const char* const* names = channels == 1 ? kGrey : kColour;

    exr::MemoryOStream stream;
    try {
        Imf::Header header(img.cols, img.rows);
        header.compression() = Imf::ZIP_COMPRESSION;
        Imf::FrameBuffer frame;
        const std::size_t xStride = sizeof(float) * std::size_t(channels);
        for (int c = 0; c < channels; ++c) {
            header.channels().insert(names[c], Imf::Channel(Imf::FLOAT));
            char* origin = const_cast<char*>(reinterpret_cast<const char*>(img.ptr<float>(0) + c));
            frame.insert(names[c], Imf::Slice(Imf::FLOAT, origin, xStride, img.step[0]));
        }
        // The file is complete (its offset table written) once the OutputFile is gone.
        Imf::OutputFile output(stream, header);
        output.setFrameBuffer(frame);
        output.writePixels(img.rows);
    } catch (const std::bad_alloc&) {
        throw CodecError("out of memory while writing the EXR file");
    } catch (const std::exception& e) {
        std::string reason = e.what();
        throw CodecError("EXR encoding failed: " + reason.substr(0, reason.find('\n')));
    }
    return std::move(stream.bytes());
}

}  // namespace tessera::app::codec
