// SPDX-License-Identifier: Apache-2.0
#include "app/io/image_io.h"

#include "image_io_detail.h"

#include "filters/cpu_executor.h"

#include "app/io/codec/codec.h"
#include "app/io/decoder_choice.h"
#include "app/io/image_header.h"
#include "app/io/orientation.h"
#include "app/io/output_metadata.h"
#include "app/io/tiff_samples.h"
#include "files/input_file.h"
#include "files/output_file.h"
#include "values/log.h"

#include <opencv2/core.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <mutex>
#include <optional>
#include <span>
#include <streambuf>
#include <string_view>
#include <vector>

namespace tessera::app {
namespace fs = std::filesystem;
using detail::depthBit;
using detail::millisecondsSince;
using detail::upper;

namespace detail {

unsigned depthBit(int depth)
{
    switch (depth) {
    case CV_8U: return kU8;
    case CV_16U: return kU16;
    case CV_32F: return kF32;
    default: return 0;
    }
}

std::string millisecondsSince(std::chrono::steady_clock::time_point began)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f",
                  std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count());
    return text;
}

std::string upper(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return text;
}

}  // namespace detail

namespace {

void checkLimits(const std::string& path, int width, int height, const ImageLimits& limits)
{
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
cv::Mat normalise(const std::string& path, cv::Mat img)
{
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

std::string errnoReason(int err, const char* fallback)
{
    return err != 0 ? std::string(std::strerror(err)) : std::string(fallback);
}

// The largest image file read: the biggest image the limits allow at 16 bytes a pixel (f32 x 4,
// uncompressed), twice over for a codec's worst case, plus room for metadata. A file past it
// holds far more than any image within the limits.
std::uintmax_t imageFileBound(const ImageLimits& limits)
{
    constexpr std::uintmax_t kPerPixel = 2 * 16;
    constexpr std::uintmax_t kMetadata = std::uintmax_t{64} << 20;
    const std::uintmax_t pixels = limits.maxPixels;
    if (pixels > (UINTMAX_MAX - kMetadata) / kPerPixel) {
        return UINTMAX_MAX;
    }
    return pixels * kPerPixel + kMetadata;
}

/// A seekable input stream over bytes in memory, for the header sniffer and the JPEG walk.
class MemoryBuffer : public std::streambuf {
public:
    explicit MemoryBuffer(std::span<const std::uint8_t> bytes)
    {
        char* begin = const_cast<char*>(reinterpret_cast<const char*>(bytes.data()));
        setg(begin, begin, begin + bytes.size());
    }

protected:
    pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override
    {
        const off_type base = dir == std::ios_base::beg   ? 0
                              : dir == std::ios_base::cur ? gptr() - eback()
                                                          : egptr() - eback();
        const off_type to = base + off;
        if (to < 0 || to > egptr() - eback()) {
            return pos_type(off_type(-1));
        }
        setg(eback(), eback() + to, egptr());
        return pos_type(to);
    }
    pos_type seekpos(pos_type pos, std::ios_base::openmode mode) override
    {
        return seekoff(off_type(pos), std::ios_base::beg, mode);
    }
};

class MemoryStream : public std::istream {
public:
    explicit MemoryStream(std::span<const std::uint8_t> bytes) : std::istream(nullptr), buffer_(bytes)
    {
        rdbuf(&buffer_);
    }

private:
    MemoryBuffer buffer_;
};

/// The whole file in memory for the codecs: mapped read-only (as libtiff maps the files it opens),
/// so that its pages come from the page cache without a copy; read with checked calls where it
/// cannot be mapped.
class FileBytes {
public:
    FileBytes(const std::string& path, std::uintmax_t bytes)
    {
        errno = 0;
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            const int err = errno;
            throw ImageError(path, err == EACCES ? "permission denied (cannot read the file)"
                                                 : "cannot open the file: " + errnoReason(err, "unknown error"));
        }
        void* map = ::mmap(nullptr, static_cast<std::size_t>(bytes), PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
            map_ = map;
            size_ = static_cast<std::size_t>(bytes);
            ::close(fd);
            return;
        }
        owned_.resize(static_cast<std::size_t>(bytes));
        std::size_t done = 0;
        while (done < owned_.size()) {
            const ssize_t n = ::read(fd, owned_.data() + done, owned_.size() - done);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                const int err = errno;
                ::close(fd);
                throw ImageError(path, n == 0 ? "cannot read the file: it ended after " + std::to_string(done) +
                                                    " of " + std::to_string(bytes) + " bytes"
                                              : "cannot read the file: " + errnoReason(err, "unknown error"));
            }
            done += static_cast<std::size_t>(n);
        }
        ::close(fd);
    }
    ~FileBytes()
    {
        if (map_ != nullptr) {
            ::munmap(map_, size_);
        }
    }
    FileBytes(const FileBytes&) = delete;
    FileBytes& operator=(const FileBytes&) = delete;

    std::span<const std::uint8_t> bytes() const
    {
        return map_ != nullptr ? std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(map_), size_)
                               : std::span<const std::uint8_t>(owned_);
    }

private:
    void* map_ = nullptr;
    std::size_t size_ = 0;
    std::vector<std::uint8_t> owned_;
};

}  // namespace

