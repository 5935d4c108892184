// SPDX-License-Identifier: Apache-2.0
// TIFF reading on libtiff, from memory: 8 and 16-bit integer and 32-bit float samples, 1 to 4 of
// them, strips or tiles, interleaved or planar, read as stored (the orientation tag travels in
// the EXIF block for image_io to apply); other layouts (palettes, YCbCr, CMYK, 1-bit, ...) through
// libtiff's RGBA interface as 8-bit colour, already upright. Errors and warnings go through
// per-handle handlers: nothing is printed.

#include "app/io/codec/codec.h"
#include "app/io/codec/tiff_ifd.h"
#include "app/io/codec/tiff_support.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <array>
#include <cstring>

namespace tessera::app::codec {

namespace {

using tiff::RawEntry;

// IFD0 tags that describe the photo rather than the file's layout: carried in the EXIF block.
constexpr std::array<std::uint16_t, 11> kPhotoTags{270, 271, 272, 274, 282, 283, 296, 305, 306, 315, 33432};

std::string fieldBytes(TIFF* tif, ttag_t tag)
{
    std::uint32_t count = 0;
    void* data = nullptr;
    if (TIFFGetField(tif, tag, &count, &data) == 1 && data != nullptr && count > 0) {
        const std::size_t bytes = count;  // libtiff 4.5 counts every one of these tags in bytes
        if (bytes <= kMaxMetadataPartBytes) {
            return std::string(static_cast<const char*>(data), bytes);
        }
        ioDiagnostic("libtiff", "a metadata tag of " + std::to_string(bytes) + " bytes was left out");
    }
    return {};
}

// The EXIF block of a TIFF: its photo tags of IFD0 and its EXIF and GPS directories, copied from
// the file's bytes into a block of their own.
std::string exifOf(std::span<const std::uint8_t> file)
{
    std::optional<tiff::Directories> dirs = tiff::readDirectories(file);
    if (!dirs) {
        return {};
    }
    std::vector<RawEntry> photo;
    for (RawEntry& e : dirs->ifd0) {
        if (std::find(kPhotoTags.begin(), kPhotoTags.end(), e.tag) != kPhotoTags.end()) {
            photo.push_back(std::move(e));
        }
    }
    const std::vector<RawEntry>& exif = dirs->exif;
    const std::vector<RawEntry>& gps = dirs->gps;
    const bool bigEndian = dirs->bigEndian;
    if (photo.empty() && exif.empty() && gps.empty()) {
        return {};
    }
    std::string block = tiff::buildExifBlock(bigEndian, photo, exif, gps);
    return block.size() <= kMaxMetadataPartBytes ? block : std::string();
}

ImageMetadata metadataOf(TIFF* tif, std::span<const std::uint8_t> file)
{
    ImageMetadata m;
    m.icc = fieldBytes(tif, TIFFTAG_ICCPROFILE);
    m.xmp = fieldBytes(tif, TIFFTAG_XMLPACKET);
    m.iptc = fieldBytes(tif, TIFFTAG_RICHTIFFIPTC);
    m.exif = exifOf(file);
    return m;
}

// One row of samples as stored (R, G, B, A order) into the output row (B, G, R, A order).
void storeRow(const std::uint8_t* in, cv::Mat& out, int row, int channels, std::size_t sampleBytes)
{
    std::uint8_t* dst = out.ptr(row);
    const std::size_t pixel = sampleBytes * std::size_t(channels);
    if (channels < 3) {
        std::memcpy(dst, in, pixel * std::size_t(out.cols));
        return;
    }
    for (int x = 0; x < out.cols; ++x) {
        const std::uint8_t* p = in + pixel * std::size_t(x);
        std::uint8_t* q = dst + pixel * std::size_t(x);
        std::memcpy(q, p + 2 * sampleBytes, sampleBytes);
        std::memcpy(q + sampleBytes, p + sampleBytes, sampleBytes);
        std::memcpy(q + 2 * sampleBytes, p, sampleBytes);
        if (channels == 4) {
            std::memcpy(q + 3 * sampleBytes, p + 3 * sampleBytes, sampleBytes);
        }
    }
}

void readStrips(TIFF* tif, tiff::Handlers& h, cv::Mat& out, int channels, std::size_t sampleBytes,
                const DecodeBudget& budget)
{
    std::vector<std::uint8_t> row(static_cast<std::size_t>(TIFFScanlineSize64(tif)));
    if (row.size() < sampleBytes * std::size_t(channels) * std::size_t(out.cols)) {
        throw CodecError("corrupt TIFF data: its rows are shorter than its width says");
    }
    for (int y = 0; y < out.rows; ++y) {
        if (y % 64 == 0) {
            checkCancel(budget);
            reportProgress(budget, y, out.rows);
        }
        if (TIFFReadScanline(tif, row.data(), static_cast<std::uint32_t>(y), 0) != 1) {
            h.fail("cannot read row " + std::to_string(y));
        }
        storeRow(row.data(), out, y, channels, sampleBytes);
    }
}

void readTiles(TIFF* tif, tiff::Handlers& h, cv::Mat& out, int channels, std::size_t sampleBytes,
               const DecodeBudget& budget)
{
    std::uint32_t tw = 0;
    std::uint32_t th = 0;
    TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tw);
    TIFFGetField(tif, TIFFTAG_TILELENGTH, &th);
    const std::size_t pixel = sampleBytes * std::size_t(channels);
    if (tw == 0 || th == 0 || std::uint64_t(TIFFTileSize64(tif)) < std::uint64_t(tw) * th * pixel) {
        throw CodecError("corrupt TIFF data: its tiles are smaller than their size says");
    }
    std::vector<std::uint8_t> tile(static_cast<std::size_t>(TIFFTileSize64(tif)));
    cv::Mat rowOut(1, static_cast<int>(tw), out.type());
    for (std::uint32_t ty = 0; ty < std::uint32_t(out.rows); ty += th) {
        checkCancel(budget);
        reportProgress(budget, ty, out.rows);
        for (std::uint32_t tx = 0; tx < std::uint32_t(out.cols); tx += tw) {
            if (TIFFReadTile(tif, tile.data(), tx, ty, 0, 0) < 0) {
                h.fail("cannot read the tile at " + std::to_string(tx) + ", " + std::to_string(ty));
            }
            const int w = static_cast<int>(std::min<std::uint32_t>(tw, std::uint32_t(out.cols) - tx));
            for (std::uint32_t r = 0; r < th && ty + r < std::uint32_t(out.rows); ++r) {
                storeRow(tile.data() + std::size_t(r) * tw * pixel, rowOut, 0, channels, sampleBytes);
                std::memcpy(out.ptr(static_cast<int>(ty + r)) + tx * pixel, rowOut.data, std::size_t(w) * pixel);
            }
        }
    }
}

void readPlanes(TIFF* tif, tiff::Handlers& h, cv::Mat& out, int channels, std::size_t sampleBytes,
                const DecodeBudget& budget)
{
    std::vector<std::uint8_t> row(static_cast<std::size_t>(TIFFScanlineSize64(tif)));
    if (row.size() < sampleBytes * std::size_t(out.cols)) {
        throw CodecError("corrupt TIFF data: its rows are shorter than its width says");
    }
    const std::size_t pixel = sampleBytes * std::size_t(channels);
    for (int s = 0; s < channels; ++s) {
        // Stored R, G, B, A; held B, G, R, A.
        const int to = channels >= 3 && s < 3 ? 2 - s : s;
        for (int y = 0; y < out.rows; ++y) {
            if (y % 64 == 0) {
                checkCancel(budget);
                reportProgress(budget, std::int64_t(s) * out.rows + y, std::int64_t(channels) * out.rows);
            }
            if (TIFFReadScanline(tif, row.data(), static_cast<std::uint32_t>(y), static_cast<std::uint16_t>(s)) != 1) {
                h.fail("cannot read row " + std::to_string(y) + " of sample " + std::to_string(s));
            }
            std::uint8_t* dst = out.ptr(y) + sampleBytes * std::size_t(to);
            for (int x = 0; x < out.cols; ++x) {
                std::memcpy(dst + pixel * std::size_t(x), row.data() + sampleBytes * std::size_t(x), sampleBytes);
            }
        }
    }
}

}  // namespace

