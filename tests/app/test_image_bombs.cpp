// SPDX-License-Identifier: Apache-2.0
// Hostile image headers: every legal spelling of the dimensions is read before decoding, what
// cannot be read is refused, and a JPEG's scan count is bounded.
#include "app/io/image_header.h"
#include "app/io/image_io.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>

namespace fs = std::filesystem;
using tessera::app::ImageError;
using Bytes = std::vector<std::uint8_t>;

namespace {

class BombDir {
public:
    BombDir()
    {
        std::random_device rd;
        path_ = fs::temp_directory_path() / ("tessera-bombs-" + std::to_string(rd()) + std::to_string(rd()));
        fs::create_directories(path_);
    }
    ~BombDir()
    {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    BombDir(const BombDir&) = delete;
    BombDir& operator=(const BombDir&) = delete;

    std::string write(const std::string& name, const Bytes& bytes) const
    {
        const std::string path = (path_ / name).string();
        std::ofstream out(path, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        return path;
    }

private:
    fs::path path_;
};

tessera::app::ImageHeader sniff(const Bytes& bytes)
{
    std::istringstream in(std::string(bytes.begin(), bytes.end()), std::ios::binary);
    return tessera::app::sniffImageHeader(in);
}

long peakRssKiB()
{
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// Reads path expecting an ImageError naming it and holding every fragment, and checks that the
// refusal did not raise the process's peak memory by anything like a decoded bomb.
void expectRefusedCheaply(const std::string& path, const std::vector<std::string>& fragments)
{
    const long before = peakRssKiB();
    try {
        tessera::app::readImage(path);
        ADD_FAILURE() << "no ImageError for " << path;
    } catch (const ImageError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(path), std::string::npos) << what;
        for (const std::string& f : fragments) {
            EXPECT_NE(what.find(f), std::string::npos) << "'" << f << "' missing from: " << what;
        }
    }
    EXPECT_LT(peakRssKiB() - before, 64 * 1024) << "the refusal allocated a decoded image's worth of memory";
}

void put(Bytes& b, std::uint64_t v, int bytes, bool bigEndian)
{
    for (int i = 0; i < bytes; ++i) {
        const int shift = 8 * (bigEndian ? bytes - 1 - i : i);
        b.push_back(static_cast<std::uint8_t>(v >> shift));
    }
}

struct TiffEntry {
    std::uint16_t tag;
    std::uint16_t type;
    std::uint64_t value;
};

int typeSize(std::uint16_t type)
{
    switch (type) {
    case 1:
    case 6: return 1;
    case 3:
    case 8: return 2;
    case 16:
    case 17:
    case 18: return 8;
    default: return 4;
    }
}

// A classic TIFF with one IFD of single-valued entries; a value too wide for the 4-byte field
// (LONG8) is stored after the IFD and the field holds its offset.
Bytes makeTiff(bool bigEndian, const std::vector<TiffEntry>& entries)
{
    Bytes b;
    b.push_back(bigEndian ? 'M' : 'I');
    b.push_back(bigEndian ? 'M' : 'I');
    put(b, 42, 2, bigEndian);
    put(b, 8, 4, bigEndian);
    put(b, entries.size(), 2, bigEndian);
    std::uint32_t extra = static_cast<std::uint32_t>(8 + 2 + 12 * entries.size() + 4);
    Bytes tail;
    for (const TiffEntry& e : entries) {
        put(b, e.tag, 2, bigEndian);
        put(b, e.type, 2, bigEndian);
        put(b, 1, 4, bigEndian);
        const int size = typeSize(e.type);
        if (size > 4) {
            put(b, extra, 4, bigEndian);
            put(tail, e.value, size, bigEndian);
            extra += static_cast<std::uint32_t>(size);
        } else {
            put(b, e.value, size, bigEndian);  // left-aligned in the value field
            for (int pad = size; pad < 4; ++pad) {
                b.push_back(0);
            }
        }
    }
    put(b, 0, 4, bigEndian);  // no next IFD
    b.insert(b.end(), tail.begin(), tail.end());
    return b;
}

// An 8-bit grey uncompressed TIFF claiming width x height, its size tags of the given type.
Bytes tiffBomb(bool bigEndian, std::uint16_t sizeType, std::uint32_t width, std::uint32_t height)
{
    const std::uint64_t bytes = std::uint64_t{width} * height;
    return makeTiff(bigEndian, {{256, sizeType, width},
                                {257, sizeType, height},
                                {258, 3, 8},
                                {259, 3, 1},
                                {262, 3, 1},
                                {273, 4, 200},
                                {277, 3, 1},
                                {278, sizeType, height},
                                {279, 4, bytes}});
}

Bytes encodeJpeg(const cv::Mat& img, bool progressive)
{
    std::vector<uchar> encoded;
    EXPECT_TRUE(cv::imencode(".jpg", img, encoded,
                             {cv::IMWRITE_JPEG_QUALITY, 90, cv::IMWRITE_JPEG_PROGRESSIVE, progressive ? 1 : 0}));
    return Bytes(encoded.begin(), encoded.end());
}

std::size_t findMarker(const Bytes& jpeg, std::uint8_t marker)
{
    for (std::size_t i = 2; i + 1 < jpeg.size(); ++i) {
        if (jpeg[i] == 0xFF && jpeg[i + 1] == marker) {
            return i;
        }
    }
    ADD_FAILURE() << "no marker " << int(marker);
    return 0;
}

// A real JPEG whose frame header is rewritten to claim width x height, with junk bytes inserted
// just before the frame marker.
Bytes jpegBomb(std::uint16_t width, std::uint16_t height, const Bytes& junk)
{
    Bytes jpeg = encodeJpeg(cv::Mat(8, 8, CV_8UC1, cv::Scalar(128)), false);
    const std::size_t sof = findMarker(jpeg, 0xC0);
    jpeg[sof + 5] = static_cast<std::uint8_t>(height >> 8);
    jpeg[sof + 6] = static_cast<std::uint8_t>(height);
    jpeg[sof + 7] = static_cast<std::uint8_t>(width >> 8);
    jpeg[sof + 8] = static_cast<std::uint8_t>(width);
    jpeg.insert(jpeg.begin() + static_cast<std::ptrdiff_t>(sof), junk.begin(), junk.end());
    return jpeg;
}

}  // namespace

// Every integer type libtiff accepts for ImageWidth and ImageLength, in both byte orders.
TEST(ImageBombs, TiffSizesOfEveryIntegerType)
{
    for (const bool bigEndian : {false, true}) {
        for (const std::uint16_t type : {3, 4, 8, 9, 13, 16, 17, 18}) {
            const auto h = sniff(makeTiff(bigEndian, {{256, type, 300}, {257, type, 200}}));
            EXPECT_EQ(h.format, "tiff");
            EXPECT_EQ(h.width, 300) << "type " << type << (bigEndian ? " MM" : " II");
            EXPECT_EQ(h.height, 200) << "type " << type << (bigEndian ? " MM" : " II");
        }
        for (const std::uint16_t type : {1, 6}) {
            const auto h = sniff(makeTiff(bigEndian, {{256, type, 30}, {257, type, 20}}));
            EXPECT_EQ(h.width, 30) << "type " << type;
            EXPECT_EQ(h.height, 20) << "type " << type;
        }
        // A negative signed size, or a type that is no integer (RATIONAL), gives no size.
        EXPECT_EQ(sniff(makeTiff(bigEndian, {{256, 9, 0xFFFFFF00u}, {257, 9, 20}})).width, 0);
        EXPECT_EQ(sniff(makeTiff(bigEndian, {{256, 5, 30}, {257, 3, 20}})).width, 0);
    }
}

TEST(ImageBombs, SlongTiffBombIsRefusedBeforeDecoding)
{
    BombDir dir;
    for (const bool bigEndian : {false, true}) {
        const std::string path =
            dir.write(bigEndian ? "bomb-mm.tif" : "bomb-ii.tif", tiffBomb(bigEndian, 9, 40000, 26000));
        expectRefusedCheaply(path, {"40000 x 26000", "exceeds the limit"});
    }
}

TEST(ImageBombs, TiffWhoseSizeCannotBeReadIsRefused)
{
    BombDir dir;
    // Width as a RATIONAL: not a size the sniffer (or libtiff) reads as an integer.
    Bytes tiff = makeTiff(false, {{256, 5, 8}, {257, 3, 8}, {258, 3, 8}, {262, 3, 1}, {273, 4, 8}, {279, 4, 64}});
    const std::string path = dir.write("rational.tif", tiff);
    expectRefusedCheaply(path, {"TIFF", "cannot read the image size"});
}

// libjpeg skips bytes that are not 0xFF before a marker, and 0xFF fill bytes; the sniffer walks
// the same way so the frame header it finds is the one the decoder uses.
TEST(ImageBombs, JpegMarkerWalkSkipsJunkFillAndStandaloneMarkers)
{
    const std::vector<Bytes> spellings{
        {},           {0x00},       {0x12, 0x34, 0x56}, {0xFF, 0xFF, 0xFF}, {0x00, 0xFF, 0xFF},
        {0xFF, 0x00}, {0xFF, 0xD0}, {0xFF, 0x01, 0x77}};
    for (const Bytes& junk : spellings) {
        const auto h = sniff(jpegBomb(1234, 567, junk));
        EXPECT_EQ(h.format, "jpeg");
        EXPECT_EQ(h.width, 1234) << junk.size() << " junk bytes";
        EXPECT_EQ(h.height, 567) << junk.size() << " junk bytes";
    }
}

TEST(ImageBombs, JpegWithJunkBeforeItsFrameIsRefusedBeforeDecoding)
{
    BombDir dir;
    const Bytes bomb = jpegBomb(65000, 16000, {0x00});
    EXPECT_LT(bomb.size(), 400u);
    const std::string path = dir.write("junk.jpg", bomb);
    expectRefusedCheaply(path, {"65000 x 16000", "exceeds the limit"});
}

TEST(ImageBombs, JpegWithoutAReadableFrameIsRefused)
{
    BombDir dir;
    Bytes jpeg = encodeJpeg(cv::Mat(8, 8, CV_8UC1, cv::Scalar(10)), false);
    const std::size_t sof = findMarker(jpeg, 0xC0);
    jpeg[sof + 5] = 0;  // height 0: libjpeg would wait for a DNL marker
    jpeg[sof + 6] = 0;
    const std::string path = dir.write("zero.jpg", jpeg);
    expectRefusedCheaply(path, {"JPEG", "cannot read the image size"});
}

// libjpeg refuses a scan before the frame header: the sniffer and the walk stop there too, so a
// frame header after it (which the decoder never reads) gives no size, and the file is refused.
// Found by fuzz_image_header (tests/fuzz/regressions/fuzz_image_header/scan-before-frame.jpg).
TEST(ImageBombs, JpegScanBeforeTheFrameGivesNoSize)
{
    const Bytes jpeg = encodeJpeg(cv::Mat(8, 8, CV_8UC1, cv::Scalar(10)), false);
    const std::size_t sos = findMarker(jpeg, 0xDA);
    const std::size_t sosLength = std::size_t{jpeg[sos + 2]} << 8 | jpeg[sos + 3];
    Bytes early = jpeg;
    early.insert(early.begin() + static_cast<std::ptrdiff_t>(findMarker(jpeg, 0xC0)),
                 jpeg.begin() + static_cast<std::ptrdiff_t>(sos),
                 jpeg.begin() + static_cast<std::ptrdiff_t>(sos + 2 + sosLength));
    EXPECT_EQ(sniff(early).width, 0);
    std::istringstream in(std::string(early.begin(), early.end()), std::ios::binary);
    const tessera::app::JpegLayout layout = tessera::app::walkJpeg(in, 1000);
    EXPECT_EQ(layout.width, 0);
    EXPECT_FALSE(layout.complete);
    BombDir dir;
    const std::string path = dir.write("early-scan.jpg", early);
    expectRefusedCheaply(path, {"JPEG"});
}

// Empty scans cost the decoder a pass over the whole image each: a file of thousands is refused
// by counting them, while an ordinary progressive JPEG still reads.
TEST(ImageBombs, JpegWithThousandsOfScansIsRefused)
{
    BombDir dir;
    const cv::Mat img(64, 48, CV_8UC3, cv::Scalar(20, 90, 200));
    const Bytes progressive = encodeJpeg(img, true);
    const std::string good = dir.write("good.jpg", progressive);
    EXPECT_EQ(tessera::app::readImage(good).size(), img.size());

    // The last scan's header, repeated with no data before the end-of-image marker.
    std::size_t lastSos = 0;
    for (std::size_t i = 2; i + 1 < progressive.size(); ++i) {
        if (progressive[i] == 0xFF && progressive[i + 1] == 0xDA) {
            lastSos = i;
        }
    }
    ASSERT_GT(lastSos, 0u);
    const std::size_t sosLength = std::size_t{progressive[lastSos + 2]} << 8 | progressive[lastSos + 3];
    const Bytes sos(progressive.begin() + static_cast<std::ptrdiff_t>(lastSos),
                    progressive.begin() + static_cast<std::ptrdiff_t>(lastSos + 2 + sosLength));
    Bytes bomb(progressive.begin(), progressive.end() - 2);
    for (int i = 0; i < 5000; ++i) {
        bomb.insert(bomb.end(), sos.begin(), sos.end());
    }
    bomb.insert(bomb.end(), {0xFF, 0xD9});
    const std::string path = dir.write("scans.jpg", bomb);
    expectRefusedCheaply(path, {"more than 1000 scans"});

    std::istringstream in(std::string(bomb.begin(), bomb.end()), std::ios::binary);
    EXPECT_EQ(tessera::app::walkJpeg(in, 1000).scans, 1001);

    // The limit is part of ImageLimits.
    tessera::app::ImageLimits few;
    few.maxJpegScans = 2;
    EXPECT_THROW(tessera::app::readImage(good, few), ImageError);
}
