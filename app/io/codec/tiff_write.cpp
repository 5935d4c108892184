// SPDX-License-Identifier: Apache-2.0
// TIFF writing on libtiff, into memory: 8/16-bit integer and 32-bit float samples, 1, 3 or 4 of
// them (4: RGB with unassociated alpha), LZW by default with a predictor (horizontal differences
// for integers, floating-point for floats, which roughly halves a photo's size against LZW alone).
// Metadata: ICC, XMP and IPTC tags; the EXIF block's photo tags of IFD0 through libtiff, and its
// EXIF and GPS directories copied whole after the image and linked from IFD0, so that large tags
// and unknown ones survive as they were.

#include "app/io/codec/codec.h"
#include "app/io/codec/tiff_ifd.h"
#include "app/io/codec/tiff_support.h"
#include "app/io/exif_block.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cstring>

namespace tessera::app::codec {

namespace {

using tiff::RawEntry;

struct ExifParts {
    std::vector<RawEntry> ifd0;  // photo tags libtiff writes itself
    std::vector<RawEntry> exif;
    std::vector<RawEntry> gps;
    bool bigEndian = false;
    int leftOut = 0;  // IFD0 tags that have no place in a TIFF's own IFD0
};

ExifParts splitExif(const std::string& block)
{
    ExifParts parts;
    std::optional<tiff::Directories> dirs =
        tiff::readDirectories({reinterpret_cast<const std::uint8_t*>(block.data()), block.size()});
    if (!dirs) {
        return parts;
    }
    parts.bigEndian = dirs->bigEndian;
    parts.exif = std::move(dirs->exif);
    parts.gps = std::move(dirs->gps);
    for (RawEntry& e : dirs->ifd0) {
        if (e.tag == exif_tag::kExifIfd || e.tag == exif_tag::kGpsIfd) {
            continue;
        }
        if (e.type == 2 && (e.tag == 270 || e.tag == 271 || e.tag == 272 || e.tag == 305 || e.tag == 306 ||
                            e.tag == 315 || e.tag == 33432)) {
            parts.ifd0.push_back(std::move(e));
        } else if (e.tag != exif_tag::kOrientation) {  // the image's own: written as 1 below
            ++parts.leftOut;
        }
    }
    return parts;
}

// A directory written in the file's own byte order: values of 2, 4 and 8-byte types are turned
// when the EXIF block's order differs.
std::vector<RawEntry> inOrder(std::vector<RawEntry> entries, bool from, bool to)
{
    if (from == to) {
        return entries;
    }
    for (RawEntry& e : entries) {
        std::size_t unit = exifTypeSize(e.type);
        if (e.type == 5 || e.type == 10) {
            unit = 4;  // a rational is two LONGs
        }
        if (unit > 1) {
            for (std::size_t i = 0; i + unit <= e.value.size(); i += unit) {
                std::reverse(e.value.begin() + static_cast<std::ptrdiff_t>(i),
                             e.value.begin() + static_cast<std::ptrdiff_t>(i + unit));
            }
        }
    }
    return entries;
}

void setTags(TIFF* tif, const cv::Mat& img, const EncodeOptions& options)
{
    const int channels = img.channels();
    const int depth = img.depth();
    const std::uint16_t bits = depth == CV_8U ? 8 : depth == CV_16U ? 16 : 32;
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(img.cols));
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(img.rows));
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, bits);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, static_cast<std::uint16_t>(channels));
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, depth == CV_32F ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, channels >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
    if (channels == 4) {
        const std::uint16_t extra = EXTRASAMPLE_UNASSALPHA;
        TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, &extra);
    }
    using C = EncodeOptions::TiffCompression;
    const std::uint16_t compression = options.tiffCompression == C::None      ? COMPRESSION_NONE
                                      : options.tiffCompression == C::Deflate ? COMPRESSION_ADOBE_DEFLATE
                                                                              : COMPRESSION_LZW;
    TIFFSetField(tif, TIFFTAG_COMPRESSION, compression);
    if (compression != COMPRESSION_NONE) {
        TIFFSetField(tif, TIFFTAG_PREDICTOR, depth == CV_32F ? PREDICTOR_FLOATINGPOINT : PREDICTOR_HORIZONTAL);
    }
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tif, 0));
}

/// ICC, XMP and IPTC as TIFF tags, and the EXIF block split into IFD0's own tags (set here)
/// and the EXIF and GPS directories (returned, pointed at by placeholder tags until
/// appendExifDirectories places them).
ExifParts setMetadataTags(TIFF* tif, const ImageMetadata& metadata, MetadataWritten& written)
{
    ExifParts exif;
    if (!metadata.icc.empty()) {
        TIFFSetField(tif, TIFFTAG_ICCPROFILE, static_cast<std::uint32_t>(metadata.icc.size()), metadata.icc.data());
        written.parts.icc = metadata.icc;
    }
    if (!metadata.xmp.empty()) {
        TIFFSetField(tif, TIFFTAG_XMLPACKET, static_cast<std::uint32_t>(metadata.xmp.size()), metadata.xmp.data());
        written.parts.xmp = metadata.xmp;
    }
    if (!metadata.iptc.empty()) {
        TIFFSetField(tif, TIFFTAG_RICHTIFFIPTC, static_cast<std::uint32_t>(metadata.iptc.size()), metadata.iptc.data());
        written.parts.iptc = metadata.iptc;
    }
    if (!metadata.exif.empty()) {
        exif = splitExif(metadata.exif);
        for (const RawEntry& e : exif.ifd0) {
            const std::string text(e.value.c_str());  // up to its terminator
            TIFFSetField(tif, e.tag, text.c_str());
        }
        if (!exif.exif.empty()) {
            TIFFSetField(tif, TIFFTAG_EXIFIFD, std::uint64_t{0});
        }
        if (!exif.gps.empty()) {
            TIFFSetField(tif, TIFFTAG_GPSIFD, std::uint64_t{0});
        }
        if (exif.leftOut > 0) {
            written.dropped.push_back("EXIF: " + std::to_string(exif.leftOut) +
                                      " tags of its first directory have no place in a TIFF's own and were "
                                      "left out");
        }
    }
    return exif;
}

