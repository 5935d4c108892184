// SPDX-License-Identifier: Apache-2.0
#include "app/io/image_header.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <utility>
#include <string>

namespace tessera::app {
namespace {

// Bounds on loops driven by file contents, so a hostile file cannot keep the sniffer busy.
constexpr std::uint64_t kMaxTiffEntries = 4096;
constexpr int kMaxExrAttributes = 1024;
constexpr std::size_t kMaxExrName = 256;  // 255 characters plus the terminator with long names

// Random access into the stream; every read is bounds-checked by the stream itself, so a short
// read (past the end of a truncated file) simply reports failure.
class ByteSource {
public:
    explicit ByteSource(std::istream& in) : in_(in) {}

    std::size_t readSome(std::uint64_t offset, void* dst, std::size_t n)
    {
        if (offset > static_cast<std::uint64_t>(std::numeric_limits<std::streamoff>::max())) {
            return 0;
        }
        in_.clear();
        in_.seekg(static_cast<std::streamoff>(offset), std::ios::beg);
        if (!in_) {
            return 0;
        }
        in_.read(static_cast<char*>(dst), static_cast<std::streamsize>(n));
        return static_cast<std::size_t>(in_.gcount());
    }

    bool read(std::uint64_t offset, void* dst, std::size_t n) { return readSome(offset, dst, n) == n; }

    bool u8(std::uint64_t offset, std::uint8_t& v) { return read(offset, &v, 1); }

    bool u16(std::uint64_t offset, bool bigEndian, std::uint16_t& v)
    {
        std::array<std::uint8_t, 2> b{};
        if (!read(offset, b.data(), b.size())) {
            return false;
        }
        v = bigEndian ? static_cast<std::uint16_t>(b[0] << 8 | b[1]) : static_cast<std::uint16_t>(b[1] << 8 | b[0]);
        return true;
    }

    bool u32(std::uint64_t offset, bool bigEndian, std::uint32_t& v) { return unsignedN(offset, 4, bigEndian, v); }

    bool u64(std::uint64_t offset, bool bigEndian, std::uint64_t& v) { return unsignedN(offset, 8, bigEndian, v); }

    bool u24le(std::uint64_t offset, std::uint32_t& v) { return unsignedN(offset, 3, false, v); }

private:
    template <typename T>
    bool unsignedN(std::uint64_t offset, std::size_t n, bool bigEndian, T& v)
    {
        std::array<std::uint8_t, 8> b{};
        if (!read(offset, b.data(), n)) {
            return false;
        }
        v = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint8_t byte = bigEndian ? b[i] : b[n - 1 - i];
            v = static_cast<T>(v << 8 | byte);
        }
        return true;
    }

    std::istream& in_;
};

int saturate(std::uint64_t v)
{
    return v > static_cast<std::uint64_t>(INT_MAX) ? INT_MAX : static_cast<int>(v);
}

ImageHeader make(const char* format, std::uint64_t width, std::uint64_t height)
{
    return ImageHeader{saturate(width), saturate(height), format};
}

bool startsWith(ByteSource& src, const char* magic, std::size_t n)
{
    std::array<char, 8> b{};
    return n <= b.size() && src.read(0, b.data(), n) && std::memcmp(b.data(), magic, n) == 0;
}

ImageHeader sniffPng(ByteSource& src)
{
    std::array<char, 4> type{};
    std::uint32_t w = 0;
    std::uint32_t h = 0;
    // The first chunk must be IHDR; width and height follow its type directly.
    if (!src.read(12, type.data(), type.size()) || std::memcmp(type.data(), "IHDR", 4) != 0 || !src.u32(16, true, w) ||
        !src.u32(20, true, h)) {
        return make("png", 0, 0);
    }
    return make("png", w, h);
}

bool isJpegFrameMarker(int m)
{
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
}

// Reads a JPEG from its start as libjpeg reads it: next() skips what lies between markers the
// way libjpeg's next_marker() does (any bytes that are not 0xFF, which also covers entropy-coded
// scan data, then 0xFF fill bytes, and a stuffed 0xFF 0x00), so a junk byte before a segment hides
// nothing from us that the decoder would still see.
class JpegMarkers {
public:
    explicit JpegMarkers(std::istream& in) : it_(in), end_() {}

    bool byte(int& b)
    {
        if (it_ == end_) {
            return false;
        }
        b = static_cast<unsigned char>(*it_);
        ++it_;
        return true;
    }

