// SPDX-License-Identifier: Apache-2.0
// The PNG writer on libpng: 8- or 16-bit grey, grey + alpha, BGR or BGRA, with the ICC profile
// (iCCP), EXIF (eXIf), XMP (uncompressed iTXt) and IPTC (the "Raw profile type iptc" text chunk
// exiv2, exiftool and ImageMagick read) placed before the image data.
#include "app/io/codec/png_support.h"

#include <csetjmp>

namespace tessera::app::codec {
namespace {

using namespace png_detail;

struct WriteHandle {
    PngState state;
    png_structp png = nullptr;
    png_infop info = nullptr;

    explicit WriteHandle(std::vector<std::uint8_t>& output)
    {
        state.output = &output;
        png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, pngError, pngWarning);
        if (png == nullptr) {
            throw CodecError("the PNG library could not start");
        }
        info = png_create_info_struct(png);
        if (info == nullptr) {
            png_destroy_write_struct(&png, nullptr);
            throw CodecError("the PNG library could not start");
        }
        png_set_write_fn(png, &state, pngWriteData, pngFlush);
        png_set_benign_errors(png, 1);
    }
    ~WriteHandle() { png_destroy_write_struct(&png, &info); }
    WriteHandle(const WriteHandle&) = delete;
    WriteHandle& operator=(const WriteHandle&) = delete;
};

/// Everything the text chunks point at, alive until the file is written.
struct TextChunks {
    std::string xmp;
    std::string iptcProfile;
    std::vector<png_text> entries;
};

bool setHeader(WriteHandle& h, const cv::Mat& img, int level)
{
    if (setjmp(png_jmpbuf(h.png)) != 0) {
        return false;
    }
    static constexpr int kColorTypes[] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                          PNG_COLOR_TYPE_RGB_ALPHA};
    png_set_IHDR(h.png, h.info, static_cast<png_uint_32>(img.cols), static_cast<png_uint_32>(img.rows),
                 img.depth() == CV_16U ? 16 : 8, kColorTypes[img.channels()], PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(h.png, level);
    return true;
}

bool setIcc(WriteHandle& h, const std::string& icc)
{
    if (setjmp(png_jmpbuf(h.png)) != 0) {
        return false;
    }
    png_set_iCCP(h.png, h.info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, reinterpret_cast<png_const_bytep>(icc.data()),
                 static_cast<png_uint_32>(icc.size()));
    return png_get_valid(h.png, h.info, PNG_INFO_iCCP) != 0;
}

bool setExif(WriteHandle& h, const std::string& exif)
{
    if (setjmp(png_jmpbuf(h.png)) != 0) {
        return false;
    }
    png_set_eXIf_1(h.png, h.info, static_cast<png_uint_32>(exif.size()),
                   reinterpret_cast<png_bytep>(const_cast<char*>(exif.data())));
    return png_get_valid(h.png, h.info, PNG_INFO_eXIf) != 0;
}

bool setText(WriteHandle& h, TextChunks& text)
{
    if (setjmp(png_jmpbuf(h.png)) != 0) {
        return false;
    }
    png_set_text(h.png, h.info, text.entries.data(), static_cast<int>(text.entries.size()));
    return true;
}

bool writeImage(WriteHandle& h, const cv::Mat& img)
{
    if (setjmp(png_jmpbuf(h.png)) != 0) {
        return false;
    }
    png_write_info(h.png, h.info);
    if (img.channels() >= 3) {
        png_set_bgr(h.png);
    }
    if (img.depth() == CV_16U) {
        png_set_swap(h.png);
    }
    for (int y = 0; y < img.rows; ++y) {
        png_write_row(h.png, img.ptr<png_byte>(y));
    }
    png_write_end(h.png, nullptr);
    return true;
}

png_text makeText(const char* key, std::string& value, int compression)
{
    png_text t{};
    t.compression = compression;
    t.key = const_cast<char*>(key);
    t.text = value.data();
    if (compression >= PNG_ITXT_COMPRESSION_NONE) {
        t.itxt_length = value.size();
        t.lang = nullptr;
        t.lang_key = nullptr;
    } else {
        t.text_length = value.size();
    }
    return t;
}

}  // namespace

std::vector<std::uint8_t> writePng(const cv::Mat& img, const ImageMetadata* metadata, const EncodeOptions& options,
                                   MetadataWritten& written)
{
    written = {};
    if (img.empty()) {
        throw CodecError("PNG cannot hold an empty image");
    }
    if (img.depth() != CV_8U && img.depth() != CV_16U) {
        throw CodecError("PNG holds 8- or 16-bit unsigned samples only");
    }
    if (img.channels() < 1 || img.channels() > 4) {
        throw CodecError("PNG holds 1 to 4 channels, not " + std::to_string(img.channels()));
    }
    if (options.pngCompression < 0 || options.pngCompression > 9) {
        throw CodecError("PNG compression level " + std::to_string(options.pngCompression) + " is outside 0..9");
    }
    std::vector<std::uint8_t> output;
    WriteHandle h(output);
    if (!setHeader(h, img, options.pngCompression)) {
        throw CodecError("PNG writing failed: " + h.state.error);
    }
    TextChunks text;
    if (metadata != nullptr) {
        if (!metadata->icc.empty()) {
            if (setIcc(h, metadata->icc)) {
                written.parts.icc = metadata->icc;
            } else {
                const std::string why = !h.state.error.empty() ? h.state.error : h.state.lastWarning;
                written.dropped.push_back("ICC profile: libpng refused it (" +
                                          (why.empty() ? std::string("invalid profile") : why) + ")");
                h.state.error.clear();
            }
        }
        if (!metadata->exif.empty()) {
            if (setExif(h, metadata->exif)) {
                written.parts.exif = metadata->exif;
            } else {
                written.dropped.push_back("EXIF: libpng refused it (" + h.state.error + ")");
                h.state.error.clear();
            }
        }
        text.entries.reserve(2);
        if (!metadata->xmp.empty()) {
            text.xmp = metadata->xmp;
            text.entries.push_back(makeText(kXmpKeyword, text.xmp, PNG_ITXT_COMPRESSION_NONE));
        }
        if (!metadata->iptc.empty()) {
            text.iptcProfile = encodeRawProfile("iptc", wrapIptcInPhotoshopBlock(metadata->iptc));
            text.entries.push_back(makeText(kIptcKeyword, text.iptcProfile, PNG_TEXT_COMPRESSION_zTXt));
        }
        if (!text.entries.empty()) {
            if (setText(h, text)) {
                written.parts.xmp = metadata->xmp;
                written.parts.iptc = metadata->iptc;
            } else {
                written.dropped.push_back("XMP/IPTC: libpng refused the text chunks (" + h.state.error + ")");
                h.state.error.clear();
            }
        }
    }
    if (!writeImage(h, img)) {
        throw CodecError("PNG writing failed: " + h.state.error);
    }
    return output;
}

}  // namespace tessera::app::codec
