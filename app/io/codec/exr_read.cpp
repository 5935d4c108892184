// SPDX-License-Identifier: Apache-2.0
// OpenEXR reading as OpenCV 4.6 read EXR: the data window's pixels (its offset dropped), every
// channel converted to 32-bit float, R, G, B (A) to B, G, R (A) and Y (A) to grey (+ alpha).
// A depth channel Z alone is refused: OpenCV 4.6 took it for grey but filled the image with zeros.
// The header is read and checked on its own first, so a huge data window or a tile layout with
// billions of tiles is refused before OpenEXR allocates anything for it.
#include "app/io/codec/codec.h"
#include "app/io/codec/exr_stream.h"

#include <Iex.h>
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <ImfPartType.h>
#include <ImfTileDescription.h>
#include <ImfVersion.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

namespace tessera::app::codec {
namespace {

/// Pixels read between two cancel polls (a few ms of decompression).
constexpr std::int64_t kBandPixels = std::int64_t{1} << 20;
/// Entries of the tile offset table OpenEXR allocates up front (8 bytes each).
constexpr std::uint64_t kMaxTileOffsets = std::uint64_t{1} << 24;

/// OpenEXR's message on one line, without the stream's placeholder name.
std::string libraryReason(const std::exception& e)
{
    std::string text = e.what();
    text = text.substr(0, text.find('\n'));
    for (const std::string noise : {" from image file \"memory\"", " image file \"memory\"", " \"memory\""}) {
        for (std::size_t at = text.find(noise); at != std::string::npos; at = text.find(noise)) {
            text.erase(at, noise.size());
        }
    }
    if (text.find("the file ends early") != std::string::npos) {
        return "truncated EXR data: the file ends before its pixels do";
    }
    return "corrupt EXR data: " + text;
}

/// Where each output channel comes from.
struct Layout {
    std::vector<const char*> names;  // in output order; a name the file lacks reads as zero
    const Imf::ChannelList* channels = nullptr;
};

std::string channelNames(const Imf::ChannelList& channels)
{
    std::string names;
    int count = 0;
    for (auto it = channels.begin(); it != channels.end(); ++it) {
        if (count == 8) {
            names += ", ...";
            break;
        }
        names += (count++ == 0 ? "" : ", ") + std::string(it.name());
    }
    return names.empty() ? "none" : names;
}

Layout layoutOf(const Imf::Header& header)
{
    const Imf::ChannelList& channels = header.channels();
    const bool alpha = channels.findChannel("A") != nullptr;
    Layout layout;
    layout.channels = &channels;
    if (channels.findChannel("R") || channels.findChannel("G") || channels.findChannel("B")) {
        layout.names = {"B", "G", "R"};
    } else if (channels.findChannel("Y")) {
        if (channels.findChannel("RY") || channels.findChannel("BY")) {
            throw CodecError("luminance/chroma EXR (Y, RY, BY): Tessera reads RGB or Y channels");
        }
        layout.names = {"Y"};
    } else {
        throw CodecError("EXR channels " + channelNames(channels) + ": Tessera reads R, G, B (A) or Y (A)");
    }
    if (alpha) {
        layout.names.push_back("A");
    }
    for (const char* name : layout.names) {
        const Imf::Channel* channel = channels.findChannel(name);
        if (channel != nullptr && (channel->xSampling != 1 || channel->ySampling != 1)) {
            throw CodecError(std::string("EXR channel ") + name + " is subsampled (" +
                             std::to_string(channel->xSampling) + " x " + std::to_string(channel->ySampling) +
                             "): Tessera reads full-resolution channels");
        }
    }
    return layout;
}

/// Refuses what a single-part flat reader cannot take, from the version field.
void checkVersion(int version)
{
    if (Imf::getVersion(version) != Imf::EXR_VERSION) {
        throw CodecError("unsupported EXR version " + std::to_string(Imf::getVersion(version)));
    }
    if (Imf::isMultiPart(version)) {
        throw CodecError("multi-part EXR: Tessera reads single-part images");
    }
    if (Imf::isNonImage(version)) {
        throw CodecError("deep EXR data: Tessera reads flat images");
    }
    if (!Imf::supportsFlags(Imf::getFlags(version))) {
        throw CodecError("EXR file with unknown format flags");
    }
}

void checkTiles(const Imf::Header& header, std::int64_t width, std::int64_t height)
{
    if (!header.hasTileDescription()) {
        return;
    }
    const Imf::TileDescription& tiles = header.tileDescription();
    if (tiles.xSize == 0 || tiles.ySize == 0) {
        throw CodecError("corrupt EXR data: a tile size of zero");
    }
    const std::uint64_t across = (std::uint64_t(width) + tiles.xSize - 1) / tiles.xSize;
    const std::uint64_t down = (std::uint64_t(height) + tiles.ySize - 1) / tiles.ySize;
    const std::uint64_t factor = tiles.mode == Imf::ONE_LEVEL ? 1 : tiles.mode == Imf::MIPMAP_LEVELS ? 2 : 64;
    if (across * down * factor > kMaxTileOffsets) {
        throw CodecError("EXR tiles of " + std::to_string(tiles.xSize) + " x " + std::to_string(tiles.ySize) +
                         " are too small for a " + std::to_string(width) + " x " + std::to_string(height) + " image");
    }
}

}  // namespace

Decoded readExr(std::span<const std::uint8_t> file, const DecodeBudget& budget)
{
    if (file.size() < 8 || !Imf::isImfMagic(reinterpret_cast<const char*>(file.data()))) {
        throw CodecError(file.size() < 8 ? "truncated EXR data: the file ends inside its header" : "not an EXR file");
    }
    Decoded out;
    try {
        exr::MemoryIStream stream(file);
        Imf::Header header;
        {
            char magicAndVersion[8];
            stream.read(magicAndVersion, 8);
            int version = int(std::uint32_t(file[4]) | std::uint32_t(file[5]) << 8 | std::uint32_t(file[6]) << 16 |
                              std::uint32_t(file[7]) << 24);
            checkVersion(version);
            header.readFrom(stream, version);
        }
        if (header.hasType() && Imf::isDeepData(header.type())) {
            throw CodecError("deep EXR data: Tessera reads flat images");
        }
        const Imath::Box2i window = header.dataWindow();
        const std::int64_t width = std::int64_t(window.max.x) - window.min.x + 1;
        const std::int64_t height = std::int64_t(window.max.y) - window.min.y + 1;
        checkSize(int(std::clamp<std::int64_t>(width, 0, INT_MAX)), int(std::clamp<std::int64_t>(height, 0, INT_MAX)),
                  budget);
        checkTiles(header, width, height);
        const Layout layout = layoutOf(header);
        checkCancel(budget);

        stream.seekg(0);
        Imf::InputFile input(stream);
        const int channels = int(layout.names.size());
        out.pixels.create(int(height), int(width), CV_32FC(channels));
        const std::size_t xStride = sizeof(float) * std::size_t(channels);
        Imf::FrameBuffer frame;
        for (int c = 0; c < channels; ++c) {
            char* origin = reinterpret_cast<char*>(out.pixels.ptr<float>(0) + c);
            frame.insert(layout.names[std::size_t(c)],
                         Imf::Slice::Make(Imf::FLOAT, origin, window, xStride, out.pixels.step[0], 1, 1, 0.0));
        }
        input.setFrameBuffer(frame);
        const std::int64_t band = std::max<std::int64_t>(1, kBandPixels / width);
        for (std::int64_t y = window.min.y; y <= window.max.y; y += band) {
            checkCancel(budget);
            reportProgress(budget, y - window.min.y, height);
            input.readPixels(int(y), int(std::min<std::int64_t>(window.max.y, y + band - 1)));
        }
    } catch (const CodecError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw CodecError("out of memory while reading the EXR file");
    } catch (const std::exception& e) {
        throw CodecError(libraryReason(e));
    }
    return out;
}

}  // namespace tessera::app::codec
