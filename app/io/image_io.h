// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/io/image_metadata.h"

#include <opencv2/core/mat.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tessera::app {

/// Thrown by image reading and writing. what() starts with the file path and says the reason,
/// e.g. "/x/a.png: file not found" or "/x/b.png: 100000 x 100000 exceeds the limit of ...".
class ImageError : public std::runtime_error {
public:
    ImageError(const std::string& path, const std::string& reason);
    const std::string& path() const { return path_; }
    const std::string& reason() const { return reason_; }

private:
    std::string path_;
    std::string reason_;
};

/// Largest image Tessera will decode. Checked from the file header before decoding.
struct ImageLimits {
    int maxWidth = 32768;
    int maxHeight = 32768;
    std::uint64_t maxPixels = std::uint64_t{1} << 30;  ///< 1 Gpixel
    /// Scans of a (progressive) JPEG; encoders write about 10, each scan costs a decoding pass.
    int maxJpegScans = 1000;
};

/// Dimensions read from a file's header without decoding (PNG, JPEG, BMP, TIFF, WebP, EXR);
/// width = height = 0 when the format is not one the sniffer knows.
struct ImageHeader {
    int width = 0;
    int height = 0;
    std::string format;  ///< "png", "jpeg", "bmp", "tiff", "webp", "exr" or empty
};
/// Never throws: an unreadable file or unknown format gives an empty ImageHeader, a damaged
/// header of a known format gives that format with 0 x 0.
ImageHeader sniffImageHeader(const std::string& path);

/// Reads with cv::IMREAD_UNCHANGED and turns the pixels upright from the file's EXIF
/// orientation (metadata, when given, receives what the file carries). Returns CV_8U, CV_16U or CV_32F with 1, 3 or 4 channels
/// (2-channel gray+alpha becomes BGRA; other depths are refused). Throws ImageError for: file not
/// found, a folder, not a regular file or larger than any image within limits could be (the
/// input rule, files::checkInputFile), unreadable (permissions), empty file, not an image /
/// corrupt, unsupported depth or channels, dimensions over the limits.
cv::Mat readImage(const std::string& path, const ImageLimits& limits = {}, ImageMetadata* metadata = nullptr);

/// Writes img to path, keeping depth and channels where the format allows (PNG 8/16, TIFF
/// 8/16/32f, JPEG/BMP/WebP 8-bit, EXR float). Writes under the output rule (files::OutputFile):
/// to a temporary file in the same folder renamed over path when complete; a device, FIFO,
/// socket or folder at path is refused and left as it is. Throws ImageError if the format cannot
/// hold the depth, the folder is missing or not writable, or encoding fails; never leaves a
/// partial file.
/// 4-channel images are refused for JPEG and BMP (no alpha there) rather than losing alpha;
/// gray to WebP is stored as three equal channels and WebP loses the colour of pixels whose
/// alpha is 0. An existing target keeps its permissions. metadata, when given, goes into the
/// file before it is synced and renamed (JPEG, PNG, TIFF and WebP; see embedMetadata()).
void writeImage(const std::string& path, const cv::Mat& img, const ImageMetadata* metadata = nullptr);

/// Empty when writeImage() can store an image of cvDepth (and channels, 0 for any) under path's
/// extension; otherwise the reason it would refuse, without the path. Never throws.
std::string outputFormatProblem(const std::string& path, int cvDepth, int channels = 0);

/// Throws ImageError when output resolves to the same file as input (also through links).
void refuseSameFile(const std::string& input, const std::string& output);

/// "u8", "u16" or "f32" plus channels, e.g. "u8x3".
std::string describeFormat(const cv::Mat& img);

}  // namespace tessera::app
