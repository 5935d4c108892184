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
constexpr int kMaxJpegSegments = 4096;
constexpr int kMaxJpegFill = 65536;
constexpr std::uint64_t kMaxTiffEntries = 4096;
constexpr int kMaxExrAttributes = 1024;
constexpr std::size_t kMaxExrName = 256;  // 255 characters plus the terminator with long names

// Random access into the stream; every read is bounds-checked by the stream itself, so a short
// read (past the end of a truncated file) simply reports failure.
class ByteSource {
public:
    explicit ByteSource(std::istream& in) : in_(in) {}

    std::size_t readSome(std::uint64_t offset, void* dst, std::size_t n) {
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

    bool u16(std::uint64_t offset, bool bigEndian, std::uint16_t& v) {
        std::array<std::uint8_t, 2> b{};
        if (!read(offset, b.data(), b.size())) {
            return false;
        }
        v = bigEndian ? static_cast<std::uint16_t>(b[0] << 8 | b[1])
                      : static_cast<std::uint16_t>(b[1] << 8 | b[0]);
        return true;
    }

    bool u32(std::uint64_t offset, bool bigEndian, std::uint32_t& v) { return unsignedN(offset, 4, bigEndian, v); }

    bool u64(std::uint64_t offset, bool bigEndian, std::uint64_t& v) { return unsignedN(offset, 8, bigEndian, v); }

    bool u24le(std::uint64_t offset, std::uint32_t& v) { return unsignedN(offset, 3, false, v); }

private:
    template <typename T>
    bool unsignedN(std::uint64_t offset, std::size_t n, bool bigEndian, T& v) {
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

int saturate(std::uint64_t v) {
    return v > static_cast<std::uint64_t>(INT_MAX) ? INT_MAX : static_cast<int>(v);
}

ImageHeader make(const char* format, std::uint64_t width, std::uint64_t height) {
    return ImageHeader{saturate(width), saturate(height), format};
}

bool startsWith(ByteSource& src, const char* magic, std::size_t n) {
    std::array<char, 8> b{};
    return n <= b.size() && src.read(0, b.data(), n) && std::memcmp(b.data(), magic, n) == 0;
}

ImageHeader sniffPng(ByteSource& src) {
    std::array<char, 4> type{};
    std::uint32_t w = 0;
    std::uint32_t h = 0;
    // The first chunk must be IHDR; width and height follow its type directly.
    if (!src.read(12, type.data(), type.size()) || std::memcmp(type.data(), "IHDR", 4) != 0 ||
        !src.u32(16, true, w) || !src.u32(20, true, h)) {
        return make("png", 0, 0);
    }
    return make("png", w, h);
}

bool isJpegFrameMarker(std::uint8_t m) {
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
}

ImageHeader sniffJpeg(ByteSource& src) {
    std::uint64_t pos = 2;
    for (int segment = 0; segment < kMaxJpegSegments; ++segment) {
        std::uint8_t byte = 0;
        if (!src.u8(pos, byte) || byte != 0xFF) {
            break;
        }
        // Any number of 0xFF fill bytes may precede a marker.
        std::uint8_t marker = 0xFF;
        for (int fill = 0; marker == 0xFF; ++fill) {
            if (fill > kMaxJpegFill || !src.u8(++pos, marker)) {
                return make("jpeg", 0, 0);
            }
        }
        ++pos;
        if (marker == 0x01 || marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7)) {
            continue;  // markers without a length field
        }
        if (marker == 0xD9 || marker == 0xDA) {
            break;  // end of image or start of scan: no frame header before the data
        }
        std::uint16_t length = 0;
        if (!src.u16(pos, true, length) || length < 2) {
            break;
        }
        if (isJpegFrameMarker(marker)) {
            std::uint16_t h = 0;
            std::uint16_t w = 0;
            if (!src.u16(pos + 3, true, h) || !src.u16(pos + 5, true, w)) {
                break;
            }
            return make("jpeg", w, h);
        }
        pos += length;
    }
    return make("jpeg", 0, 0);
}

ImageHeader sniffBmp(ByteSource& src) {
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

// Reads ImageWidth (256) and ImageLength (257) from the first IFD of a classic or BigTIFF file.
ImageHeader sniffTiff(ByteSource& src, bool bigEndian) {
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
        // The value is left-aligned in the entry's value field, whatever the byte order.
        std::uint64_t value = 0;
        bool ok = false;
        if (type == 3) {
            std::uint16_t v = 0;
            ok = src.u16(entry + valueAt, bigEndian, v);
            value = v;
        } else if (type == 4) {
            std::uint32_t v = 0;
            ok = src.u32(entry + valueAt, bigEndian, v);
            value = v;
        } else if (type == 16 && big) {
            ok = src.u64(entry + valueAt, bigEndian, value);
        }
        if (!ok) {
            break;
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

ImageHeader sniffWebp(ByteSource& src) {
    std::array<char, 4> chunk{};
    if (!src.read(12, chunk.data(), chunk.size())) {
        return make("webp", 0, 0);
    }
    if (std::memcmp(chunk.data(), "VP8 ", 4) == 0) {  // lossy: key frame header after a 3-byte tag
        std::array<std::uint8_t, 3> start{};
        std::uint16_t w = 0;
        std::uint16_t h = 0;
        if (src.read(23, start.data(), start.size()) && start[0] == 0x9D && start[1] == 0x01 &&
            start[2] == 0x2A && src.u16(26, false, w) && src.u16(28, false, h)) {
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
bool readExrString(ByteSource& src, std::uint64_t& pos, std::string& out) {
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
ImageHeader sniffExr(ByteSource& src) {
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
            const std::int64_t w = std::int64_t{static_cast<std::int32_t>(box[2])} - static_cast<std::int32_t>(box[0]) + 1;
            const std::int64_t h = std::int64_t{static_cast<std::int32_t>(box[3])} - static_cast<std::int32_t>(box[1]) + 1;
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

bool jpegIsComplete(std::istream& in) {
    in.clear();
    in.seekg(0, std::ios::beg);
    std::istreambuf_iterator<char> it(in);
    const std::istreambuf_iterator<char> end;
    const auto next = [&](int& byte) {
        if (it == end) {
            return false;
        }
        byte = static_cast<unsigned char>(*it);
        ++it;
        return true;
    };
    int a = 0;
    int b = 0;
    if (!next(a) || !next(b) || a != 0xFF || b != 0xD8) {
        return false;
    }
    int marker = -1;  // a marker met at the end of a scan, still to be handled
    for (;;) {
        if (marker < 0) {
            int byte = 0;
            if (!next(byte) || byte != 0xFF) {
                return false;
            }
            do {  // fill bytes
                if (!next(marker)) {
                    return false;
                }
            } while (marker == 0xFF);
        }
        const int m = std::exchange(marker, -1);
        if (m == 0xD9) {
            return true;
        }
        if (m == 0x01 || m == 0xD8 || (m >= 0xD0 && m <= 0xD7)) {
            continue;
        }
        int hi = 0;
        int lo = 0;
        if (!next(hi) || !next(lo) || (hi << 8 | lo) < 2) {
            return false;
        }
        for (int skip = (hi << 8 | lo) - 2; skip > 0; --skip) {
            int byte = 0;
            if (!next(byte)) {
                return false;
            }
        }
        if (m != 0xDA) {
            continue;
        }
        // Entropy-coded data: 0xFF 0x00 is a data byte, 0xFF 0xD0..0xD7 a restart; any other
        // marker ends the scan.
        for (;;) {
            int byte = 0;
            if (!next(byte)) {
                return false;
            }
            if (byte != 0xFF) {
                continue;
            }
            int after = 0xFF;
            while (after == 0xFF) {
                if (!next(after)) {
                    return false;
                }
            }
            if (after == 0x00 || (after >= 0xD0 && after <= 0xD7)) {
                continue;
            }
            marker = after;
            break;
        }
    }
}

ImageHeader sniffImageHeader(std::istream& in) {
    ByteSource src(in);
    if (startsWith(src, "\x89PNG\r\n\x1a\n", 8)) {
        return sniffPng(src);
    }
    if (startsWith(src, "\xFF\xD8\xFF", 3)) {
        return sniffJpeg(src);
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

ImageHeader sniffImageHeader(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return {};
    }
    return sniffImageHeader(in);
}

}  // namespace tessera::app
