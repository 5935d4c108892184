// SPDX-License-Identifier: Apache-2.0
#include "app/io/image_io.h"

#include "filters/cpu_executor.h"

#include "app/io/image_header.h"
#include "app/io/tiff_samples.h"
#include "files/input_file.h"
#include "files/output_file.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>


namespace tessera::app {
namespace fs = std::filesystem;

namespace {

// Bits for the sample types an output format can hold.
enum DepthBit : unsigned { kU8 = 1, kU16 = 2, kF32 = 4 };

struct OutputFormat {
    std::string_view name;
    std::array<std::string_view, 3> extensions;
    unsigned depths;
    bool alpha;
    std::vector<int> params;
};

const std::vector<OutputFormat>& outputFormats() {
    // TIFF is written LZW-compressed explicitly: OpenCV's default for 3-channel float is the
    // lossy SGILOG encoding. WebP quality above 100 selects the lossless coder, which still
    // drops the colour of fully transparent pixels (libwebp's default; OpenCV has no switch).
    static const std::vector<OutputFormat> formats{
        {"PNG", {".png"}, kU8 | kU16, true, {}},
        {"JPEG", {".jpg", ".jpeg", ".jpe"}, kU8, false, {cv::IMWRITE_JPEG_QUALITY, 95}},
        {"TIFF", {".tif", ".tiff"}, kU8 | kU16 | kF32, true, {cv::IMWRITE_TIFF_COMPRESSION, 5}},
        {"BMP", {".bmp", ".dib"}, kU8, false, {}},
        {"WebP", {".webp"}, kU8, true, {cv::IMWRITE_WEBP_QUALITY, 101}},
        {"EXR", {".exr"}, kF32, true, {cv::IMWRITE_EXR_TYPE, cv::IMWRITE_EXR_TYPE_FLOAT}},
    };
    return formats;
}

std::string lowerExtension(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

const OutputFormat* findOutputFormat(const std::string& ext) {
    if (ext.empty()) {
        return nullptr;  // the unused slots of the extension lists are empty too
    }
    for (const OutputFormat& f : outputFormats()) {
        if (std::find(f.extensions.begin(), f.extensions.end(), ext) != f.extensions.end()) {
            return &f;
        }
    }
    return nullptr;
}

unsigned depthBit(int depth) {
    switch (depth) {
    case CV_8U: return kU8;
    case CV_16U: return kU16;
    case CV_32F: return kF32;
    default: return 0;
    }
}

std::string formatsHolding(unsigned bit, bool needAlpha) {
    std::string list;
    for (const OutputFormat& f : outputFormats()) {
        if ((f.depths & bit) != 0 && (f.alpha || !needAlpha)) {
            list += list.empty() ? "" : ", ";
            list += f.name;
        }
    }
    return list;
}

// OpenCV 4.x keeps its EXR codec off unless this variable says otherwise; Tessera promises EXR,
// so it is switched on once, before the first decode, unless the user has set it either way.
void enableCodecs() {
    static std::once_flag once;
    std::call_once(once, [] { ::setenv("OPENCV_IO_ENABLE_OPENEXR", "1", 0); });
}

std::string firstLine(const std::string& text) {
    const std::string line = text.substr(0, text.find('\n'));
    return line.empty() ? "unknown error" : line;
}

void checkLimits(const std::string& path, int width, int height, const ImageLimits& limits) {
    const std::uint64_t pixels = std::uint64_t(width) * std::uint64_t(height);
    const std::string size = std::to_string(width) + " x " + std::to_string(height);
    if (width > limits.maxWidth || height > limits.maxHeight) {
        throw ImageError(path, size + " exceeds the limit of " + std::to_string(limits.maxWidth) + " x " +
                                   std::to_string(limits.maxHeight));
    }
    if (pixels > limits.maxPixels) {
        throw ImageError(path, size + " (" + std::to_string(pixels) + " pixels) exceeds the limit of " +
                                   std::to_string(limits.maxPixels) + " pixels");
    }
}

// Brings a decoded image to the shapes the rest of Tessera handles.
cv::Mat normalise(const std::string& path, cv::Mat img) {
    if (depthBit(img.depth()) == 0) {
        throw ImageError(path, std::string("unsupported sample type ") + filters::cvDepthName(img.depth()) +
                                   " (Tessera reads u8, u16 and f32 images)");
    }
    if (img.channels() == 2) {  // gray + alpha
        cv::Mat bgra(img.size(), CV_MAKETYPE(img.depth(), 4));
        const std::array<int, 8> fromTo{0, 0, 0, 1, 0, 2, 1, 3};
        cv::mixChannels(&img, 1, &bgra, 1, fromTo.data(), fromTo.size() / 2);
        return bgra;
    }
    if (img.channels() != 1 && img.channels() != 3 && img.channels() != 4) {
        throw ImageError(path, "unsupported channel count " + std::to_string(img.channels()) +
                                   " (Tessera reads 1, 2, 3 or 4 channels)");
    }
    return img;
}

std::string errnoReason(int err, const char* fallback) {
    return err != 0 ? std::string(std::strerror(err)) : std::string(fallback);
}

// The largest image file read: the biggest image the limits allow at 16 bytes a pixel (f32 x 4,
// uncompressed), twice over for a codec's worst case, plus room for metadata. A file past it
// holds far more than any image within the limits.
std::uintmax_t imageFileBound(const ImageLimits& limits) {
    constexpr std::uintmax_t kPerPixel = 2 * 16;
    constexpr std::uintmax_t kMetadata = std::uintmax_t{64} << 20;
    const std::uintmax_t pixels = limits.maxPixels;
    if (pixels > (UINTMAX_MAX - kMetadata) / kPerPixel) {
        return UINTMAX_MAX;
    }
    return pixels * kPerPixel + kMetadata;
}

}  // namespace

ImageError::ImageError(const std::string& path, const std::string& reason)
    : std::runtime_error(path + ": " + reason), path_(path), reason_(reason) {}

cv::Mat readImage(const std::string& path, const ImageLimits& limits, ImageMetadata* metadata) {
    enableCodecs();
    std::uintmax_t bytes = 0;
    try {
        bytes = files::checkInputFile(path, {"an image file", imageFileBound(limits), false}).bytes;
    } catch (const files::InputFileError& e) {
        throw ImageError(path, e.reason());
    }
    if (bytes == 0) {
        throw ImageError(path, "empty file (0 bytes)");
    }

    ImageHeader header;
    {
        errno = 0;
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            const int err = errno;
            throw ImageError(path, err == EACCES ? "permission denied (cannot read the file)"
                                                 : "cannot open the file: " + errnoReason(err, "unknown error"));
        }
        header = sniffImageHeader(in);
        // OpenCV reads a grey + alpha TIFF as grey (the alpha dropped without a word) and calls
        // one of 5 or more channels corrupt: say what the file holds instead.
        if (header.format == "tiff") {
            if (const std::optional<int> samples = tiffSamplesPerPixel(in); samples && *samples == 2) {
                throw ImageError(path, "grey + alpha TIFF (2 channels): Tessera cannot read its alpha channel; "
                                       "save it as RGBA (4 channels) or as a grey + alpha PNG");
            } else if (samples && *samples > 4) {
                throw ImageError(path, "TIFF with " + std::to_string(*samples) +
                                           " channels per pixel: unsupported channel count (Tessera reads 1, 3 or "
                                           "4 channels from a TIFF)");
            }
        }
        if (header.format == "jpeg") {
            // Each scan of a progressive JPEG is a pass over the whole image: a few hundred bytes
            // of empty scans would keep the decoder busy for minutes.
            const JpegLayout jpeg = walkJpeg(in, limits.maxJpegScans);
            if (jpeg.scans > limits.maxJpegScans) {
                throw ImageError(path, "JPEG with more than " + std::to_string(limits.maxJpegScans) +
                                           " scans (encoders write about 10); refused before decoding");
            }
            // A JPEG cut short decodes with grey rows and only a warning: refuse it here.
            if (!jpeg.complete) {
                throw ImageError(path, "truncated JPEG data: the file ends before the image does (no end-of-image marker)");
            }
        }
    }
    // Refuse oversized images from the header alone, before the decoder allocates anything; a
    // header of a known format whose size cannot be read is refused too, since the decoder might
    // read a size there that the limits never saw.
    if (header.width > 0 && header.height > 0) {
        checkLimits(path, header.width, header.height, limits);
    } else if (!header.format.empty()) {
        std::string format = header.format;
        std::transform(format.begin(), format.end(), format.begin(),
                       [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        throw ImageError(path, "corrupt or unsupported " + format +
                                   " header: cannot read the image size from it; refused before decoding");
    } else {
        bool known = false;
        try {
            known = cv::haveImageReader(path);
        } catch (const cv::Exception&) {
            known = false;
        }
        if (!known) {
            throw ImageError(path, "not an image file (unrecognised format)");
        }
    }

    cv::Mat img;
    try {
        img = cv::imread(path, cv::IMREAD_UNCHANGED);
    } catch (const cv::Exception& e) {
        throw ImageError(path, "cannot decode the image: " + firstLine(e.err));
    }
    if (img.empty()) {
        std::string format = header.format;
        std::transform(format.begin(), format.end(), format.begin(),
                       [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        throw ImageError(path, format.empty() ? "not an image or corrupt (cannot decode)"
                                              : "corrupt or truncated " + format + " data (cannot decode)");
    }
    // Formats the sniffer does not parse are checked once decoded; OpenCV's own size guard
    // (1 Gpixel by default) bounds what that decode may allocate.
    checkLimits(path, img.cols, img.rows, limits);
    cv::Mat read = normalise(path, std::move(img));
    ImageMetadata found = readMetadata(path);
    // OpenCV's TIFF decoder turns the pixels itself (through libtiff); other decoders do not.
    if (header.format != "tiff") {
        read = applyOrientation(read, found.orientation);
    }
    if (metadata != nullptr) {
        *metadata = std::move(found);
    }
    return read;
}

void writeImage(const std::string& path, const cv::Mat& img, const ImageMetadata* metadata) {
    enableCodecs();
    if (img.empty()) {
        throw ImageError(path, "nothing to write: the image is empty");
    }
    const std::string ext = lowerExtension(path);
    const OutputFormat* format = findOutputFormat(ext);
    if (format == nullptr) {
        throw ImageError(path, "unsupported output format '" + ext +
                                   "' (use .png, .jpg, .tif, .bmp, .webp or .exr)");
    }
    const unsigned bit = depthBit(img.depth());
    if (bit == 0) {
        throw ImageError(path, std::string("cannot write ") + filters::cvDepthName(img.depth()) +
                                   " data (Tessera writes u8, u16 and f32)");
    }
    if ((format->depths & bit) == 0) {
        throw ImageError(path, std::string(format->name) + " cannot hold " + filters::cvDepthName(img.depth()) +
                                   " data; formats that can: " + formatsHolding(bit, false));
    }
    const int channels = img.channels();
    if (channels != 1 && channels != 3 && channels != 4) {
        throw ImageError(path, "cannot write " + std::to_string(channels) +
                                   "-channel images (1, 3 or 4 channels)");
    }
    if (channels == 4 && !format->alpha) {
        throw ImageError(path, std::string(format->name) + " cannot hold an alpha channel; formats that can: " +
                                   formatsHolding(bit, true));
    }

    // The output rule: a regular file (or a free name) is replaced through a temporary beside it
    // and a rename, keeping its mode; a device, FIFO or socket there is never replaced, and an
    // image is no stream's business, so those are refused.
    std::optional<files::OutputFile> out;
    try {
        out.emplace(path, files::Streams::Refuse);
    } catch (const files::OutputFileError& e) {
        throw ImageError(path, e.reason());
    }
    // Encoded in memory, then written with checked system calls: an encoder writing through stdio
    // may lose a failed or short write (a full disk) and still report success. OpenEXR encodes
    // only to a file (in memory OpenCV would stage it in the temporary folder) and throws on any
    // failed write, so EXR goes straight to the temporary file.
    const bool direct = ext == ".exr";
    std::vector<uchar> encoded;
    std::string detail = "the encoder reported a failure";
    bool ok = false;
    errno = 0;
    try {
        ok = direct ? cv::imwrite(out->temporary().string(), img, format->params)
                    : cv::imencode(ext, img, encoded, format->params) && !encoded.empty();
    } catch (const cv::Exception& e) {
        detail = firstLine(e.err);
    }
    const int encodeErr = errno;
    if (!ok && direct && (encodeErr == ENOSPC || encodeErr == EFBIG || encodeErr == EDQUOT)) {
        throw ImageError(path, "cannot write the file: " + errnoReason(encodeErr, "unknown error") +
                                   " (the disk or your quota is full); nothing was replaced");
    }
    if (!ok) {
        throw ImageError(path, "cannot encode " + describeFormat(img) + " as " + std::string(format->name) +
                                   ": " + detail);
    }
    if (!direct && metadata != nullptr && formatHoldsMetadata(ext)) {
        embedMetadata(encoded, *metadata, img.cols, img.rows);
    }
    try {
        if (direct) {
            out->written();
        } else {
            out->write(std::string_view(reinterpret_cast<const char*>(encoded.data()), encoded.size()));
        }
        out->commit();
    } catch (const files::OutputFileError& e) {
        throw ImageError(path, e.reason());
    }
}

std::string outputFormatProblem(const std::string& path, int cvDepth, int channels)
{
    const std::string ext = lowerExtension(path);
    const OutputFormat* format = findOutputFormat(ext);
    if (format == nullptr) {
        return "unsupported output format '" + ext + "' (use .png, .jpg, .tif, .bmp, .webp or .exr)";
    }
    const unsigned bit = depthBit(cvDepth);
    if (bit == 0) {
        return "cannot write " + filters::cvDepthName(cvDepth) + " data (Tessera writes u8, u16 and f32)";
    }
    if ((format->depths & bit) == 0) {
        return std::string(format->name) + " cannot hold " + filters::cvDepthName(cvDepth) +
               " data; formats that can: " + formatsHolding(bit, false);
    }
    if (channels == 4 && !format->alpha) {
        return std::string(format->name) + " cannot hold an alpha channel; formats that can: " +
               formatsHolding(bit, true);
    }
    return {};
}

void refuseSameFile(const std::string& input, const std::string& output) {
    // weakly_canonical resolves "..", "." and symbolic links of the parts that exist;
    // equivalent also catches hard links.
    std::error_code inputError;
    std::error_code outputError;
    const fs::path a = fs::weakly_canonical(input, inputError);
    const fs::path b = fs::weakly_canonical(output, outputError);
    bool same = !inputError && !outputError && a == b;
    if (!same) {
        std::error_code ec;
        same = fs::equivalent(input, output, ec) && !ec;
    }
    if (same) {
        throw ImageError(output, "is the same file as the input " + input + "; choose another output path");
    }
}

std::string describeFormat(const cv::Mat& img) {
    return filters::cvDepthName(img.depth()) + "x" + std::to_string(img.channels());
}

}  // namespace tessera::app
