// SPDX-License-Identifier: Apache-2.0
#include "app/io/image_header.h"
#include "app/io/image_io.h"
#include "image_io_test_support.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

// The header sniffer: the dimensions and format it reads from each format's header, by hand-built
// headers too, and damaged headers that must never break it.
using namespace tessera::test::image_io;

TEST(ImageIoSniff, ReadsDimensionsOfEveryFormat)
{
    TempDir dir;
    const cv::Mat u8 = randomImage(CV_8U, 3);
    const cv::Mat f32 = randomImage(CV_32F, 3);
    const std::vector<std::pair<std::string, std::string>> files{
        {"s.png", "png"}, {"s.jpg", "jpeg"}, {"s.tif", "tiff"}, {"s.bmp", "bmp"}, {"s.webp", "webp"}, {"s.exr", "exr"}};
    for (const auto& [name, format] : files) {
        tessera::app::writeImage(dir.file(name), name == "s.exr" ? f32 : u8);
        const auto h = tessera::app::sniffImageHeader(dir.file(name));
        EXPECT_EQ(h.format, format) << name;
        EXPECT_EQ(h.width, 37) << name;
        EXPECT_EQ(h.height, 23) << name;
    }
    ASSERT_TRUE(cv::imwrite(dir.file("lossy.webp"), u8, {cv::IMWRITE_WEBP_QUALITY, 80}));  // VP8 chunk
    EXPECT_EQ(tessera::app::sniffImageHeader(dir.file("lossy.webp")).width, 37);
    EXPECT_EQ(tessera::app::sniffImageHeader(dir.file("lossy.webp")).height, 23);

    // JPEG with an extra APP1 segment and fill bytes before the frame header.
    Bytes jpeg = readBytes(dir.file("s.jpg"));
    jpeg.insert(jpeg.begin() + 2, {0xFF, 0xE1, 0x00, 0x06, 'E', 'x', 'i', 'f', 0xFF, 0xFF});
    writeBytes(dir.file("app1.jpg"), jpeg);
    EXPECT_EQ(tessera::app::sniffImageHeader(dir.file("app1.jpg")).width, 37);

    // Top-down BMP: negative height.
    Bytes bmp = readBytes(dir.file("s.bmp"));
    const std::int32_t minus = -23;
    std::memcpy(bmp.data() + 22, &minus, 4);
    writeBytes(dir.file("down.bmp"), bmp);
    EXPECT_EQ(tessera::app::sniffImageHeader(dir.file("down.bmp")).height, 23);
}

TEST(ImageIoSniff, HandBuiltHeaders)
{
    TempDir dir;
    const auto sniff = [&](const Bytes& bytes) {
        writeBytes(dir.file("h.bin"), bytes);
        return tessera::app::sniffImageHeader(dir.file("h.bin"));
    };
    // Big-endian TIFF: ImageWidth as SHORT, ImageLength as LONG.
    auto h = sniff({'M', 'M', 0, 42, 0, 0, 0, 8, 0,    2,              //
                    1,   0,   0, 3,  0, 0, 0, 1, 0x01, 0x2C, 0,    0,  //
                    1,   1,   0, 4,  0, 0, 0, 1, 0,    1,    0x86, 0xA0});
    EXPECT_EQ(h.format, "tiff");
    EXPECT_EQ(h.width, 300);
    EXPECT_EQ(h.height, 100000);
    // Little-endian BigTIFF with LONG8 sizes.
    h = sniff({'I', 'I', 43, 0, 8, 0, 0, 0, 16, 0, 0, 0, 0,    0,    0, 0, 2, 0, 0, 0, 0, 0, 0, 0,  //
               0,   1,   16, 0, 1, 0, 0, 0, 0,  0, 0, 0, 0x40, 0x1F, 0, 0, 0, 0, 0, 0,              //
               1,   1,   3,  0, 1, 0, 0, 0, 0,  0, 0, 0, 5,    0,    0, 0, 0, 0, 0, 0});
    EXPECT_EQ(h.width, 8000);
    EXPECT_EQ(h.height, 5);
    // Extended WebP: 24-bit canvas sizes minus one.
    h = sniff({'R',  'I', 'F', 'F', 30,   0,    0,    0,    'W',  'E', 'B', 'P', 'V', 'P', '8', 'X', 10, 0, 0, 0,  //
               0x10, 0,   0,   0,   0x9F, 0x86, 0x01, 0xFF, 0x00, 0x00});
    EXPECT_EQ(h.format, "webp");
    EXPECT_EQ(h.width, 100000);
    EXPECT_EQ(h.height, 256);
    // A PNG header past int's range saturates so the limits still refuse it.
    h = sniff(makePng(0xFFFFFFF0u, 3, 0, 8, {}));
    EXPECT_EQ(h.width, INT_MAX);
    EXPECT_EQ(h.height, 3);
    // Unknown or missing files give an empty header.
    EXPECT_TRUE(sniff({'h', 'e', 'l', 'l', 'o'}).format.empty());
    EXPECT_TRUE(tessera::app::sniffImageHeader(dir.file("missing.png")).format.empty());
}

// Sniffs in memory through the stream overload, so thousands of variants stay cheap.
tessera::app::ImageHeader sniffBytes(const Bytes& bytes)
{
    std::istringstream in(std::string(bytes.begin(), bytes.end()), std::ios::binary);
    return tessera::app::sniffImageHeader(in);
}

TEST(ImageIoSniff, DamagedHeadersNeverBreakTheSniffer)
{
    TempDir dir;
    std::vector<Bytes> samples;
    for (const char* name : {"d.png", "d.jpg", "d.tif", "d.bmp", "d.webp"}) {
        tessera::app::writeImage(dir.file(name), randomImage(CV_8U, 3));
        samples.push_back(readBytes(dir.file(name)));
    }
    tessera::app::writeImage(dir.file("d.exr"), randomImage(CV_32F, 1));
    samples.push_back(readBytes(dir.file("d.exr")));
    std::mt19937 rng(12345);
    for (const Bytes& full : samples) {
        EXPECT_EQ(sniffBytes(full).width, 37);
        for (std::size_t n = 0; n <= std::min<std::size_t>(full.size(), 400); ++n) {
            const auto h = sniffBytes(Bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n)));
            EXPECT_GE(h.width, 0);
            EXPECT_GE(h.height, 0);
        }
        for (int trial = 0; trial < 2000; ++trial) {
            Bytes bad = full;
            for (int k = 0; k < 4; ++k) {
                bad[4 + rng() % std::min<std::size_t>(bad.size() - 4, 300)] = static_cast<std::uint8_t>(rng());
            }
            const auto h = sniffBytes(bad);
            EXPECT_GE(h.width, 0);
            EXPECT_GE(h.height, 0);
        }
    }
}
