// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <opencv2/core/mat.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
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

/// The metadata of the image file at path. Never throws: a file without metadata, or whose
/// metadata cannot be read, gives an empty ImageMetadata with orientation 1.
ImageMetadata readMetadata(const std::string& path);
/// As readMetadata(), from a whole file held in memory (also the fuzzing entry point).
ImageMetadata readMetadata(const std::uint8_t* data, std::size_t size);

/// img turned upright from EXIF orientation (2..8 mirror and/or rotate; 1 or anything else
/// returns img itself).
cv::Mat applyOrientation(const cv::Mat& img, int orientation);
/// What applyOrientation() did, e.g. "rotated 90\u00b0 clockwise"; empty for 1.
std::string describeOrientation(int orientation);

/// Puts metadata into the encoded file in encoded (JPEG, PNG, TIFF or WebP; other formats are
/// left as they are and give false), with the orientation set to upright and the pixel
/// dimensions set to width x height. Structure tags of the source file (strips, tiles, bit
/// depths, thumbnails) are never carried over. Never throws; false when nothing was written.
bool embedMetadata(std::vector<unsigned char>& encoded, const ImageMetadata& metadata, int width, int height);

/// What an output at path keeps of metadata: nothing (nullopt) when strip is set, the format
/// holds no metadata or there is none; otherwise the parts its format holds (WebP: EXIF and XMP,
/// no ICC profile), so that summary() says what the file will carry.
std::optional<ImageMetadata> keptMetadata(const ImageMetadata& metadata, const std::string& path, bool strip = false);

/// True when the file format of extension ext (".jpg", ".png", ...) holds metadata that
/// embedMetadata() writes.
bool formatHoldsMetadata(const std::string& ext);

}  // namespace tessera::app