Decoded readTiff(std::span<const std::uint8_t> file, const DecodeBudget& budget)
{
    tiff::Handlers h;
    tiff::MemoryFile memory{file};
    tiff::Handle tif = tiff::openForReading(memory, h);
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    TIFFGetField(tif.get(), TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(tif.get(), TIFFTAG_IMAGELENGTH, &height);
    if (width > std::uint32_t(budget.maxWidth) || height > std::uint32_t(budget.maxHeight)) {
        checkSize(static_cast<int>(std::min<std::uint32_t>(width, 1u << 30)),
                  static_cast<int>(std::min<std::uint32_t>(height, 1u << 30)), budget);
    }
    checkSize(static_cast<int>(width), static_cast<int>(height), budget);
    std::uint16_t bits = 1;
    std::uint16_t samples = 1;
    std::uint16_t format = SAMPLEFORMAT_UINT;
    std::uint16_t photometric = PHOTOMETRIC_MINISBLACK;
    std::uint16_t planar = PLANARCONFIG_CONTIG;
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(tif.get(), TIFFTAG_PLANARCONFIG, &planar);
    if (TIFFGetField(tif.get(), TIFFTAG_PHOTOMETRIC, &photometric) != 1) {
        photometric = samples >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    }
    if (samples > 4) {
        throw CodecError("TIFF with " + std::to_string(samples) +
                         " channels per pixel: unsupported channel count (Tessera reads 1 to 4 channels from a TIFF)");
    }
    Decoded out;
    out.metadata = metadataOf(tif.get(), file);
    const int depth = bits == 8 && format == SAMPLEFORMAT_UINT      ? CV_8U
                      : bits == 16 && format == SAMPLEFORMAT_UINT   ? CV_16U
                      : bits == 32 && format == SAMPLEFORMAT_IEEEFP ? CV_32F
                                                                    : -1;
    const bool grey = photometric == PHOTOMETRIC_MINISBLACK && samples <= 2;
    const bool colour = photometric == PHOTOMETRIC_RGB && samples >= 3;
    if (depth >= 0 && (grey || colour)) {
        const int channels = samples;
        out.pixels.create(static_cast<int>(height), static_cast<int>(width), CV_MAKETYPE(depth, channels));
        const std::size_t sampleBytes = bits / 8;
        if (planar == PLANARCONFIG_SEPARATE && channels > 1) {
            if (TIFFIsTiled(tif.get())) {
                throw CodecError("tiled TIFF with separate colour planes: unsupported layout; save it interleaved");
            }
            readPlanes(tif.get(), h, out.pixels, channels, sampleBytes, budget);
        } else if (TIFFIsTiled(tif.get())) {
            readTiles(tif.get(), h, out.pixels, channels, sampleBytes, budget);
        } else {
            readStrips(tif.get(), h, out.pixels, channels, sampleBytes, budget);
        }
        return out;
    }
    if (depth < 0 && (bits > 8 || format != SAMPLEFORMAT_UINT)) {
        // Signed, 32-bit integer, 64-bit float and other samples: named as Tessera names depths.
        const char kind = format == SAMPLEFORMAT_IEEEFP ? 'f' : format == SAMPLEFORMAT_INT ? 's' : 'u';
        throw CodecError("unsupported sample type " + std::string(1, kind) + std::to_string(bits) +
                         " (Tessera reads u8, u16 and f32 images)");
    }
    // Everything else libtiff can turn into 8-bit RGBA, upright as its orientation tag says.
    char reason[1024] = {};
    if (TIFFRGBAImageOK(tif.get(), reason) != 1) {
        throw CodecError(std::string("unsupported TIFF layout: ") + reason);
    }
    cv::Mat rgba(static_cast<int>(height), static_cast<int>(width), CV_8UC4);
    checkCancel(budget);
    if (TIFFReadRGBAImageOriented(tif.get(), width, height, reinterpret_cast<std::uint32_t*>(rgba.data),
                                  ORIENTATION_TOPLEFT, 0) != 1) {
        h.fail("cannot decode the image");
    }
    std::uint16_t extra = 0;
    std::uint16_t* extraTypes = nullptr;
    const bool alpha = TIFFGetField(tif.get(), TIFFTAG_EXTRASAMPLES, &extra, &extraTypes) == 1 && extra > 0;
    out.pixels.create(rgba.size(), alpha ? CV_8UC4 : CV_8UC3);
    const std::array<int, 8> fromTo{0, 2, 1, 1, 2, 0, 3, 3};  // R, G, B, A to B, G, R, A
    cv::mixChannels(&rgba, 1, &out.pixels, 1, fromTo.data(), alpha ? 4 : 3);
    out.upright = true;
    return out;
}

ImageMetadata readTiffMetadata(std::span<const std::uint8_t> file)
{
    try {
        tiff::Handlers h;
        tiff::MemoryFile memory{file};
        tiff::Handle tif = tiff::openForReading(memory, h);
        return metadataOf(tif.get(), file);
    } catch (const std::exception&) {
        return {};
    }
}

}  // namespace tessera::app::codec
