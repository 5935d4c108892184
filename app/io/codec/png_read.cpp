// SPDX-License-Identifier: Apache-2.0
// The PNG reader on libpng, giving the pixels cv::imread(IMREAD_UNCHANGED) gives (B,G,R order,
// 16-bit samples in the machine's byte order, no gamma applied, palette expanded, tRNS as alpha
// for palette and RGB images) except that grey + alpha stays two channels.
#include "app/io/codec/png_support.h"

#include <zlib.h>

#include <csetjmp>
#include <cstring>
#include <memory>

namespace tessera::app::codec {
namespace {

using namespace png_detail;

/// One read handle; destroys itself.
struct ReadHandle {
    PngState state;
    png_structp png = nullptr;
    png_infop info = nullptr;

    explicit ReadHandle(std::span<const std::uint8_t> input)
    {
        state.input = input;
        png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, pngError, pngWarning);
        if (png == nullptr) {
            throw CodecError("the PNG library could not start");
        }
        info = png_create_info_struct(png);
        if (info == nullptr) {
            png_destroy_read_struct(&png, nullptr, nullptr);
            throw CodecError("the PNG library could not start");
        }
        png_set_read_fn(png, &state, pngReadData);
        // Metadata parts up to kMaxMetadataPartBytes; libpng's own default caps chunks at 8 MB.
        png_set_chunk_malloc_max(png, kMaxMetadataPartBytes + 1024);
    }
    ~ReadHandle() { png_destroy_read_struct(&png, &info, nullptr); }
    ReadHandle(const ReadHandle&) = delete;
    ReadHandle& operator=(const ReadHandle&) = delete;
};

// The functions below call libpng under setjmp: they hold no object with a destructor created
// after the setjmp, so a jump back from the error handler skips nothing.

bool readInfo(ReadHandle& h)
{
    if (setjmp(png_jmpbuf(h.png)) != 0) {
        return false;
    }
    png_read_info(h.png, h.info);
    return true;
}

bool setTransforms(ReadHandle& h, int& channels, int& passes)
{
    if (setjmp(png_jmpbuf(h.png)) != 0) {
        return false;
    }
    png_structp png = h.png;
    png_infop info = h.info;
    const int colorType = png_get_color_type(png, info);
    const int bitDepth = png_get_bit_depth(png, info);
    if (bitDepth == 16) {
        png_set_swap(png);  // PNG stores 16-bit samples big-endian; cv::Mat holds them native
    }
    const bool hasTrns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (colorType == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(png);
    }
    if ((colorType == PNG_COLOR_TYPE_PALETTE || colorType == PNG_COLOR_TYPE_RGB) && hasTrns) {
        png_set_tRNS_to_alpha(png);
    }
    if ((colorType & PNG_COLOR_MASK_COLOR) == 0 && bitDepth < 8) {
        png_set_expand_gray_1_2_4_to_8(png);
    }
    if ((colorType & PNG_COLOR_MASK_COLOR) != 0) {
        png_set_bgr(png);
    }
    passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    channels = png_get_channels(png, info);
    return true;
}

/// Reads every row of every pass into pixels; false on a library error, cancelled set when the
/// budget's flag stopped it.
bool readRows(ReadHandle& h, cv::Mat& pixels, int passes, const DecodeBudget& budget, bool& cancelled)
{
    const std::atomic<bool>* cancel = budget.cancel;
    if (setjmp(png_jmpbuf(h.png)) != 0) {
        return false;
    }
    for (int pass = 0; pass < passes; ++pass) {
        for (int y = 0; y < pixels.rows; ++y) {
            if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
                cancelled = true;
                return true;
            }
            if (y % 64 == 0) {
                reportProgress(budget, std::int64_t(pass) * pixels.rows + y, std::int64_t(passes) * pixels.rows);
            }
            png_read_row(h.png, pixels.ptr<png_byte>(y), nullptr);
        }
    }
    png_read_end(h.png, h.info);
    return true;
}

[[noreturn]] void fail(const ReadHandle& h)
{
    throw CodecError(describePngError(h.state.error));
}

void checkSignature(std::span<const std::uint8_t> file)
{
    if (file.size() < 8 || png_sig_cmp(file.data(), 0, 8) != 0) {
        throw CodecError("not a PNG file (the PNG signature is missing)");
    }
}

std::uint32_t chunkLength(std::span<const std::uint8_t> file, std::size_t at)
{
    return (std::uint32_t(file[at]) << 24) | (std::uint32_t(file[at + 1]) << 16) | (std::uint32_t(file[at + 2]) << 8) |
           std::uint32_t(file[at + 3]);
}

}  // namespace