ImageError::ImageError(const std::string& path, const std::string& reason)
    : std::runtime_error(path + ": " + reason), path_(path), reason_(reason)
{
}

ImageReadCancelled::ImageReadCancelled(const std::string& path) : ImageError(path, "cancelled while decoding")
{
}

namespace {

/// What the header shows before decoding: a TIFF of more channels than Tessera reads, a JPEG
/// whose scans would take the decoder too long, a JPEG cut short. Throws ImageError naming path.
void refuseFromHeader(const std::string& path, MemoryStream& in, const ImageHeader& header, const ImageLimits& limits)
{
    if (header.format == "tiff") {
        if (const std::optional<int> samples = tiffSamplesPerPixel(in); samples && *samples > 4) {
            throw ImageError(path, "TIFF with " + std::to_string(*samples) +
                                       " channels per pixel: unsupported channel count (Tessera reads 1 to 4 "
                                       "channels from a TIFF)");
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
        if (jpeg.width > 0 && jpeg.height > 0) {
            const std::uint64_t work =
                std::uint64_t(jpeg.width) * std::uint64_t(jpeg.height) * std::uint64_t(std::max(jpeg.scans, 1));
            if (work > limits.maxDecodeWork) {
                throw ImageError(path, "JPEG of " + std::to_string(jpeg.scans) + " scans over " +
                                           std::to_string(jpeg.width) + " x " + std::to_string(jpeg.height) +
                                           " pixels: " + std::to_string(work) +
                                           " pixel passes exceed the decode budget of " +
                                           std::to_string(limits.maxDecodeWork) + "; refused before decoding");
            }
        }
        // A JPEG cut short decodes with grey rows and only a warning: refuse it here.
        if (!jpeg.complete) {
            throw ImageError(path, "truncated JPEG data: the file ends before the image does (no end-of-image marker)");
        }
    }
}

/// The format to decode, from the header (or the PNM reader's own look at the bytes). Throws
/// ImageError for what is no image, a format not read, or a header without a size.
std::string formatToDecode(const std::string& path, const ImageHeader& header, std::span<const std::uint8_t> file)
{
    // Refuse oversized images from the header alone, before the decoder allocates anything; a
    // header of a known format whose size cannot be read is refused too, since the decoder might
    // read a size there that the limits never saw.
    std::string format = header.format;
    if (format.empty() && codec::looksLikePnm(file)) {
        format = "pnm";  // sized by its own reader, which checks the limits before allocating
    } else if (format.empty() && file.size() >= 2 && file[0] == '#' && file[1] == '?') {
        throw ImageError(path,
                         "Radiance HDR images are not read by this version; convert it to OpenEXR or a float TIFF");
    } else if (format.empty()) {
        throw ImageError(path, "not an image file (unrecognised format)");
    } else if (header.width <= 0 || header.height <= 0) {
        throw ImageError(path, "corrupt or unsupported " + upper(header.format) +
                                   " header: cannot read the image size from it; refused before decoding");
    }
    return format;
}

codec::DecodeBudget decodeBudget(const ImageLimits& limits)
{
    codec::DecodeBudget budget;
    budget.maxWidth = limits.maxWidth;
    budget.maxHeight = limits.maxHeight;
    budget.maxPixels = limits.maxPixels;
    budget.maxJpegScans = limits.maxJpegScans;
    budget.maxWork = limits.maxDecodeWork;
    budget.cancel = limits.cancel;
    budget.progress = limits.progress;
    budget.orientationOf = [](const ImageMetadata& m) { return orientationOf(m); };
    return budget;
}

}  // namespace

cv::Mat readImage(const std::string& path, const ImageLimits& limits, ImageMetadata* metadata)
{
    std::uintmax_t bytes = 0;
    try {
        bytes = files::checkInputFile(path, {"an image file", imageFileBound(limits), false}).bytes;
    } catch (const files::InputFileError& e) {
        throw ImageError(path, e.reason());
    }
    if (bytes == 0) {
        throw ImageError(path, "empty file (0 bytes)");
    }
    const FileBytes whole(path, bytes);
    return decodeImage(path, whole.bytes(), limits, metadata);
}

cv::Mat readImage(std::istream& stream, const std::string& name, const ImageLimits& limits, ImageMetadata* metadata)
{
    // The same bound as a file's, counted as the bytes come: a stream has no size to check first.
    const std::uintmax_t bound = imageFileBound(limits);
    std::vector<std::uint8_t> bytes;
    std::vector<char> chunk(std::size_t{1} << 20);
    while (stream) {
        stream.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const auto got = static_cast<std::size_t>(stream.gcount());
        if (bytes.size() + got > bound) {
            throw ImageError(name, "more than " + std::to_string(bound) +
                                       " bytes, larger than any image within the limits could be");
        }
        bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + static_cast<long>(got));
    }
    if (stream.bad()) {
        throw ImageError(name, "cannot read: the stream failed");
    }
    if (bytes.empty()) {
        throw ImageError(name, "empty (0 bytes)");
    }
    return decodeImage(name, bytes, limits, metadata);
}