    /// The next marker code (the byte after 0xFF); false at the end of the data.
    bool next(int& marker)
    {
        for (;;) {
            int b = 0;
            do {
                if (!byte(b)) {
                    return false;
                }
            } while (b != 0xFF);
            do {
                if (!byte(b)) {
                    return false;
                }
            } while (b == 0xFF);
            if (b != 0x00) {  // 0xFF 0x00 is a data byte inside a scan
                marker = b;
                return true;
            }
        }
    }

    bool u16(int& v)
    {
        int hi = 0;
        int lo = 0;
        if (!byte(hi) || !byte(lo)) {
            return false;
        }
        v = hi << 8 | lo;
        return true;
    }

    bool skip(int n)
    {
        for (int b = 0; n > 0; --n) {
            if (!byte(b)) {
                return false;
            }
        }
        return true;
    }

private:
    std::istreambuf_iterator<char> it_;
    const std::istreambuf_iterator<char> end_;
};

bool isStandaloneJpegMarker(int m)
{
    return m == 0x01 || (m >= 0xD0 && m <= 0xD7);  // TEM, RST0..RST7: no length field
}

// Walks the whole JPEG (or up to the frame header when stopAtFrame), counting scans up to
// maxScans + 1.
JpegLayout walkJpegMarkers(std::istream& in, int maxScans, bool stopAtFrame)
{
    JpegLayout layout;
    in.clear();
    in.seekg(0, std::ios::beg);
    JpegMarkers src(in);
    int a = 0;
    int b = 0;
    // libjpeg demands the start-of-image marker as the very first two bytes.
    if (!src.byte(a) || !src.byte(b) || a != 0xFF || b != 0xD8) {
        return layout;
    }
    bool sawFrame = false;
    int marker = 0;
    while (src.next(marker)) {
        if (marker == 0xD9) {
            layout.complete = sawFrame && layout.scans > 0;
            return layout;
        }
        if (isStandaloneJpegMarker(marker) || marker == 0xD8) {
            continue;  // libjpeg traces these (a second SOI is an error it reports itself)
        }
        int length = 0;
        if (!src.u16(length) || length < 2) {
            return layout;
        }
        if (isJpegFrameMarker(marker) && !sawFrame) {
            int precision = 0;
            int h = 0;
            int w = 0;
            if (length < 7 || !src.byte(precision) || !src.u16(h) || !src.u16(w)) {
                return layout;
            }
            layout.width = w;
            layout.height = h;
            sawFrame = true;
            if (stopAtFrame) {
                return layout;
            }
            length -= 5;
        }
        if (marker == 0xDA && (!sawFrame || ++layout.scans > maxScans)) {
            return layout;  // libjpeg refuses a scan before the frame header
        }
        if (!src.skip(length - 2)) {
            return layout;
        }
    }
    return layout;
}

ImageHeader sniffJpeg(std::istream& in)
{
    const JpegLayout layout = walkJpegMarkers(in, 0, true);
    return make("jpeg", static_cast<std::uint64_t>(layout.width), static_cast<std::uint64_t>(layout.height));
}

ImageHeader sniffBmp(ByteSource& src)
{
    std::uint32_t dibSize = 0;
    if (!src.u32(14, false, dibSize)) {
        return make("bmp", 0, 0);
    }
    if (dibSize == 12) {  // OS/2 BITMAPCOREHEADER: 16-bit unsigned sizes
        std::uint16_t w = 0;
        std::uint16_t h = 0;
        if (!src.u16(18, false, w) || !src.u16(20, false, h)) {
            return make("bmp", 0, 0);
        }
        return make("bmp", w, h);
    }
    std::uint32_t w = 0;
    std::uint32_t h = 0;
    if (dibSize < 16 || !src.u32(18, false, w) || !src.u32(22, false, h)) {
        return make("bmp", 0, 0);
    }
    const auto sw = static_cast<std::int64_t>(static_cast<std::int32_t>(w));
    const auto sh = static_cast<std::int64_t>(static_cast<std::int32_t>(h));
    if (sw < 0) {
        return make("bmp", 0, 0);  // not a valid bitmap; the decoder will say so
    }
    // A negative height marks a top-down bitmap.
    return make("bmp", static_cast<std::uint64_t>(sw), static_cast<std::uint64_t>(sh < 0 ? -sh : sh));
}

// Size in bytes of one value of each integer TIFF type libtiff accepts for ImageWidth and
// ImageLength: BYTE, SBYTE, SHORT, SSHORT, LONG, SLONG, IFD, LONG8, SLONG8, IFD8; 0 otherwise.
int tiffIntegerSize(std::uint16_t type)
{
    switch (type) {
    case 1:
    case 6: return 1;
    case 3:
    case 8: return 2;
    case 4:
    case 9:
    case 13: return 4;
    case 16:
    case 17:
    case 18: return 8;
    default: return 0;
    }
}

// Reads the single integer of an entry whose value field is at field (4 bytes in classic TIFF,
// 8 in BigTIFF: the value sits there, left-aligned, when it fits, else the field holds its
// offset). A negative signed value gives false, as it does in libtiff.
bool readTiffInteger(ByteSource& src, bool bigEndian, bool big, std::uint64_t field, std::uint16_t type,
                     std::uint64_t& value)
{
    const int size = tiffIntegerSize(type);
    if (size == 0) {
        return false;
    }
    std::uint64_t at = field;
    if (size > (big ? 8 : 4)) {
        std::uint32_t offset = 0;
        if (!src.u32(field, bigEndian, offset)) {
            return false;
        }
        at = offset;
    }
    std::uint64_t raw = 0;
    bool ok = false;
    switch (size) {
    case 1: {
        std::uint8_t v = 0;
        ok = src.u8(at, v);
        raw = v;
        break;
    }
    case 2: {
        std::uint16_t v = 0;
        ok = src.u16(at, bigEndian, v);
        raw = v;
        break;
    }
    case 4: {
        std::uint32_t v = 0;
        ok = src.u32(at, bigEndian, v);
        raw = v;
        break;
    }
    default: ok = src.u64(at, bigEndian, raw); break;
    }
    if (!ok) {
        return false;
    }
    const bool isSigned = type == 6 || type == 8 || type == 9 || type == 17;
    if (isSigned) {
        const int shift = 64 - 8 * size;
        const auto signedValue = static_cast<std::int64_t>(raw << shift) >> shift;
        if (signedValue < 0) {
            return false;
        }
    }
    value = raw;
    return true;
}

// Reads ImageWidth (256) and ImageLength (257) from the first IFD of a classic or BigTIFF file.
ImageHeader sniffTiff(ByteSource& src, bool bigEndian)
{
    std::uint16_t version = 0;
    if (!src.u16(2, bigEndian, version)) {
        return make("tiff", 0, 0);
    }
    const bool big = version == 43;
    std::uint64_t ifd = 0;
    std::uint64_t count = 0;
    if (big) {
        std::uint16_t offsetSize = 0;
        if (!src.u16(4, bigEndian, offsetSize) || offsetSize != 8 || !src.u64(8, bigEndian, ifd) ||
            !src.u64(ifd, bigEndian, count)) {
            return make("tiff", 0, 0);
        }
    } else {
        std::uint32_t ifd32 = 0;
        std::uint16_t count16 = 0;
        if (!src.u32(4, bigEndian, ifd32) || !src.u16(ifd32, bigEndian, count16)) {
            return make("tiff", 0, 0);
        }
        ifd = ifd32;
        count = count16;
    }
    const std::uint64_t entrySize = big ? 20 : 12;
    const std::uint64_t first = ifd + (big ? 8 : 2);
    const std::uint64_t valueAt = big ? 12 : 8;
    std::uint64_t width = 0;
    std::uint64_t height = 0;
    for (std::uint64_t i = 0; i < std::min(count, kMaxTiffEntries); ++i) {
        const std::uint64_t entry = first + i * entrySize;
        std::uint16_t tag = 0;
        std::uint16_t type = 0;
        if (!src.u16(entry, bigEndian, tag) || !src.u16(entry + 2, bigEndian, type)) {
            break;
        }
        if (tag != 256 && tag != 257) {
            continue;
        }
        std::uint64_t values = 0;
        std::uint32_t values32 = 0;
        const bool ok = big ? src.u64(entry + 4, bigEndian, values) : src.u32(entry + 4, bigEndian, values32);
        values = big ? values : values32;
        std::uint64_t value = 0;
        if (!ok || values != 1 || !readTiffInteger(src, bigEndian, big, entry + valueAt, type, value)) {
            break;  // libtiff also wants exactly one value; the size stays unknown and is refused
        }
        (tag == 256 ? width : height) = value;
        if (width != 0 && height != 0) {
            break;
        }
    }
    if (width == 0 || height == 0) {
        return make("tiff", 0, 0);
    }
    return make("tiff", width, height);
}

ImageHeader sniffWebp(ByteSource& src)
{
    std::array<char, 4> chunk{};
    if (!src.read(12, chunk.data(), chunk.size())) {
        return make("webp", 0, 0);
    }
    if (std::memcmp(chunk.data(), "VP8 ", 4) == 0) {  // lossy: key frame header after a 3-byte tag
        std::array<std::uint8_t, 3> start{};
        std::uint16_t w = 0;
        std::uint16_t h = 0;
        if (src.read(23, start.data(), start.size()) && start[0] == 0x9D && start[1] == 0x01 && start[2] == 0x2A &&
            src.u16(26, false, w) && src.u16(28, false, h)) {
            return make("webp", w & 0x3FFFu, h & 0x3FFFu);
        }
    } else if (std::memcmp(chunk.data(), "VP8L", 4) == 0) {  // lossless: 14-bit sizes minus one
        std::uint8_t signature = 0;
        std::uint32_t bits = 0;
        if (src.u8(20, signature) && signature == 0x2F && src.u32(21, false, bits)) {
            return make("webp", (bits & 0x3FFFu) + 1, ((bits >> 14) & 0x3FFFu) + 1);
        }
    } else if (std::memcmp(chunk.data(), "VP8X", 4) == 0) {  // extended: 24-bit canvas sizes minus one
        std::uint32_t w = 0;
        std::uint32_t h = 0;
        if (src.u24le(24, w) && src.u24le(27, h)) {
            return make("webp", std::uint64_t{w} + 1, std::uint64_t{h} + 1);
        }
    }
    return make("webp", 0, 0);
}

// Reads a NUL-terminated attribute name or type; false if none fits in kMaxExrName bytes.
bool readExrString(ByteSource& src, std::uint64_t& pos, std::string& out)
{
    std::array<char, kMaxExrName> buf{};
    const std::size_t got = src.readSome(pos, buf.data(), buf.size());
    const auto* end = static_cast<const char*>(std::memchr(buf.data(), '\0', got));
    if (end == nullptr) {
        return false;
    }
    out.assign(buf.data(), static_cast<std::size_t>(end - buf.data()));
    pos += out.size() + 1;
    return true;
}

// Walks the first header's attributes to dataWindow (box2i: xMin, yMin, xMax, yMax).
ImageHeader sniffExr(ByteSource& src)
{
    std::uint64_t pos = 8;
    for (int attribute = 0; attribute < kMaxExrAttributes; ++attribute) {
        std::string name;
        std::string type;
        std::uint32_t size = 0;
        if (!readExrString(src, pos, name) || name.empty() || !readExrString(src, pos, type) ||
            !src.u32(pos, false, size)) {
            break;
        }
        pos += 4;
        if (name == "dataWindow" && type == "box2i" && size == 16) {
            std::array<std::uint32_t, 4> box{};
            for (std::size_t i = 0; i < box.size(); ++i) {
                if (!src.u32(pos + 4 * i, false, box[i])) {
                    return make("exr", 0, 0);
                }
            }
            const std::int64_t w =
                std::int64_t{static_cast<std::int32_t>(box[2])} - static_cast<std::int32_t>(box[0]) + 1;
            const std::int64_t h =
                std::int64_t{static_cast<std::int32_t>(box[3])} - static_cast<std::int32_t>(box[1]) + 1;
            if (w <= 0 || h <= 0) {
                return make("exr", 0, 0);
            }
            return make("exr", static_cast<std::uint64_t>(w), static_cast<std::uint64_t>(h));
        }
        pos += size;
    }
    return make("exr", 0, 0);
}

}  // namespace

