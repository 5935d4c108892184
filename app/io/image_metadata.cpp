// SPDX-License-Identifier: Apache-2.0
#include "app/io/image_metadata.h"

#include <exiv2/exiv2.hpp>
#include <opencv2/core.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <limits>
#include <mutex>
#include <string_view>

namespace tessera::app {

namespace {

void initialiseExiv2()
{
    static std::once_flag once;
    std::call_once(once, [] {
        // Damaged metadata is reported by what these functions return, never on stderr.
        Exiv2::LogMsg::setLevel(Exiv2::LogMsg::mute);
        Exiv2::XmpParser::initialize();
    });
}

/// Tags that describe the layout of the source file rather than the photo; the encoder of the
/// output writes its own.
bool isStructureTag(const Exiv2::Exifdatum& d)
{
    static constexpr std::array<std::string_view, 24> kStructure = {
        "ImageWidth", "ImageLength", "BitsPerSample", "Compression", "PhotometricInterpretation",
        "StripOffsets", "SamplesPerPixel", "RowsPerStrip", "StripByteCounts", "PlanarConfiguration",
        "TileWidth", "TileLength", "TileOffsets", "TileByteCounts", "SampleFormat", "Predictor",
        "ExtraSamples", "JPEGInterchangeFormat", "JPEGInterchangeFormatLength", "InterColorProfile",
        "XMLPacket", "NewSubfileType", "SubIFDs", "FillOrder"};
    if (d.groupName() != "Image") {
        // Thumbnails, sub-images and maker-note layouts are tied to the source file.
        return d.groupName() == "Thumbnail" || d.groupName().rfind("SubImage", 0) == 0 ||
               d.groupName().rfind("SubThumb", 0) == 0 || d.groupName() == "Image2" || d.groupName() == "Image3";
    }
    return std::find(kStructure.begin(), kStructure.end(), d.tagName()) != kStructure.end();
}

ImageMetadata collect(Exiv2::Image& image)
{
    image.readMetadata();
    ImageMetadata out;
    Exiv2::ExifData& exif = image.exifData();
    if (const auto it = exif.findKey(Exiv2::ExifKey("Exif.Image.Orientation")); it != exif.end() && it->count() > 0) {
        const long value = it->toLong();
        out.orientation = value >= 1 && value <= 8 ? static_cast<int>(value) : 1;
    }
    if (!exif.empty()) {
        Exiv2::Blob blob;
        Exiv2::ExifParser::encode(blob, Exiv2::littleEndian, exif);
        if (blob.size() <= kMaxMetadataPartBytes) {
            out.exif.assign(blob.begin(), blob.end());
        }
    }
    const std::string& xmp = image.xmpPacket();
    if (!xmp.empty() && xmp.size() <= kMaxMetadataPartBytes) {
        out.xmp = xmp;
    }
    if (image.iccProfileDefined()) {
        const Exiv2::DataBuf* icc = image.iccProfile();
        if (icc->size_ > 0 && static_cast<std::size_t>(icc->size_) <= kMaxMetadataPartBytes) {
            out.icc.assign(reinterpret_cast<const char*>(icc->pData_), static_cast<std::size_t>(icc->size_));
        }
    }
    return out;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

}  // namespace

std::string ImageMetadata::summary() const
{
    std::string out;
    for (const auto& [present, name] : {std::pair{!exif.empty(), "EXIF"}, std::pair{!xmp.empty(), "XMP"},
                                        std::pair{!icc.empty(), "ICC profile"},
                                        std::pair{!iptc.empty(), "IPTC"}}) {
        if (present) {
            out += (out.empty() ? "" : ", ") + std::string(name);
        }
    }
    return out.empty() ? "none" : out;
}

ImageMetadata readMetadata(const std::string& path)
{
    initialiseExiv2();
    try {
        Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(path);
        return image.get() != nullptr ? collect(*image) : ImageMetadata{};
    } catch (...) {
        return {};
    }
}

ImageMetadata readMetadata(const std::uint8_t* data, std::size_t size)
{
    initialiseExiv2();
    if (data == nullptr || size == 0 || size > static_cast<std::size_t>(std::numeric_limits<long>::max())) {
        return {};
    }
    try {
        Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(data, static_cast<long>(size));
        return image.get() != nullptr ? collect(*image) : ImageMetadata{};
    } catch (...) {
        return {};
    }
}

cv::Mat applyOrientation(const cv::Mat& img, int orientation)
{
    cv::Mat out;
    switch (orientation) {
    case 2: cv::flip(img, out, 1); return out;
    case 3: cv::rotate(img, out, cv::ROTATE_180); return out;
    case 4: cv::flip(img, out, 0); return out;
    case 5: cv::transpose(img, out); return out;
    case 6: cv::rotate(img, out, cv::ROTATE_90_CLOCKWISE); return out;
    case 7: cv::transpose(img, out); cv::flip(out, out, -1); return out;
    case 8: cv::rotate(img, out, cv::ROTATE_90_COUNTERCLOCKWISE); return out;
    default: return img;
    }
}

std::string describeOrientation(int orientation)
{
    switch (orientation) {
    case 2: return "mirrored left to right";
    case 3: return "rotated 180\u00b0";
    case 4: return "mirrored top to bottom";
    case 5: return "mirrored and rotated 90\u00b0 counter-clockwise";
    case 6: return "rotated 90\u00b0 clockwise";
    case 7: return "mirrored and rotated 90\u00b0 clockwise";
    case 8: return "rotated 90\u00b0 counter-clockwise";
    default: return {};
    }
}

bool formatHoldsMetadata(const std::string& ext)
{
    const std::string e = lower(ext);
    return e == ".jpg" || e == ".jpeg" || e == ".png" || e == ".tif" || e == ".tiff" || e == ".webp";
}

std::optional<ImageMetadata> keptMetadata(const ImageMetadata& metadata, const std::string& path, bool strip)
{
    const std::string ext = lower(std::filesystem::path(path).extension().string());
    if (strip || metadata.empty() || !formatHoldsMetadata(ext)) {
        return std::nullopt;
    }
    ImageMetadata kept = metadata;
    if (ext == ".webp") {
        kept.icc.clear();  // Exiv2 0.27 does not write ICC profiles into WebP
    }
    return kept.empty() ? std::nullopt : std::optional<ImageMetadata>(std::move(kept));
}

bool embedMetadata(std::vector<unsigned char>& encoded, const ImageMetadata& metadata, int width, int height)
{
    if (metadata.empty() || encoded.empty() || metadata.exif.size() > kMaxMetadataPartBytes ||
        metadata.xmp.size() > kMaxMetadataPartBytes || metadata.icc.size() > kMaxMetadataPartBytes) {
        return false;
    }
    initialiseExiv2();
    try {
        Exiv2::Image::AutoPtr image =
            Exiv2::ImageFactory::open(encoded.data(), static_cast<long>(encoded.size()));
        if (image.get() == nullptr) {
            return false;
        }
        image->readMetadata();  // what the encoder wrote stays (e.g. a TIFF's own tags)
        if (!metadata.exif.empty()) {
            Exiv2::ExifData source;
            Exiv2::ExifParser::decode(source, reinterpret_cast<const Exiv2::byte*>(metadata.exif.data()),
                                      static_cast<std::uint32_t>(metadata.exif.size()));
            Exiv2::ExifData& exif = image->exifData();
            for (const Exiv2::Exifdatum& d : source) {
                if (!isStructureTag(d) && exif.findKey(Exiv2::ExifKey(d.key())) == exif.end()) {
                    exif.add(d);
                }
            }
            // The pixels are written upright, in the output's own size.
            exif["Exif.Image.Orientation"] = static_cast<std::uint16_t>(1);
            if (exif.findKey(Exiv2::ExifKey("Exif.Photo.PixelXDimension")) != exif.end()) {
                exif["Exif.Photo.PixelXDimension"] = static_cast<std::uint32_t>(width);
                exif["Exif.Photo.PixelYDimension"] = static_cast<std::uint32_t>(height);
            }
        }
        if (!metadata.xmp.empty()) {
            Exiv2::XmpData xmp;
            if (Exiv2::XmpParser::decode(xmp, metadata.xmp) == 0) {
                if (xmp.findKey(Exiv2::XmpKey("Xmp.tiff.Orientation")) != xmp.end()) {
                    xmp["Xmp.tiff.Orientation"] = "1";
                }
                for (const char* key : {"Xmp.tiff.ImageWidth", "Xmp.exif.PixelXDimension"}) {
                    if (xmp.findKey(Exiv2::XmpKey(key)) != xmp.end()) {
                        xmp[key] = std::to_string(width);
                    }
                }
                for (const char* key : {"Xmp.tiff.ImageLength", "Xmp.exif.PixelYDimension"}) {
                    if (xmp.findKey(Exiv2::XmpKey(key)) != xmp.end()) {
                        xmp[key] = std::to_string(height);
                    }
                }
                image->setXmpData(xmp);
            }
        }
        if (!metadata.icc.empty()) {
            Exiv2::DataBuf icc(reinterpret_cast<const Exiv2::byte*>(metadata.icc.data()),
                               static_cast<long>(metadata.icc.size()));
            image->setIccProfile(icc, false);
        }
        image->writeMetadata();
        Exiv2::BasicIo& io = image->io();
        if (io.open() != 0) {
            return false;
        }
        io.seek(0, Exiv2::BasicIo::beg);
        const Exiv2::DataBuf written = io.read(static_cast<long>(io.size()));
        io.close();
        if (written.size_ <= 0) {
            return false;
        }
        encoded.assign(written.pData_, written.pData_ + written.size_);
        return true;
    } catch (...) {
        return false;
    }
}

}  // namespace tessera::app