cv::Mat decodeImage(const std::string& path, std::span<const std::uint8_t> file, const ImageLimits& limits,
                    ImageMetadata* metadata)
{
    const auto began = std::chrono::steady_clock::now();
    MemoryStream in(file);
    const ImageHeader header = sniffImageHeader(in);
    refuseFromHeader(path, in, header, limits);
    const std::string format = formatToDecode(path, header, file);
    if (format != "pnm") {
        checkLimits(path, header.width, header.height, limits);
    }

    codec::DecodeBudget budget = decodeBudget(limits);
    codec::Decoded decoded;
    std::string library;
    try {
        decoded = decodePixels(format, file, header, limits, budget, library);
    } catch (const codec::DecodeCancelled&) {
        throw ImageReadCancelled(path);
    } catch (const codec::CodecError& e) {
        throw ImageError(path, e.what());
    }
    if (limits.decoderUsed != nullptr) {
        *limits.decoderUsed = library;
    }
    if (decoded.pixels.empty()) {
        throw ImageError(path, "corrupt or truncated " + upper(format) + " data (cannot decode)");
    }
    checkLimits(path, decoded.pixels.cols, decoded.pixels.rows, limits);
    cv::Mat read = normalise(path, std::move(decoded.pixels));
    // The orientation EXIF (or, without it, XMP) holds: the pixels are turned upright here for
    // every format, and the metadata remembers what was applied.
    const FoundOrientation found = findOrientation(decoded.metadata);
    if (!decoded.upright) {
        read = orientUpright(read, found.orientation);
    }
    if (metadata != nullptr) {
        *metadata = std::move(decoded.metadata);
        metadata->orientation = found.orientation;
    }
    values::logIf(values::LogCategory::Io, [&] {
        return "read " + path + ": " + upper(format) + " by " + library + ", " + std::to_string(read.cols) + " x " +
               std::to_string(read.rows) + " " + describeFormat(read) + ", " + std::to_string(file.size()) +
               " bytes in " + millisecondsSince(began) + " ms";
    });
    return read;
}

}  // namespace tessera::app
