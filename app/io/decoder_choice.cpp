// SPDX-License-Identifier: Apache-2.0
#include "app/io/decoder_choice.h"

#include "values/log.h"

#include <optional>

namespace tessera::app {

namespace {

codec::Decoded decode(const std::string& format, std::span<const std::uint8_t> bytes, const codec::DecodeBudget& budget)
{
    if (format == "jpeg") {
        return codec::readJpeg(bytes, budget);
    }
    if (format == "png") {
        return codec::readPng(bytes, budget);
    }
    if (format == "tiff") {
        return codec::readTiff(bytes, budget);
    }
    if (format == "webp") {
        return codec::readWebp(bytes, budget);
    }
    if (format == "exr") {
        return codec::readExr(bytes, budget);
    }
    if (format == "pnm") {
        return codec::readPnm(bytes, budget);
    }
    return codec::readBmp(bytes, budget);
}

/// The library that decodes format in decode().
std::string libraryOf(const std::string& format)
{
    if (format == "jpeg") {
        return "libjpeg-turbo";
    }
    if (format == "png") {
        return "libpng";
    }
    if (format == "tiff") {
        return "libtiff";
    }
    if (format == "webp") {
        return "libwebp";
    }
    if (format == "exr") {
        return "OpenEXR";
    }
    return format == "pnm" ? "PNM reader" : "BMP reader";
}

/// limits.jpegDecoder's image when it gives one of the shape libjpeg-turbo would (the header's
/// size; one channel for a grey JPEG, three BGR otherwise); otherwise nullopt and why.
std::optional<cv::Mat> tryJpegDecoder(const ImageLimits& limits, std::span<const std::uint8_t> file,
                                      const ImageHeader& header, std::string& why)
{
    std::optional<cv::Mat> pixels;
    try {
        pixels = limits.jpegDecoder(file, why);
    } catch (const std::exception& e) {
        why = std::string("failed: ") + e.what();
        return std::nullopt;
    } catch (...) {
        why = "failed with an unknown exception";
        return std::nullopt;
    }
    if (!pixels) {
        if (why.empty()) {
            why = "gave no image";
        }
        return std::nullopt;
    }
    if (pixels->cols != header.width || pixels->rows != header.height ||
        (pixels->type() != CV_8UC1 && pixels->type() != CV_8UC3)) {
        why = "gave a " + std::to_string(pixels->cols) + " x " + std::to_string(pixels->rows) + " " +
              describeFormat(*pixels) + " image for a " + std::to_string(header.width) + " x " +
              std::to_string(header.height) + " JPEG";
        return std::nullopt;
    }
    return pixels;
}

}  // namespace

codec::Decoded decodePixels(const std::string& format, std::span<const std::uint8_t> file, const ImageHeader& header,
                            const ImageLimits& limits, const codec::DecodeBudget& budget, std::string& library)
{
    library = libraryOf(format);
    if (format == "jpeg" && limits.jpegDecoder) {
        std::string why;
        std::optional<cv::Mat> pixels = tryJpegDecoder(limits, file, header, why);
        if (limits.cancel != nullptr && limits.cancel->load()) {
            throw codec::DecodeCancelled();
        }
        if (pixels) {
            codec::Decoded decoded;
            decoded.pixels = std::move(*pixels);
            decoded.metadata = codec::readJpegMetadata(file);  // upright stays false: readImage turns it
            library = limits.jpegDecoderName;
            return decoded;
        }
        library += " (" + limits.jpegDecoderName + ": " + why + ")";
        values::logIf(values::LogCategory::Fallback, [&] {
            return "JPEG decoded by libjpeg-turbo instead of " + limits.jpegDecoderName + ": " + why;
        });
    }
    return decode(format, file, budget);
}

}  // namespace tessera::app
