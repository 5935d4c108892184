// SPDX-License-Identifier: Apache-2.0
#pragma once

// The codec layer: one reader and one writer per file format, each on that format's own library
// (libjpeg-turbo, libpng, libtiff, libwebp with its mux API, OpenEXR) or, for BMP, on a small
// parser of Tessera's own. It works on bytes in memory; app/io/image_io.cpp reads the file,
// checks it against the input rules, picks the codec from the header and writes the result
// through files::OutputFile. Nothing here prints: library warnings go to ioDiagnostic().

#include "app/io/image_metadata.h"
#include "values/encode_options.h"

#include <opencv2/core/mat.hpp>

#include <atomic>
#include <functional>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::app::codec {

/// A codec's refusal or failure. what() is the reason only, in a user's words ("corrupt PNG
/// data: CRC error in chunk IDAT"); the caller puts the file name in front.
class CodecError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Thrown instead of CodecError when DecodeBudget::cancel was set during a decode.
class DecodeCancelled : public CodecError {
public:
    DecodeCancelled() : CodecError("cancelled while decoding") {}
};

/// Bounds on the work and memory of one decode. Each decoder checks the size in its own header
/// against these before it allocates the pixels.
struct DecodeBudget {
    int maxWidth = 32768;
    int maxHeight = 32768;
    std::uint64_t maxPixels = std::uint64_t{1} << 30;
    /// Scans of a progressive JPEG.
    int maxJpegScans = 1000;
    /// Pixels times decoding passes over them (a progressive JPEG's scans, counted per component
    /// as libjpeg walks them; one pass for a baseline image). A decode whose work would pass it is
    /// refused with the figures, before or while it runs.
    std::uint64_t maxWork = std::uint64_t{1} << 34;
    /// Polled while decoding (between rows or scans, at least every ~50 ms of work); when it is
    /// set the decoder stops and throws DecodeCancelled. May be null.
    const std::atomic<bool>* cancel = nullptr;
    /// When set, called with the fraction of the pixels decoded so far (0..1) while a decoder
    /// that reads row by row goes (JPEG, PNG, TIFF, OpenEXR), at most about every 64 rows, on
    /// the decoding thread. May be null.
    std::function<void(double)> progress = nullptr;
    /// When set, a decoder that can place rows as it decodes them (JPEG) asks it, once it has
    /// read the metadata, which EXIF orientation the picture has, and writes each band of rows
    /// straight into its upright place (Decoded::upright then says so): the photo is never held
    /// sideways, which saves a full-size image's allocation and copy.
    std::function<int(const ImageMetadata&)> orientationOf;
};

/// What a reader returns.
struct Decoded {
    /// CV_8U, CV_16U or CV_32F with 1, 2, 3 or 4 channels, in OpenCV's order (B, G, R, A) as
    /// cv::imread(IMREAD_UNCHANGED) would give: grey stays one channel, grey + alpha two.
    cv::Mat pixels;
    /// The metadata parts as the file holds them: EXIF as a TIFF-structured block (starting with
    /// "II*\0" or "MM\0*", no "Exif\0\0" prefix), XMP as the packet text (a JPEG's extended XMP
    /// joined back into it), ICC as the whole profile (a JPEG's APP2 pieces joined), IPTC as the
    /// IIM records (a JPEG's APP13 Photoshop block unwrapped to its IPTC resource). orientation is
    /// left at 1: image_metadata reads it from the parts.
    ImageMetadata metadata;
    /// True when the decoder already turned the pixels upright (libtiff's TIFFReadRGBA* does for
    /// some orientations; Tessera's readers should not, so this is normally false).
    bool upright = false;
};

/// Choices an encoder honours; each ignores those of other formats.
using values::EncodeOptions;

/// What an encoder put into the file besides the pixels: the parts written (as bytes, so a test
/// can compare them) and, for each part offered but not written in full, the reason, e.g.
/// "IPTC: PNG has no place for it" or "EXIF: 70000 bytes do not fit a JPEG APP1 segment
/// (65533 at most)".
struct MetadataWritten {
    ImageMetadata parts;  ///< orientation: the value the written EXIF/XMP holds (1 when none)
    std::vector<std::string> dropped;
};

/// Every reader and writer has one of these two shapes. Every function below is reentrant and
/// thread-safe (no global state beyond the libraries' own read-only tables). Readers throw
/// CodecError (or DecodeCancelled); writers throw CodecError when the image cannot be stored
/// (image_io checks depths and channels first, so that is a library failure) and never drop
/// pixels silently.
using Reader = Decoded(std::span<const std::uint8_t> file, const DecodeBudget& budget);
using Writer = std::vector<std::uint8_t>(const cv::Mat& img, const ImageMetadata* metadata,
                                         const EncodeOptions& options, MetadataWritten& written);
/// The metadata parts of a file without decoding its pixels (the same parts, read the same way,
/// as Decoded::metadata), through the format's library. Never throws: a file that cannot be read
/// gives what was read before the damage, or nothing.
using MetadataReader = ImageMetadata(std::span<const std::uint8_t> file);

Reader readJpeg, readPng, readTiff, readWebp, readExr, readBmp;
Writer writeJpeg, writePng, writeTiff, writeWebp, writeExr, writeBmp;
MetadataReader readJpegMetadata, readPngMetadata, readTiffMetadata, readWebpMetadata;

/// The quality (1..100) whose scaled standard luminance table (libjpeg's scaling of the table in
/// the JPEG standard's annex K) lies nearest the file's first quantisation table; 0 when the
/// file has no readable header or table. Never throws.
int estimateJpegQuality(std::span<const std::uint8_t> file);

/// Netpbm (P1 to P6) images, read only (a small parser of Tessera's own).
bool looksLikePnm(std::span<const std::uint8_t> file);
Reader readPnm;

/// Throws CodecError naming the size and the limit when width x height passes the budget's
/// size limits. For the codecs' use once they have read their header.
void checkSize(int width, int height, const DecodeBudget& budget);

/// Throws DecodeCancelled when the budget's cancel flag is set.
void checkCancel(const DecodeBudget& budget);
/// Tells budget.progress (if any) that done of total rows are decoded.
void reportProgress(const DecodeBudget& budget, std::int64_t done, std::int64_t total);

/// A library's warning or detail that is not the user's business on stderr: kept for
/// diagnostics (printed, prefixed "tessera: diagnostic: <source>: ", only when the environment
/// variable TESSERA_DIAGNOSTICS is set to 1). Thread-safe; never throws.
void ioDiagnostic(std::string_view source, std::string_view message);

}  // namespace tessera::app::codec
