// SPDX-License-Identifier: Apache-2.0
#pragma once

// Writes test photos that carry EXIF (with an orientation), XMP and an ICC profile, and reads
// back what an output carries, with Debian's exiv2 program as an outside reader and writer.

#include "tests/app/fake_icc.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

namespace tessera::test {

/// A 64 x 40 photo, grey with a red 16 x 16 block at its top-left corner as stored.
inline cv::Mat storedPhoto()
{
    cv::Mat img(40, 64, CV_8UC3, cv::Scalar(128, 128, 128));
    img(cv::Rect(0, 0, 16, 16)).setTo(cv::Scalar(0, 0, 255));
    return img;
}

/// Runs a command through the shell and returns its standard output (standard error dropped).
inline std::string commandOutput(const std::string& command)
{
    std::string out;
    if (FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r")) {
        char buffer[4096];
        std::size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
            out.append(buffer, n);
        }
        ::pclose(pipe);
    }
    return out;
}

/// path in single quotes for the shell.
inline std::string shellQuoted(const std::string& path)
{
    std::string q = "'";
    for (const char c : path) {
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return q + "'";
}

/// Writes storedPhoto() to path (.jpg, .png, .tif) with EXIF orientation, a camera make, the
/// pixel dimensions, an XMP rating and the ICC profile. The tags are set by Debian's exiv2
/// program, an outside writer that Tessera's programs do not link.
inline void writeTaggedPhoto(const std::string& path, int orientation)
{
    cv::imwrite(path, storedPhoto());
    const std::string n = std::to_string(orientation);
    const std::string set =
        "exiv2 -M'set Exif.Image.Make Ascii TesseraTestCamera' -M'set Exif.Image.Orientation Short " + n +
        "' -M'set Exif.Photo.PixelXDimension Long 64' -M'set Exif.Photo.PixelYDimension Long 40'"
        " -M'set Xmp.xmp.Rating 4' -M'set Xmp.tiff.Orientation " +
        n + "' " + shellQuoted(path);
    if (std::system(set.c_str()) != 0) {
        throw std::runtime_error("exiv2 could not tag " + path);
    }
    // exiv2 -iC inserts the profile from the file of the same stem ending in .icc.
    const std::string stem = path.substr(0, path.find_last_of('.'));
    {
        std::ofstream(stem + ".icc", std::ios::binary) << fakeIccProfile();
    }
    const int inserted = std::system(("exiv2 -iC " + shellQuoted(path)).c_str());
    std::remove((stem + ".icc").c_str());
    if (inserted != 0) {
        throw std::runtime_error("exiv2 could not insert the ICC profile into " + path);
    }
}

/// What an outside reader finds in the file at path.
struct FoundMetadata {
    std::string make;      ///< Exif.Image.Make
    long orientation = 0;  ///< Exif.Image.Orientation; 0 when absent
    long pixelWidth = 0;   ///< Exif.Photo.PixelXDimension
    std::string rating;    ///< Xmp.xmp.Rating
    std::string xmpOrientation;
    std::string icc;  ///< the ICC profile's bytes
};

/// The value exiv2 prints for key in lines of "key   value"; empty when the key is absent.
inline std::string valueOf(const std::string& listing, const std::string& key)
{
    std::istringstream lines(listing);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(key + " ", 0) == 0) {
            const std::size_t start = line.find_first_not_of(' ', key.size());
            return start == std::string::npos ? std::string() : line.substr(start);
        }
    }
    return {};
}

/// Read by Debian's exiv2 program.
inline FoundMetadata readBack(const std::string& path)
{
    FoundMetadata found;
    const std::string listing = commandOutput(
        "exiv2 -Pkv -K Exif.Image.Make -K Exif.Image.Orientation -K Exif.Photo.PixelXDimension -K Xmp.xmp.Rating "
        "-K Xmp.tiff.Orientation " +
        shellQuoted(path));
    found.make = valueOf(listing, "Exif.Image.Make");
    const std::string orientation = valueOf(listing, "Exif.Image.Orientation");
    found.orientation = orientation.empty() ? 0 : std::stol(orientation);
    const std::string width = valueOf(listing, "Exif.Photo.PixelXDimension");
    found.pixelWidth = width.empty() ? 0 : std::stol(width);
    found.rating = valueOf(listing, "Xmp.xmp.Rating");
    found.xmpOrientation = valueOf(listing, "Xmp.tiff.Orientation");
    found.icc = commandOutput("exiv2 -pC " + shellQuoted(path));
    return found;
}

}  // namespace tessera::test
