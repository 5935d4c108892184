// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/io/codec/codec.h"
#include "app/io/image_metadata.h"

#include <opencv2/core/mat.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

/// Thrown by readImage() when ImageLimits::cancel was set while the file was being decoded.
class ImageReadCancelled : public ImageError {
public:
    explicit ImageReadCancelled(const std::string& path);
};

/// Largest image Tessera will decode. Checked from the file header before decoding.
struct ImageLimits {
    int maxWidth = 32768;
    int maxHeight = 32768;
    std::uint64_t maxPixels = std::uint64_t{1} << 30;  ///< 1 Gpixel
    /// Scans of a (progressive) JPEG; encoders write about 10, each scan costs a decoding pass.
    int maxJpegScans = 1000;
    /// Pixels times decoding passes (a progressive JPEG's scans, an interlaced PNG's passes):
    /// bounds the time a small hostile file can cost. 2^34 lets a 1 Gpixel photo of 16 scans
    /// through and refuses a 32768 x 32768 JPEG of 1000 scans before decoding.
    std::uint64_t maxDecodeWork = std::uint64_t{1} << 34;
    /// When set while a decode runs, the decoder stops within about 50 ms of work and
    /// readImage() throws ImageReadCancelled. May be null; must outlive the call.
    const std::atomic<bool>* cancel = nullptr;
    /// When set, called with the fraction of the pixels decoded (0..1) as the decoder goes (see
    /// codec::DecodeBudget::progress), on the reading thread. May be null.
    std::function<void(double)> progress = nullptr;
    /// When set, tried on a JPEG's bytes after every header and budget check, before
    /// libjpeg-turbo: an image it returns (CV_8UC1 for a grey JPEG, CV_8UC3 BGR otherwise, the
    /// header's size, not turned) is used as libjpeg-turbo's would be; nullopt (with why), an
    /// exception or an image of another shape sends the file to libjpeg-turbo. Called on the
    /// reading thread; e.g. a gpu::GpuJpegDecoder.
    std::function<std::optional<cv::Mat>(std::span<const std::uint8_t> file, std::string& why)> jpegDecoder = nullptr;
    /// How jpegDecoder is named in decoderUsed, e.g. "nvJPEG (GPU 0)".
    std::string jpegDecoderName = "JPEG decoder";
    /// When set, receives the decoder that read the pixels: "libjpeg-turbo", jpegDecoderName,
    /// "libjpeg-turbo (<jpegDecoderName>: <why it did not>)", or another format's library
    /// ("libpng", "libtiff", "libwebp", "OpenEXR", "BMP reader", "PNM reader"). Must outlive the call.
    std::string* decoderUsed = nullptr;
};

/// What an output file holds of the metadata offered for it, as written, and what it does not.
struct MetadataReport {
    ImageMetadata kept;                ///< the parts in the file (bytes as written)
    std::vector<std::string> dropped;  ///< one line per part (or piece) offered and left out, with why
    /// "EXIF, XMP, ICC profile" (or "none"), then "; left out: ..." when something was.
    std::string summary() const;
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

/// Reads the whole file and decodes it with its format's own library (app/io/codec), then turns
/// the pixels upright from the orientation EXIF holds (or, without one, XMP); metadata, when
/// given, receives what the file carries and the orientation that was applied. Returns CV_8U,
/// CV_16U or CV_32F with 1, 3 or 4 channels in B, G, R(, A) order (grey + alpha becomes BGRA;
/// other depths are refused). Throws ImageError for: file not
/// found, a folder, not a regular file or larger than any image within limits could be (the
/// input rule, files::checkInputFile), unreadable (permissions), empty file, not an image /
/// corrupt, unsupported depth or channels, dimensions over the limits, more decoding work than
/// limits.maxDecodeWork; ImageReadCancelled when limits.cancel is set meanwhile.
cv::Mat readImage(const std::string& path, const ImageLimits& limits = {}, ImageMetadata* metadata = nullptr);

/// As readImage(path), from everything stream holds (standard input, for "-"): at most the bytes
/// a file may have, read to the end, then decoded. name stands for the path in messages
/// ("standard input"). Throws ImageError as readImage() does, and for a stream that fails.
cv::Mat readImage(std::istream& stream, const std::string& name, const ImageLimits& limits = {},
                  ImageMetadata* metadata = nullptr);

/// As readImage(path), from a whole file's bytes already in memory; name stands for the path in
/// messages. The format comes from the bytes (their magic numbers), never from a name.
cv::Mat decodeImage(const std::string& name, std::span<const std::uint8_t> file, const ImageLimits& limits = {},
                    ImageMetadata* metadata = nullptr);

/// Writes img to path with its format's own library, keeping depth and channels where the
/// format allows (PNG 8/16, TIFF 8/16/32f, JPEG/BMP/WebP 8-bit, EXR float). Writes under the
/// output rule (files::OutputFile): encoded in memory, written to a temporary file in the same
/// folder, synced and renamed over path; a device, FIFO, socket or folder at path is refused and
/// left as it is. Throws ImageError if the format cannot hold the depth or alpha, the folder is
/// missing or not writable, the disk is full or encoding fails; never leaves a partial file.
/// An existing target keeps its permissions. metadata, when given, is prepared for these
/// pixels (orientation upright, this size, no thumbnail: prepareOutputMetadata()) and placed by
/// the format's writer; the report says exactly what the file holds and what was left out.
/// Grey to WebP is stored as three equal channels.
/// format, when not empty, is the output format as --format names it (png, jpg, tif, ...),
/// instead of the one path's extension names.
MetadataReport writeImage(const std::string& path, const cv::Mat& img, const ImageMetadata* metadata = nullptr,
                          const codec::EncodeOptions& options = {}, const std::string& format = {});

/// img encoded in memory as format (png, jpg, tif, bmp, webp or exr, any case, a leading '.'
/// allowed) with metadata as writeImage() places it; report says what the bytes hold. name
/// stands for the destination in messages ("standard output"). Throws ImageError as
/// writeImage() does for the format, the depth, the channels and the encoder.
std::vector<std::uint8_t> encodeImage(const std::string& name, const cv::Mat& img, const std::string& format,
                                      const ImageMetadata* metadata, const codec::EncodeOptions& options,
                                      MetadataReport& report);

/// The output formats writeImage() knows, as messages list them.
inline constexpr std::string_view kOutputFormatList = ".png, .jpg, .tif, .bmp, .webp or .exr";
/// "PNG", "JPEG", "TIFF", "BMP", "WebP" or "EXR" for a --format value (png, jpeg, .TIF...);
/// empty for one writeImage() does not write. Never throws.
std::string outputFormatName(const std::string& format);
/// The output format path's extension names, as outputFormatName(); empty for none. Never throws.
std::string outputFormatOfPath(const std::string& path);

/// Empty when writeImage() can store an image of cvDepth (and channels, 0 for any) under path's
/// extension; otherwise the reason it would refuse, without the path. Never throws.
std::string outputFormatProblem(const std::string& path, int cvDepth, int channels = 0);

/// Throws ImageError when output resolves to the same file as input (also through links).
void refuseSameFile(const std::string& input, const std::string& output);

/// "u8", "u16" or "f32" plus channels, e.g. "u8x3".
std::string describeFormat(const cv::Mat& img);

}  // namespace tessera::app
