// SPDX-License-Identifier: Apache-2.0
// Writing images: the output formats and what each can hold, encoding in memory, and writing a
// file through a temporary (files/output_file.h). Reading is in image_io.cpp.
#include "app/io/image_io.h"

#include "image_io_detail.h"

#include "filters/cpu_executor.h"

#include "app/io/codec/codec.h"
#include "app/io/output_metadata.h"
#include "files/output_file.h"
#include "values/log.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <string_view>
#include <vector>

namespace tessera::app {
namespace fs = std::filesystem;
using detail::depthBit;
using detail::kF32;
using detail::kU16;
using detail::kU8;
using detail::millisecondsSince;
using detail::upper;

namespace {

using Writer = std::vector<std::uint8_t> (*)(const cv::Mat&, const ImageMetadata*, const codec::EncodeOptions&,
                                             codec::MetadataWritten&);

struct OutputFormat {
    std::string_view name;
    std::array<std::string_view, 3> extensions;
    unsigned depths;
    bool alpha;
    Writer write;
    std::string_view library;  ///< the encoder, for diagnostics
};

const std::vector<OutputFormat>& outputFormats()
{
    // Each format's own library writes it (app/io/codec); the options say quality and
    // compression (TIFF LZW, WebP lossless keeping the colour under transparent pixels).
    static const std::vector<OutputFormat> formats{
        {"PNG", {".png"}, kU8 | kU16, true, codec::writePng, "libpng"},
        {"JPEG", {".jpg", ".jpeg", ".jpe"}, kU8, false, codec::writeJpeg, "libjpeg-turbo"},
        {"TIFF", {".tif", ".tiff"}, kU8 | kU16 | kF32, true, codec::writeTiff, "libtiff"},
        {"BMP", {".bmp", ".dib"}, kU8, false, codec::writeBmp, "BMP writer"},
        {"WebP", {".webp"}, kU8, true, codec::writeWebp, "libwebp"},
        {"EXR", {".exr"}, kF32, true, codec::writeExr, "OpenEXR"},
    };
    return formats;
}

std::string lowerExtension(const std::string& path)
{
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

const OutputFormat* findOutputFormat(const std::string& ext)
{
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

std::string formatsHolding(unsigned bit, bool needAlpha)
{
    std::string list;
    for (const OutputFormat& f : outputFormats()) {
        if ((f.depths & bit) != 0 && (f.alpha || !needAlpha)) {
            list += list.empty() ? "" : ", ";
            list += f.name;
        }
    }
    return list;
}

/// ".png" for "png", "PNG", ".png"; the extension of a --format value.
std::string formatExtension(const std::string& format)
{
    std::string ext = format;
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext.empty() || ext.front() == '.' ? ext : "." + ext;
}

/// Empty when the format of extension ext can hold cvDepth (and channels, 0 for any), else why not.
std::string formatProblem(const std::string& ext, int cvDepth, int channels)
{
    const OutputFormat* format = findOutputFormat(ext);
    if (format == nullptr) {
        return "unsupported output format '" + ext + "' (use " + std::string(kOutputFormatList) + ")";
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
        return std::string(format->name) +
               " cannot hold an alpha channel; formats that can: " + formatsHolding(bit, true);
    }
    return {};
}

}  // namespace

std::string MetadataReport::summary() const
{
    std::string text = kept.summary();
    if (!dropped.empty()) {
        text += "; left out: ";
        for (std::size_t i = 0; i < dropped.size(); ++i) {
            text += (i == 0 ? "" : "; ") + dropped[i];
        }
    }
    return text;
}

std::vector<std::uint8_t> encodeImage(const std::string& name, const cv::Mat& img, const std::string& format,
                                      const ImageMetadata* metadata, const codec::EncodeOptions& options,
                                      MetadataReport& report)
{
    const auto began = std::chrono::steady_clock::now();
    if (img.empty()) {
        throw ImageError(name, "nothing to write: the image is empty");
    }
    const std::string ext = formatExtension(format);
    if (const std::string problem = formatProblem(ext, img.depth(), img.channels()); !problem.empty()) {
        throw ImageError(name, problem);
    }
    const int channels = img.channels();
    if (channels != 1 && channels != 3 && channels != 4) {
        throw ImageError(name, "cannot write " + std::to_string(channels) + "-channel images (1, 3 or 4 channels)");
    }
    const OutputFormat* out = findOutputFormat(ext);
    // The source's metadata corrected for these pixels (upright, this size); what cannot be
    // carried is named.
    report = MetadataReport{};
    std::optional<PreparedMetadata> prepared;
    if (metadata != nullptr && !metadata->empty()) {
        prepared = prepareOutputMetadata(*metadata, img.cols, img.rows, true);
        report.dropped = prepared->notes;
    }
    std::vector<std::uint8_t> encoded;
    codec::MetadataWritten written;
    try {
        encoded = out->write(img, prepared ? &prepared->parts : nullptr, options, written);
    } catch (const codec::CodecError& e) {
        throw ImageError(name,
                         "cannot encode " + describeFormat(img) + " as " + std::string(out->name) + ": " + e.what());
    }
    if (encoded.empty()) {
        throw ImageError(name, "cannot encode " + describeFormat(img) + " as " + std::string(out->name) +
                                   ": the encoder gave no data");
    }
    report.kept = std::move(written.parts);
    report.dropped.insert(report.dropped.end(), written.dropped.begin(), written.dropped.end());
    values::logIf(values::LogCategory::Io, [&] {
        return "encoded " + name + ": " + std::string(out->name) + " by " + std::string(out->library) + ", " +
               describeFormat(img) + ", " + std::to_string(encoded.size()) + " bytes in " + millisecondsSince(began) +
               " ms";
    });
    return encoded;
}

MetadataReport writeImage(const std::string& path, const cv::Mat& img, const ImageMetadata* metadata,
                          const codec::EncodeOptions& options, const std::string& format)
{
    // The output rule: a regular file (or a free name) is replaced through a temporary beside it
    // and a rename, keeping its mode; a device, FIFO or socket there is never replaced, and an
    // image is no stream's business, so those are refused. Checked before the work of encoding.
    if (img.empty()) {
        throw ImageError(path, "nothing to write: the image is empty");
    }
    const std::string chosen = format.empty() ? lowerExtension(path) : format;
    if (const std::string problem = formatProblem(formatExtension(chosen), img.depth(), img.channels());
        !problem.empty()) {
        throw ImageError(path, problem);
    }
    std::optional<files::OutputFile> out;
    try {
        out.emplace(path, files::Streams::Refuse);
    } catch (const files::OutputFileError& e) {
        throw ImageError(path, e.reason());
    }
    // Encoded in memory, then written with checked system calls, so that a full disk is seen.
    MetadataReport report;
    const std::vector<std::uint8_t> encoded = encodeImage(path, img, chosen, metadata, options, report);
    try {
        out->write(std::string_view(reinterpret_cast<const char*>(encoded.data()), encoded.size()));
        out->commit();
    } catch (const files::OutputFileError& e) {
        throw ImageError(path, e.reason());
    }
    values::logIf(values::LogCategory::Io,
                  [&] { return "wrote " + path + " (" + std::to_string(encoded.size()) + " bytes)"; });
    return report;
}

std::string outputFormatName(const std::string& format)
{
    const OutputFormat* f = findOutputFormat(formatExtension(format));
    return f != nullptr ? std::string(f->name) : std::string();
}

std::string outputFormatOfPath(const std::string& path)
{
    const OutputFormat* f = findOutputFormat(lowerExtension(path));
    return f != nullptr ? std::string(f->name) : std::string();
}

std::string outputFormatProblem(const std::string& path, int cvDepth, int channels)
{
    return formatProblem(lowerExtension(path), cvDepth, channels);
}

void refuseSameFile(const std::string& input, const std::string& output)
{
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

std::string describeFormat(const cv::Mat& img)
{
    return filters::cvDepthName(img.depth()) + "x" + std::to_string(img.channels());
}

}  // namespace tessera::app
