// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <opencv2/core/mat.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::app {

/// What a photo carries besides its pixels: EXIF, XMP and the ICC colour profile, as read from
/// an input so that the output can carry them on. The parts are kept as bytes, so that the
/// library that reads them stays out of this header.
struct ImageMetadata {
    std::string exif;     ///< EXIF, as a TIFF-structured block; empty when none
    std::string xmp;      ///< the XMP packet (XML text); empty when none
    std::string icc;      ///< the ICC profile; empty when none
    std::string iptc;     ///< IPTC-IIM records (the dataset stream, no Photoshop wrapper); empty when none
    int orientation = 1;  ///< the EXIF orientation the file had (1..8; 1 is upright)

    bool empty() const { return exif.empty() && xmp.empty() && icc.empty() && iptc.empty(); }
    /// The parts present, e.g. "EXIF, XMP, ICC profile, IPTC"; "none" when empty.
    std::string summary() const;
};

/// The largest part (EXIF, XMP or ICC) read or written; a larger one is left out.
inline constexpr std::size_t kMaxMetadataPartBytes = std::size_t{4} << 20;

/// The metadata of the image file at path, read by its format's library without decoding the
/// pixels (JPEG, PNG, TIFF, WebP); orientation is the one EXIF, or else XMP, holds. Never throws:
/// a file without metadata, or whose metadata cannot be read, gives an empty ImageMetadata with
/// orientation 1.
ImageMetadata readMetadata(const std::string& path);
/// As readMetadata(), from a whole file held in memory (also the fuzzing entry point).
ImageMetadata readMetadata(const std::uint8_t* data, std::size_t size);

/// img turned upright from EXIF orientation (2..8 mirror and/or rotate; 1 or anything else
/// returns img itself).
cv::Mat applyOrientation(const cv::Mat& img, int orientation);
/// What applyOrientation() did, e.g. "rotated 90\u00b0 clockwise"; empty for 1.
std::string describeOrientation(int orientation);

}  // namespace tessera::app
