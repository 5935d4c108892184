// SPDX-License-Identifier: Apache-2.0
// The TIFF codec: pixels as OpenCV's reader gave them, every depth and channel count written and
// read back, EXIF (a large one included), XMP, ICC and IPTC carried and read by an outside reader.

#include "app/io/codec/codec.h"
#include "png_tiff_test_support.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>

namespace tessera::app::codec {
namespace {

using namespace test_support;

std::span<const std::uint8_t> view(const std::vector<std::uint8_t>& bytes)
{
    return {bytes.data(), bytes.size()};
}

TEST(TiffCodec, ReadsWhatOpenCvWroteAsOpenCvReadsIt)
{
    for (const int type : {CV_8UC1, CV_8UC3, CV_16UC1, CV_16UC3, CV_16UC4, CV_32FC1, CV_32FC3}) {
        for (const cv::Size size : {cv::Size(1, 1), cv::Size(37, 5), cv::Size(3, 70)}) {
            const cv::Mat img = pattern(size.height, size.width, type);
            for (const int compression : {1, 5}) {
                const std::vector<std::uint8_t> file =
                    encodeWithOpenCv(".tif", img, {cv::IMWRITE_TIFF_COMPRESSION, compression});
                ASSERT_FALSE(file.empty());
                const Decoded got = readTiff(view(file), {});
                const cv::Mat want = decodeWithOpenCv(file);
                EXPECT_TRUE(samePixels(got.pixels, want)) << "type " << type << " size " << size;
                EXPECT_FALSE(got.upright);
            }
        }
    }
}

TEST(TiffCodec, EveryDepthAndChannelCountRoundTripsUnderEachCompression)
{
    using C = EncodeOptions::TiffCompression;
    for (const int type : {CV_8UC1, CV_8UC3, CV_8UC4, CV_16UC1, CV_16UC3, CV_16UC4, CV_32FC1, CV_32FC3, CV_32FC4}) {
        for (const C compression : {C::None, C::Lzw, C::Deflate}) {
            const cv::Mat img = pattern(33, 47, type);
            EncodeOptions options;
            options.tiffCompression = compression;
            MetadataWritten written;
            const std::vector<std::uint8_t> file = writeTiff(img, nullptr, options, written);
            EXPECT_TRUE(samePixels(readTiff(view(file), {}).pixels, img)) << type;
            // OpenCV reads it too (and sees the same pixels, where it reads alpha as given).
            if (CV_MAT_CN(type) != 4) {
                EXPECT_TRUE(samePixels(decodeWithOpenCv(file), img)) << type;
            }
        }
    }
}

TEST(TiffCodec, DamagedFilesGiveOneLineReasons)
{
    const std::vector<std::uint8_t> good = encodeWithOpenCv(".tif", pattern(64, 64, CV_8UC3));
    const std::vector<std::uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2));
    try {
        readTiff(view(cut), {});
        FAIL() << "a cut TIFF was read";
    } catch (const CodecError& e) {
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("TIFF"), std::string::npos) << e.what();
    }
    const std::vector<std::uint8_t> junk{'I', 'I', 42, 0, 0xff, 0xff, 0xff, 0x7f};
    EXPECT_THROW(readTiff(view(junk), {}), CodecError);
    DecodeBudget small;
    small.maxWidth = 32;
    EXPECT_THROW(readTiff(view(good), small), CodecError);
}

TEST(TiffCodec, MetadataTravelsWholeAndALargeExifSurvives)
{
    ImageMetadata m;
    m.exif = tinyExif(70000);  // a 70 KB UserComment: past what a JPEG segment holds
    m.xmp = kXmp;
    m.icc = tessera::test::fakeIccProfile();
    m.iptc = tinyIptc();
    MetadataWritten written;
    const std::vector<std::uint8_t> file = writeTiff(pattern(20, 30, CV_8UC3), &m, {}, written);
    EXPECT_TRUE(written.dropped.empty()) << written.dropped.front();
    const ImageMetadata back = readTiffMetadata(view(file));
    EXPECT_EQ(back.xmp, m.xmp);
    EXPECT_EQ(back.icc, m.icc);
    EXPECT_EQ(back.iptc, m.iptc);
    ASSERT_FALSE(back.exif.empty());
    // The user comment comes back whole inside the rebuilt block.
    EXPECT_NE(back.exif.find(m.exif.substr(m.exif.size() - 70000)), std::string::npos);
    EXPECT_GT(back.exif.size(), 70000u);
    EXPECT_NE(back.exif.find("Tessera"), std::string::npos);
    if (!haveProgram("exiv2")) {
        GTEST_SKIP() << "Debian's exiv2 program is not installed";
    }
    const std::string path = tempPath("tagged.tif");
    writeFile(path, file);
    const std::string listing = commandOutput("exiv2 -pa '" + path + "' 2>/dev/null | cut -c1-60");
    EXPECT_NE(listing.find("Exif.Image.Make"), std::string::npos);
    EXPECT_NE(listing.find("Exif.Photo.UserComment"), std::string::npos);
    EXPECT_NE(listing.find("Xmp."), std::string::npos);
    EXPECT_NE(listing.find("Iptc."), std::string::npos) << listing.substr(0, 2000);
    std::remove(path.c_str());
}

}  // namespace
}  // namespace tessera::app::codec
