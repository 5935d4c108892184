// SPDX-License-Identifier: Apache-2.0
// The BMP reader and writer against OpenCV's BMP codec: the same pixels for OpenCV's own files
// and for hand-made palette, 16-bit, 32-bit and top-down files; damaged headers are refused.
#include "test_jpeg_support.h"

#include <gtest/gtest.h>

namespace tessera::app::codec {
namespace {

using namespace testing;

void put32(std::vector<std::uint8_t>& out, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

/// A BMP with a 40-byte info header; extra (palette or masks) between header and pixels.
std::vector<std::uint8_t> makeBmp(int width, int height, int bpp, std::uint32_t compression,
                                  const std::vector<std::uint8_t>& extra, std::size_t pixelBytes, unsigned seed)
{
    std::vector<std::uint8_t> out = {'B', 'M'};
    const auto offset = static_cast<std::uint32_t>(14 + 40 + extra.size());
    put32(out, static_cast<std::uint32_t>(offset + pixelBytes));
    put32(out, 0);
    put32(out, offset);
    put32(out, 40);
    put32(out, static_cast<std::uint32_t>(width));
    put32(out, static_cast<std::uint32_t>(height));
    put32(out, 1u | static_cast<std::uint32_t>(bpp) << 16);
    put32(out, compression);
    for (int i = 0; i < 5; ++i)
        put32(out, 0);
    out.insert(out.end(), extra.begin(), extra.end());
    cv::RNG rng(seed);
    for (std::size_t i = 0; i < pixelBytes; ++i)
        out.push_back(static_cast<std::uint8_t>(rng.uniform(0, 256)));
    return out;
}

std::size_t strideOf(int width, int bpp)
{
    return ((static_cast<std::size_t>(width) * static_cast<std::size_t>(bpp) + 31) / 32) * 4;
}

TEST(Bmp, OpenCvFilesReadTheSameAndOurFilesMatchOpenCvs)
{
    const cv::Size sizes[] = {{1, 1}, {1, 9}, {13, 1}, {3, 5}, {101, 37}};
    for (const cv::Size size : sizes) {
        for (const int type : {CV_8UC1, CV_8UC3}) {
            const cv::Mat img = detailedImage(size.height, size.width, type);
            const auto theirs = cvEncode(".bmp", img);
            const Decoded d = readBmp(bytesOf(theirs), {});
            EXPECT_TRUE(samePixels(d.pixels, cvDecode(theirs))) << size << " type " << type;
            MetadataWritten written;
            const auto ours = writeBmp(img, nullptr, {}, written);
            EXPECT_EQ(ours, theirs) << size << " type " << type;
            EXPECT_TRUE(samePixels(readBmp(bytesOf(ours), {}).pixels, img));
        }
    }
}

TEST(Bmp, HandMadeLayoutsReadAsOpenCvReadsThem)
{
    std::vector<std::uint8_t> colourPalette, greyPalette;
    for (int i = 0; i < 256; ++i) {
        colourPalette.insert(colourPalette.end(), {static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(255 - i),
                                                   static_cast<std::uint8_t>(i * 7), 0});
        greyPalette.insert(greyPalette.end(), {static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(i),
                                               static_cast<std::uint8_t>(i), 0});
    }
    const std::vector<std::uint8_t> mask555 = {0, 0x7c, 0, 0, 0xe0, 0x03, 0, 0, 0x1f, 0, 0, 0};
    const std::vector<std::uint8_t> mask565 = {0, 0xf8, 0, 0, 0xe0, 0x07, 0, 0, 0x1f, 0, 0, 0};
    const std::vector<std::uint8_t> mask32 = {0, 0, 0xff, 0, 0, 0xff, 0, 0, 0xff, 0, 0, 0};
    struct Case {
        int bpp;
        std::uint32_t compression;
        std::vector<std::uint8_t> extra;
        int channels;
    };
    const Case cases[] = {
        {1, 0, {colourPalette.begin(), colourPalette.begin() + 8}, 3},
        {4, 0, {colourPalette.begin(), colourPalette.begin() + 64}, 3},
        {4, 0, {greyPalette.begin(), greyPalette.begin() + 64}, 1},
        {8, 0, colourPalette, 3},
        {8, 0, greyPalette, 1},
        {16, 0, {}, 3},
        {16, 3, mask555, 3},
        {16, 3, mask565, 3},
        {24, 0, {}, 3},
        {32, 0, {}, 3},
        {32, 3, mask32, 4},
    };
    for (const Case& c : cases) {
        for (const int height : {7, -7}) {
            const int width = 11;
            const auto file = makeBmp(width, height, c.bpp, c.compression, c.extra, strideOf(width, c.bpp) * 7,
                                      static_cast<unsigned>(c.bpp * 31 + height));
            const cv::Mat reference = cvDecode(file);
            const Decoded d = readBmp(bytesOf(file), {});
            EXPECT_EQ(d.pixels.channels(), c.channels) << c.bpp << " bits";
            EXPECT_TRUE(samePixels(d.pixels, reference))
                << c.bpp << " bits, compression " << c.compression << ", height " << height;
        }
    }
}

std::string errorOf(const std::vector<std::uint8_t>& file)
{
    try {
        readBmp(bytesOf(file), {});
    } catch (const CodecError& e) {
        return e.what();
    }
    return "no error";
}

TEST(Bmp, DamagedFilesAreRefusedWithAReason)
{
    const auto good = cvEncode(".bmp", detailedImage(10, 10, CV_8UC3));
    auto cut = good;
    cut.resize(good.size() - 5);
    EXPECT_EQ(errorOf(cut), "truncated BMP data: 10 x 10 pixels need 320 bytes of pixel data, the file has 315");
    auto farOffset = good;
    farOffset[12] = 0x7f;
    EXPECT_EQ(errorOf(farOffset).rfind("truncated BMP data", 0), 0u);
    auto rle = makeBmp(4, 4, 8, 1, std::vector<std::uint8_t>(1024, 0), 16, 1);
    EXPECT_EQ(errorOf(rle), "BMP with RLE compression is not supported; save it uncompressed");
    auto hugePalette = makeBmp(4, 4, 8, 0, {}, 16, 1);
    hugePalette[46] = 0xff;
    hugePalette[47] = 0xff;
    EXPECT_EQ(errorOf(hugePalette), "invalid BMP data: a palette of 65535 colours");
    EXPECT_EQ(errorOf({'B', 'M'}), "not a BMP file: it does not start with \"BM\" and a header");
    auto wide = good;
    wide[18] = 0xff;
    wide[19] = 0xff;
    wide[20] = 0x00;
    EXPECT_NE(errorOf(wide), "no error");
}

TEST(Bmp, WriterRefusesWhatItCannotHoldAndNamesDroppedMetadata)
{
    MetadataWritten written;
    EXPECT_THROW(writeBmp(cv::Mat(2, 2, CV_8UC4, cv::Scalar::all(1)), nullptr, {}, written), CodecError);
    EXPECT_THROW(writeBmp(cv::Mat(2, 2, CV_16UC1, cv::Scalar::all(1)), nullptr, {}, written), CodecError);
    ImageMetadata m;
    m.exif = "II*\0";
    m.icc = "p";
    writeBmp(cv::Mat(2, 2, CV_8UC1, cv::Scalar::all(1)), &m, {}, written);
    EXPECT_EQ(written.dropped,
              (std::vector<std::string>{"EXIF: BMP has no place for it", "ICC profile: BMP has no place for it"}));
}

}  // namespace
}  // namespace tessera::app::codec