JpegLayout walkJpeg(std::istream& in, int maxScans)
{
    return walkJpegMarkers(in, maxScans, false);
}

bool jpegIsComplete(std::istream& in)
{
    return walkJpeg(in, INT_MAX - 1).complete;
}

ImageHeader sniffImageHeader(std::istream& in)
{
    ByteSource src(in);
    if (startsWith(src, "\x89PNG\r\n\x1a\n", 8)) {
        return sniffPng(src);
    }
    if (startsWith(src, "\xFF\xD8\xFF", 3)) {
        return sniffJpeg(in);
    }
    if (startsWith(src, "BM", 2)) {
        return sniffBmp(src);
    }
    if (startsWith(src, "II", 2) || startsWith(src, "MM", 2)) {
        const bool bigEndian = startsWith(src, "MM", 2);
        std::uint16_t version = 0;
        if (src.u16(2, bigEndian, version) && (version == 42 || version == 43)) {
            return sniffTiff(src, bigEndian);
        }
        return {};
    }
    std::array<char, 4> webp{};
    if (startsWith(src, "RIFF", 4) && src.read(8, webp.data(), webp.size()) &&
        std::memcmp(webp.data(), "WEBP", 4) == 0) {
        return sniffWebp(src);
    }
    if (startsWith(src, "\x76\x2F\x31\x01", 4)) {
        return sniffExr(src);
    }
    return {};
}

ImageHeader sniffImageHeader(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return {};
    }
    return sniffImageHeader(in);
}

}  // namespace tessera::app