// The ICC profile of an iCCP chunk libpng refused for its name alone: exiv2 0.27 and earlier
// Tessera releases wrote it with an empty name, which libpng rejects, so photos saved by them
// would lose their colour profile on reading. Inflated here, bounded by the metadata limit.
std::string unnamedIccProfile(std::span<const std::uint8_t> file)
{
    std::size_t at = 8;
    while (at + 12 <= file.size()) {
        const std::uint64_t length = chunkLength(file, at);
        if (at + 12 + length > file.size()) {
            return {};
        }
        if (std::memcmp(file.data() + at + 4, "iCCP", 4) == 0) {
            const std::uint8_t* body = file.data() + at + 8;
            if (length < 3 || body[0] != 0 || body[1] != 0) {
                return {};  // a named profile (libpng's business) or not deflate
            }
            std::string out(kMaxMetadataPartBytes + 1, '\0');
            uLongf size = static_cast<uLongf>(out.size());
            if (uncompress(reinterpret_cast<Bytef*>(out.data()), &size, body + 2, static_cast<uLong>(length - 2)) !=
                    Z_OK ||
                size > kMaxMetadataPartBytes || size < 132) {
                return {};
            }
            out.resize(size);
            ioDiagnostic("png", "an ICC profile without a name (as exiv2 0.27 wrote it) was read");
            return out;
        }
        if (std::memcmp(file.data() + at + 4, "IDAT", 4) == 0) {
            return {};  // iCCP comes before the image data
        }
        at += 12 + length;
    }
    return {};
}

// Every chunk a file claims must lie within it: libpng would otherwise allocate or skip what a
// 200-byte file claims (gigabytes for one text chunk) before it meets the end.
void checkChunkLengths(std::span<const std::uint8_t> file)
{
    std::size_t at = 8;
    while (at + 8 <= file.size()) {
        const std::uint64_t length = chunkLength(file, at);
        if (at + 12 + length > file.size()) {
            const std::string type(reinterpret_cast<const char*>(file.data() + at + 4), 4);
            bool printable = true;
            for (const char c : type) {
                printable = printable && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
            }
            throw CodecError("truncated PNG data: " + (printable ? "the " + type + " chunk" : std::string("a chunk")) +
                             " claims " + std::to_string(length) + " bytes past the end of the file");
        }
        const bool end = std::memcmp(file.data() + at + 4, "IEND", 4) == 0;
        at += 12 + length;
        if (end) {
            return;
        }
    }
}

Decoded readPng(std::span<const std::uint8_t> file, const DecodeBudget& budget)
{
    checkSignature(file);
    checkChunkLengths(file);
    ReadHandle h(file);
    if (!readInfo(h)) {
        fail(h);
    }
    const auto width = png_get_image_width(h.png, h.info);
    const auto height = png_get_image_height(h.png, h.info);
    checkSize(static_cast<int>(width), static_cast<int>(height), budget);
    const int bitDepth = png_get_bit_depth(h.png, h.info);
    int channels = 0;
    int passes = 1;
    if (!setTransforms(h, channels, passes)) {
        fail(h);
    }
    const std::uint64_t work = std::uint64_t(width) * height * static_cast<std::uint64_t>(passes);
    if (work > budget.maxWork) {
        throw CodecError("decoding this PNG takes " + std::to_string(work) + " pixel passes (" +
                         std::to_string(passes) + " interlace passes), over the limit of " +
                         std::to_string(budget.maxWork));
    }
    if (channels < 1 || channels > 4) {
        throw CodecError("corrupt PNG data: " + std::to_string(channels) + " channels after expansion");
    }
    Decoded out;
    out.pixels.create(static_cast<int>(height), static_cast<int>(width),
                      CV_MAKETYPE(bitDepth == 16 ? CV_16U : CV_8U, channels));
    bool cancelled = false;
    if (!readRows(h, out.pixels, passes, budget, cancelled)) {
        fail(h);
    }
    if (cancelled) {
        throw DecodeCancelled();
    }
    collectPngMetadata(h.png, h.info, out.metadata);
    if (out.metadata.icc.empty()) {
        out.metadata.icc = unnamedIccProfile(file);
    }
    return out;
}

namespace {

/// The file with its image data left out: signature, every chunk but IDAT (those after the image
/// data moved before it, as metadata readers accept them anywhere) and one empty IDAT at the end,
/// so that png_read_info() sees every metadata chunk without decoding a pixel.
std::vector<std::uint8_t> withoutImageData(std::span<const std::uint8_t> file)
{
    std::vector<std::uint8_t> out(file.begin(), file.begin() + 8);
    std::size_t at = 8;
    while (at + 12 <= file.size()) {
        const std::uint32_t length = chunkLength(file, at);
        if (length > file.size() - at - 12) {
            break;
        }
        const bool idat = std::memcmp(file.data() + at + 4, "IDAT", 4) == 0;
        const bool iend = std::memcmp(file.data() + at + 4, "IEND", 4) == 0;
        if (iend) {
            break;
        }
        if (!idat) {
            out.insert(out.end(), file.begin() + static_cast<std::ptrdiff_t>(at),
                       file.begin() + static_cast<std::ptrdiff_t>(at + 12 + length));
        }
        at += 12 + std::size_t{length};
    }
    static constexpr std::uint8_t kEmptyIdat[] = {0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x35, 0xaf, 0x06, 0x1e};
    out.insert(out.end(), std::begin(kEmptyIdat), std::end(kEmptyIdat));
    return out;
}

}  // namespace

ImageMetadata readPngMetadata(std::span<const std::uint8_t> file)
{
    ImageMetadata metadata;
    try {
        checkSignature(file);
        const std::vector<std::uint8_t> stripped = withoutImageData(file);
        ReadHandle h(stripped);
        readInfo(h);  // on damage, keep what was read before it
        collectPngMetadata(h.png, h.info, metadata);
        if (metadata.icc.empty()) {
            metadata.icc = unnamedIccProfile(file);
        }
    } catch (const CodecError&) {
    }
    return metadata;
}

}  // namespace tessera::app::codec
