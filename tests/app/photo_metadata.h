// SPDX-License-Identifier: Apache-2.0
#pragma once

// Writes test photos that carry EXIF (with an orientation), XMP and an ICC profile, and reads
// back what an output carries, with exiv2 as an outside reader.

#include <exiv2/exiv2.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace tessera::test {

/// A 64 x 40 photo, grey with a red 16 x 16 block at its top-left corner as stored.
inline cv::Mat storedPhoto()
{
    cv::Mat img(40, 64, CV_8UC3, cv::Scalar(128, 128, 128));
    img(cv::Rect(0, 0, 16, 16)).setTo(cv::Scalar(0, 0, 255));
    return img;
}

/// A made-up ICC profile: a header that passes the usual checks, then filler.
inline std::string fakeIccProfile()
{
    std::string icc(512, '\0');
    const std::uint32_t size = static_cast<std::uint32_t>(icc.size());
    for (int i = 0; i < 4; ++i) {
        icc[static_cast<size_t>(i)] = static_cast<char>((size >> (24 - 8 * i)) & 0xff);
    }
    icc.replace(36, 4, "acsp");
    icc.replace(128, 12, "TesseraTest!");
    return icc;
}

/// Writes storedPhoto() to path (.jpg, .png, .tif) with EXIF orientation, a camera make, the
/// pixel dimensions, an XMP rating and the ICC profile.
inline void writeTaggedPhoto(const std::string& path, int orientation)
{
    cv::imwrite(path, storedPhoto());
    Exiv2::XmpParser::initialize();
    Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(path);
    image->readMetadata();
    Exiv2::ExifData& exif = image->exifData();
    exif["Exif.Image.Make"] = std::string("TesseraTestCamera");
    exif["Exif.Image.Orientation"] = static_cast<std::uint16_t>(orientation);
    exif["Exif.Photo.PixelXDimension"] = static_cast<std::uint32_t>(64);
    exif["Exif.Photo.PixelYDimension"] = static_cast<std::uint32_t>(40);
    Exiv2::XmpData& xmp = image->xmpData();
    xmp["Xmp.xmp.Rating"] = "4";
    xmp["Xmp.tiff.Orientation"] = std::to_string(orientation);
    const std::string icc = fakeIccProfile();
    Exiv2::DataBuf buf(reinterpret_cast<const Exiv2::byte*>(icc.data()), static_cast<long>(icc.size()));
    image->setIccProfile(buf, false);
    image->writeMetadata();
}

/// What an outside reader finds in the file at path.
struct FoundMetadata {
    std::string make;         ///< Exif.Image.Make
    long orientation = 0;     ///< Exif.Image.Orientation; 0 when absent
    long pixelWidth = 0;      ///< Exif.Photo.PixelXDimension
    std::string rating;       ///< Xmp.xmp.Rating
    std::string xmpOrientation;
    std::string icc;          ///< the ICC profile's bytes
};

inline FoundMetadata readBack(const std::string& path)
{
    FoundMetadata found;
    Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(path);
    image->readMetadata();
    Exiv2::ExifData& exif = image->exifData();
    if (auto it = exif.findKey(Exiv2::ExifKey("Exif.Image.Make")); it != exif.end()) {
        found.make = it->toString();
    }
    if (auto it = exif.findKey(Exiv2::ExifKey("Exif.Image.Orientation")); it != exif.end()) {
        found.orientation = it->toLong();
    }
    if (auto it = exif.findKey(Exiv2::ExifKey("Exif.Photo.PixelXDimension")); it != exif.end()) {
        found.pixelWidth = it->toLong();
    }
    Exiv2::XmpData& xmp = image->xmpData();
    if (auto it = xmp.findKey(Exiv2::XmpKey("Xmp.xmp.Rating")); it != xmp.end()) {
        found.rating = it->toString();
    }
    if (auto it = xmp.findKey(Exiv2::XmpKey("Xmp.tiff.Orientation")); it != xmp.end()) {
        found.xmpOrientation = it->toString();
    }
    if (image->iccProfileDefined()) {
        found.icc.assign(reinterpret_cast<const char*>(image->iccProfile()->pData_),
                         static_cast<size_t>(image->iccProfile()->size_));
    }
    return found;
}

}  // namespace tessera::test