/// The image's rows, B, G, R reordered to R, G, B (alpha kept last). Throws CodecError.
void writeRows(TIFF* tif, const cv::Mat& img, const tiff::Handlers& h)
{
    const int channels = img.channels();
    const std::size_t rowBytes = img.elemSize() * std::size_t(img.cols);
    std::vector<std::uint8_t> row(rowBytes);
    const std::size_t sample = img.elemSize1();
    for (int y = 0; y < img.rows; ++y) {
        const std::uint8_t* in = img.ptr(y);
        if (channels >= 3) {
            for (int x = 0; x < img.cols; ++x) {
                const std::uint8_t* p = in + img.elemSize() * std::size_t(x);
                std::uint8_t* q = row.data() + img.elemSize() * std::size_t(x);
                std::memcpy(q, p + 2 * sample, sample);
                std::memcpy(q + sample, p + sample, sample);
                std::memcpy(q + 2 * sample, p, sample);
                if (channels == 4) {
                    std::memcpy(q + 3 * sample, p + 3 * sample, sample);
                }
            }
        } else {
            std::memcpy(row.data(), in, rowBytes);
        }
        if (TIFFWriteScanline(tif, row.data(), static_cast<std::uint32_t>(y), 0) != 1) {
            throw CodecError("libtiff cannot write row " + std::to_string(y) + ": " + h.firstError);
        }
    }
}

/// The EXIF and GPS directories go after everything libtiff wrote; IFD0's pointers to them,
/// written as 0 before, are set to where they landed. Throws CodecError.
void appendExifDirectories(std::vector<std::uint8_t>& file, const ExifParts& exif)
{
    const ExifReader fileDirs(std::string_view(reinterpret_cast<const char*>(file.data()), file.size()));
    std::string why;
    const std::optional<ExifIfd> ifd0 = fileDirs.ifd(fileDirs.ifd0Offset(), why);
    if (!ifd0) {
        throw CodecError("libtiff wrote a file whose first directory cannot be read: " + why);
    }
    const bool bigEndian = fileDirs.bigEndian();
    std::vector<std::pair<std::uint16_t, std::size_t>> slots;
    for (const ExifEntry& e : ifd0->entries) {
        if (e.tag == exif_tag::kExifIfd || e.tag == exif_tag::kGpsIfd) {
            slots.emplace_back(e.tag, e.at + 8);
        }
    }
    for (const auto& [tag, at] : slots) {
        std::vector<RawEntry> entries = tag == exif_tag::kExifIfd ? exif.exif : exif.gps;
        std::erase_if(entries, [](const RawEntry& e) { return e.tag == exif_tag::kInteropIfd; });
        const std::uint32_t where =
            tiff::appendIfd(file, bigEndian, inOrder(std::move(entries), exif.bigEndian, bigEndian));
        tiff::putU32(file, at, where, bigEndian);
    }
}

}  // namespace

std::vector<std::uint8_t> writeTiff(const cv::Mat& img, const ImageMetadata* metadata, const EncodeOptions& options,
                                    MetadataWritten& written)
{
    const int channels = img.channels();
    if (img.empty() || (channels != 1 && channels != 3 && channels != 4) ||
        (img.depth() != CV_8U && img.depth() != CV_16U && img.depth() != CV_32F)) {
        throw CodecError("TIFF holds 1, 3 or 4 channels of u8, u16 or f32 samples");
    }
    tiff::Handlers h;
    tiff::MemorySink sink;
    ExifParts exif;
    {
        tiff::Handle tif = tiff::openForWriting(sink, h);
        setTags(tif.get(), img, options);
        if (metadata != nullptr) {
            exif = setMetadataTags(tif.get(), *metadata, written);
        }
        writeRows(tif.get(), img, h);
        if (TIFFWriteDirectory(tif.get()) != 1) {
            throw CodecError("libtiff cannot write the directory: " + h.firstError);
        }
    }
    std::vector<std::uint8_t> file = std::move(sink.bytes);
    if (!exif.exif.empty() || !exif.gps.empty()) {
        appendExifDirectories(file, exif);
        written.parts.exif = metadata->exif;
    } else if (metadata != nullptr && !metadata->exif.empty() && !exif.ifd0.empty()) {
        written.parts.exif = metadata->exif;
    }
    if (!written.parts.exif.empty() || !written.parts.xmp.empty()) {
        written.parts.orientation = 1;
    }
    return file;
}

}  // namespace tessera::app::codec
