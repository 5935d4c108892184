// SPDX-License-Identifier: Apache-2.0
// The PNG reader against OpenCV's decode of the same files, the writer's round trips and
// metadata placement, and the messages of damaged files.
#include "app/io/codec/codec.h"
#include "tests/app/codec/png_tiff_test_support.h"

#include <gtest/gtest.h>
#include <png.h>

#include <cstring>

namespace tessera::app::codec {
namespace {

using namespace test_support;

/// A PNG made by libpng directly, for the kinds the writers do not produce: palette, low bit
/// depths, tRNS, interlacing.
struct RawPng {
    int width = 13;
    int height = 7;
    int bitDepth = 8;
    int colorType = PNG_COLOR_TYPE_GRAY;
    bool interlaced = false;
    bool trns = false;
    bool gamma = false;
};

void appendBytes(png_structp png, png_bytep data, std::size_t length)
{
    auto* out = static_cast<std::vector<std::uint8_t>*>(png_get_io_ptr(png));
    out->insert(out->end(), data, data + length);
}

std::vector<std::uint8_t> makePng(const RawPng& spec)
{
    std::vector<std::uint8_t> out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png)) != 0) {
        png_destroy_write_struct(&png, &info);
        ADD_FAILURE() << "libpng failed making a test file";
        return {};
    }
    png_set_write_fn(png, &out, appendBytes, nullptr);
    png_set_IHDR(png, info, spec.width, spec.height, spec.bitDepth, spec.colorType,
                 spec.interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    const int maxValue = (1 << spec.bitDepth) - 1;
    if (spec.colorType == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[256];
        for (int i = 0; i < 256; ++i) {
            palette[i] = {static_cast<png_byte>(i * 3), static_cast<png_byte>(255 - i), static_cast<png_byte>(i * 7)};
        }
        png_set_PLTE(png, info, palette, maxValue + 1);
        if (spec.trns) {
            png_byte alpha[4] = {0, 64, 128, 200};
            png_set_tRNS(png, info, alpha, 4, nullptr);
        }
    } else if (spec.trns) {
        png_color_16 colour{};
        colour.gray = 1;
        colour.red = 3;
        colour.green = 4;
        colour.blue = 5;
        png_set_tRNS(png, info, nullptr, 0, &colour);
    }
    if (spec.gamma) {
        png_set_gAMA(png, info, 1.0 / 1.8);
    }
    png_write_info(png, info);
    const int passes = png_set_interlace_handling(png);
    const int channels = png_get_channels(png, info);
    const std::size_t rowBytes = png_get_rowbytes(png, info);
    std::vector<std::vector<png_byte>> rows(spec.height, std::vector<png_byte>(rowBytes));
    for (int y = 0; y < spec.height; ++y) {
        for (std::size_t i = 0; i < rowBytes; ++i) {
            rows[y][i] = static_cast<png_byte>((i * 29 + y * 53 + i * y) & 0xff);
        }
    }
    (void)channels;
    for (int pass = 0; pass < passes; ++pass) {
        for (int y = 0; y < spec.height; ++y) {
            png_write_row(png, rows[y].data());
        }
    }
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    return out;
}

std::string describe(const RawPng& s)
{
    return "type " + std::to_string(s.colorType) + " depth " + std::to_string(s.bitDepth) + " " +
           std::to_string(s.width) + "x" + std::to_string(s.height) + (s.interlaced ? " interlaced" : "") +
           (s.trns ? " tRNS" : "") + (s.gamma ? " gAMA" : "");
}

TEST(PngRead, MatchesOpenCvOnFilesOpenCvWrites)
{
    for (const cv::Size size : {cv::Size(1, 1), cv::Size(1, 9), cv::Size(9, 1), cv::Size(33, 17)}) {
        for (const int depth : {CV_8U, CV_16U}) {
            for (const int cn : {1, 3, 4}) {
                const cv::Mat img = pattern(size.height, size.width, CV_MAKETYPE(depth, cn));
                const auto bytes = encodeWithOpenCv(".png", img);
                ASSERT_FALSE(bytes.empty());
                const Decoded d = readPng(bytes, DecodeBudget{});
                EXPECT_TRUE(samePixels(d.pixels, decodeWithOpenCv(bytes)))
                    << size << " depth " << depth << " cn " << cn;
                EXPECT_TRUE(samePixels(d.pixels, img));
                EXPECT_FALSE(d.upright);
            }
        }
    }
}

TEST(PngRead, MatchesOpenCvOnPaletteLowDepthTransparencyAndInterlace)
{
    std::vector<RawPng> specs;
    for (const int depth : {1, 2, 4, 8, 16}) {
        for (const bool interlaced : {false, true}) {
            specs.push_back({13, 7, depth, PNG_COLOR_TYPE_GRAY, interlaced, false, false});
            specs.push_back({13, 7, depth, PNG_COLOR_TYPE_GRAY, interlaced, true, false});
            if (depth <= 8) {
                specs.push_back({13, 7, depth, PNG_COLOR_TYPE_PALETTE, interlaced, false, false});
                specs.push_back({13, 7, depth, PNG_COLOR_TYPE_PALETTE, interlaced, true, false});
            }
            if (depth >= 8) {
                specs.push_back({5, 11, depth, PNG_COLOR_TYPE_RGB, interlaced, true, true});
                specs.push_back({5, 11, depth, PNG_COLOR_TYPE_RGB_ALPHA, interlaced, false, true});
                specs.push_back({1, 3, depth, PNG_COLOR_TYPE_RGB, interlaced, false, false});
            }
        }
    }
    for (const RawPng& spec : specs) {
        const auto bytes = makePng(spec);
        const Decoded d = readPng(bytes, DecodeBudget{});
        const cv::Mat reference = decodeWithOpenCv(bytes);
        EXPECT_TRUE(samePixels(d.pixels, reference)) << describe(spec);
    }
}

TEST(PngRead, GreyWithAlphaStaysTwoChannelsWhereOpenCvGivesFour)
{
    for (const int depth : {8, 16}) {
        const RawPng spec{6, 4, depth, PNG_COLOR_TYPE_GRAY_ALPHA, false, false, false};
        const auto bytes = makePng(spec);
        const Decoded d = readPng(bytes, DecodeBudget{});
        ASSERT_EQ(d.pixels.channels(), 2);
        const cv::Mat reference = decodeWithOpenCv(bytes);
        ASSERT_EQ(reference.channels(), 4);
        std::vector<cv::Mat> ours;
        std::vector<cv::Mat> theirs;
        cv::split(d.pixels, ours);
        cv::split(reference, theirs);
        EXPECT_TRUE(samePixels(ours[0], theirs[0]));
        EXPECT_TRUE(samePixels(ours[0], theirs[2]));
        EXPECT_TRUE(samePixels(ours[1], theirs[3]));
    }
}

TEST(PngWrite, RoundTripsEveryDepthAndChannelCount)
{
    for (const int depth : {CV_8U, CV_16U}) {
        for (const int cn : {1, 2, 3, 4}) {
            const cv::Mat img = pattern(9, 14, CV_MAKETYPE(depth, cn));
            MetadataWritten written;
            EncodeOptions options;
            options.pngCompression = cn;  // any level must round trip
            const auto bytes = writePng(img, nullptr, options, written);
            EXPECT_TRUE(samePixels(readPng(bytes, DecodeBudget{}).pixels, img)) << depth << " " << cn;
            if (cn != 2) {
                EXPECT_TRUE(samePixels(decodeWithOpenCv(bytes), img));
            }
            EXPECT_TRUE(written.dropped.empty());
        }
    }
}

TEST(PngWrite, RefusesWhatPngCannotHold)
{
    MetadataWritten written;
    EXPECT_THROW(writePng(cv::Mat(4, 4, CV_32FC1, 0.5f), nullptr, EncodeOptions{}, written), CodecError);
    EXPECT_THROW(writePng(cv::Mat(4, 4, CV_8UC(5)), nullptr, EncodeOptions{}, written), CodecError);
    EXPECT_THROW(writePng(cv::Mat(), nullptr, EncodeOptions{}, written), CodecError);
}

TEST(PngMetadata, EveryPartIsPlacedAndReadBack)
{
    ImageMetadata metadata;
    metadata.icc = tessera::test::fakeIccProfile();
    metadata.exif = tinyExif();
    metadata.xmp = kXmp;
    metadata.iptc = tinyIptc();
    MetadataWritten written;
    const cv::Mat img = pattern(5, 6, CV_8UC3);
    const auto bytes = writePng(img, &metadata, EncodeOptions{}, written);
    EXPECT_TRUE(written.dropped.empty()) << written.dropped.front();
    EXPECT_EQ(written.parts.icc, metadata.icc);
    EXPECT_EQ(written.parts.exif, metadata.exif);
    EXPECT_EQ(written.parts.xmp, metadata.xmp);
    EXPECT_EQ(written.parts.iptc, metadata.iptc);
    // libpng's reader turns this small test profile down ("iCCP: too short", as cv::imread's
    // libpng does too), so the profile is checked as written: the iCCP chunk inflates to it.
    const Decoded d = readPng(bytes, DecodeBudget{});
    EXPECT_EQ(d.metadata.exif, metadata.exif);
    EXPECT_EQ(d.metadata.xmp, metadata.xmp);
    EXPECT_EQ(d.metadata.iptc, metadata.iptc);
    const ImageMetadata alone = readPngMetadata(bytes);
    EXPECT_EQ(alone.exif, metadata.exif);
    EXPECT_EQ(alone.xmp, metadata.xmp);
    EXPECT_EQ(alone.iptc, metadata.iptc);
    // Everything sits before the image data, the XMP in an uncompressed iTXt.
    const std::string text(bytes.begin(), bytes.end());
    const auto idat = text.find("IDAT");
    for (const char* chunk : {"iCCPICC profile", "eXIf", "iTXtXML:com.adobe.xmp", "zTXtRaw profile type iptc"}) {
        const auto at = text.find(chunk);
        ASSERT_NE(at, std::string::npos) << chunk;
        EXPECT_LT(at, idat) << chunk;
    }
    EXPECT_NE(text.find(kXmp), std::string::npos);
}

TEST(PngMetadata, ReadsImageMagickRawIptcAndSkipsDamage)
{
    // A file cut inside its image data still gives the metadata read before it.
    ImageMetadata metadata;
    metadata.xmp = kXmp;
    MetadataWritten written;
    auto bytes = writePng(pattern(40, 40, CV_8UC1), &metadata, EncodeOptions{}, written);
    bytes.resize(bytes.size() - 30);
    EXPECT_EQ(readPngMetadata(bytes).xmp, kXmp);
    EXPECT_TRUE(readPngMetadata(std::vector<std::uint8_t>{1, 2, 3}).empty());
}

TEST(PngMetadata, ExivAndImageMagickReadTheParts)
{
    ImageMetadata metadata;
    metadata.icc = tessera::test::fakeIccProfile();
    metadata.exif = tinyExif();
    metadata.xmp = kXmp;
    metadata.iptc = tinyIptc();
    MetadataWritten written;
    const auto bytes = writePng(pattern(5, 6, CV_8UC3), &metadata, EncodeOptions{}, written);
    const std::string path = tempPath("meta.png");
    writeFile(path, bytes);
    if (!haveProgram("exiv2")) {
        std::filesystem::remove(path);
        GTEST_SKIP() << "exiv2 is not installed";
    }
    const std::string listing = commandOutput("exiv2 -pa '" + path + "' 2>/dev/null");
    std::filesystem::remove(path);
    EXPECT_NE(listing.find("Exif.Image.Make"), std::string::npos) << listing;
    EXPECT_NE(listing.find("Tessera"), std::string::npos) << listing;
    EXPECT_NE(listing.find("Xmp.dc.creator"), std::string::npos) << listing;
    EXPECT_NE(listing.find("Iptc.Application2.ObjectName"), std::string::npos) << listing;
}

TEST(PngMetadata, ImageMagickTakesTheNamedProfile)
{
    // An iCCP chunk with an empty name is refused by libpng ("iCCP: bad keyword"), and with it
    // the profile, by every program built on libpng: ImageMagick must hand back the very bytes.
    ImageMetadata metadata;
    metadata.icc = tessera::test::fakeIccProfile(3000);
    MetadataWritten written;
    const auto bytes = writePng(pattern(5, 6, CV_8UC3), &metadata, EncodeOptions{}, written);
    if (!haveProgram("convert")) {
        GTEST_SKIP() << "ImageMagick is not installed";
    }
    const std::string path = tempPath("icc.png");
    const std::string profile = tempPath("icc.icc");
    writeFile(path, bytes);
    const std::string said = commandOutput("convert '" + path + "' '" + profile + "' 2>&1");
    std::ifstream in(profile, std::ios::binary);
    const std::string extracted((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(path);
    std::filesystem::remove(profile);
    EXPECT_EQ(said, "");
    EXPECT_EQ(extracted.size(), metadata.icc.size());
    EXPECT_TRUE(extracted == metadata.icc);
    // Tessera's own reader gives the same profile back.
    EXPECT_TRUE(readPng(bytes, DecodeBudget{}).metadata.icc == metadata.icc);
}

std::uint32_t chunkCrc(const std::string& typeAndData)
{
    std::uint32_t crc = 0xffffffffu;
    for (const char ch : typeAndData) {
        crc ^= static_cast<std::uint8_t>(ch);
        for (int k = 0; k < 8; ++k) {
            crc = (crc & 1u) != 0 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
        }
    }
    return crc ^ 0xffffffffu;
}

std::vector<std::uint8_t> plainPng()
{
    MetadataWritten written;
    return writePng(pattern(30, 30, CV_8UC3), nullptr, EncodeOptions{}, written);
}

std::string reasonFor(const std::vector<std::uint8_t>& bytes, std::string& printed)
{
    testing::internal::CaptureStderr();
    std::string reason;
    try {
        readPng(bytes, DecodeBudget{});
    } catch (const CodecError& e) {
        reason = e.what();
    }
    printed = testing::internal::GetCapturedStderr();
    return reason;
}

TEST(PngErrors, CrcErrorTruncationAndBadProfileGiveOneLineAndPrintNothing)
{
    auto bytes = plainPng();
    const std::string text(bytes.begin(), bytes.end());
    const auto idat = text.find("IDAT");
    ASSERT_NE(idat, std::string::npos);
    auto badCrc = bytes;
    const std::size_t idatLength = (std::size_t{bytes[idat - 4]} << 24) | (std::size_t{bytes[idat - 3]} << 16) |
                                   (std::size_t{bytes[idat - 2]} << 8) | bytes[idat - 1];
    badCrc[idat + 4 + idatLength] ^= 0x5a;  // the stored CRC, not the data
    std::string printed;
    std::string reason = reasonFor(badCrc, printed);
    EXPECT_EQ(reason, "corrupt PNG data: CRC error in chunk IDAT");
    EXPECT_TRUE(printed.empty()) << printed;

    auto truncated = bytes;
    truncated.resize(idat + 40);
    reason = reasonFor(truncated, printed);
    EXPECT_NE(reason.find("truncated PNG data"), std::string::npos) << reason;
    EXPECT_EQ(reason.find('\n'), std::string::npos);
    EXPECT_TRUE(printed.empty()) << printed;

    // The image data ends (IEND follows) before the last rows: an error, not grey rows.
    const auto iend = text.find("IEND");
    std::vector<std::uint8_t> shortIdat(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(idat - 4));
    const cv::Mat small = pattern(3, 30, CV_8UC3);
    MetadataWritten written;
    const auto other = writePng(small, nullptr, EncodeOptions{}, written);
    const std::string otherText(other.begin(), other.end());
    const auto otherIdat = otherText.find("IDAT");
    shortIdat.insert(shortIdat.end(), other.begin() + static_cast<std::ptrdiff_t>(otherIdat - 4),
                     other.begin() + static_cast<std::ptrdiff_t>(otherText.find("IEND") - 4));
    shortIdat.insert(shortIdat.end(), bytes.begin() + static_cast<std::ptrdiff_t>(iend - 4), bytes.end());
    reason = reasonFor(shortIdat, printed);
    EXPECT_NE(reason.find("PNG data"), std::string::npos) << reason;
    EXPECT_TRUE(printed.empty()) << printed;

    // An iCCP whose data is not a profile: a warning kept out of sight, the pixels still read.
    ImageMetadata metadata;
    metadata.icc = tessera::test::fakeIccProfile();
    auto withIcc = writePng(pattern(30, 30, CV_8UC3), &metadata, EncodeOptions{}, written);
    const std::string iccText(withIcc.begin(), withIcc.end());
    const auto iccp = iccText.find("iCCP");
    ASSERT_NE(iccp, std::string::npos);
    std::vector<std::uint8_t> badProfile(withIcc.begin(), withIcc.begin() + static_cast<std::ptrdiff_t>(iccp - 4));
    const std::string junk =
        std::string("iCCP") + "ICC profile" + std::string(1, '\0') + std::string(1, '\0') + "notzlib";
    const std::uint32_t length = static_cast<std::uint32_t>(junk.size() - 4);
    for (int shift = 24; shift >= 0; shift -= 8) {
        badProfile.push_back(static_cast<std::uint8_t>(length >> shift));
    }
    badProfile.insert(badProfile.end(), junk.begin(), junk.end());
    const std::uint32_t crc = chunkCrc(junk);
    for (int shift = 24; shift >= 0; shift -= 8) {
        badProfile.push_back(static_cast<std::uint8_t>(crc >> shift));
    }
    const std::size_t after =
        iccp + 4 +
        (static_cast<std::size_t>(withIcc[iccp - 4]) << 24 | static_cast<std::size_t>(withIcc[iccp - 3]) << 16 |
         static_cast<std::size_t>(withIcc[iccp - 2]) << 8 | withIcc[iccp - 1]) +
        4;
    badProfile.insert(badProfile.end(), withIcc.begin() + static_cast<std::ptrdiff_t>(after), withIcc.end());
    testing::internal::CaptureStderr();
    const Decoded d = readPng(badProfile, DecodeBudget{});
    printed = testing::internal::GetCapturedStderr();
    EXPECT_TRUE(printed.empty()) << printed;
    EXPECT_TRUE(d.metadata.icc.empty());
    EXPECT_EQ(d.pixels.size(), cv::Size(30, 30));
}

TEST(PngErrors, NotAPngAndSizeLimits)
{
    EXPECT_THROW(readPng(std::vector<std::uint8_t>{'G', 'I', 'F', '8'}, DecodeBudget{}), CodecError);
    DecodeBudget budget;
    budget.maxPixels = 100;
    try {
        readPng(plainPng(), budget);
        FAIL() << "a 30 x 30 image passed a 100-pixel limit";
    } catch (const CodecError& e) {
        EXPECT_NE(std::string(e.what()).find("30 x 30"), std::string::npos) << e.what();
    }
}

TEST(PngBudget, InterlacedPassesCountAndCancelStops)
{
    const auto interlaced = makePng({20, 20, 8, PNG_COLOR_TYPE_RGB, true, false, false});
    DecodeBudget budget;
    budget.maxWork = 20 * 20 * 6;  // under the 7 passes
    EXPECT_THROW(readPng(interlaced, budget), CodecError);
    budget.maxWork = 20 * 20 * 7;
    EXPECT_NO_THROW(readPng(interlaced, budget));
    std::atomic<bool> cancel{true};
    budget.cancel = &cancel;
    EXPECT_THROW(readPng(plainPng(), budget), DecodeCancelled);
}

}  // namespace
}  // namespace tessera::app::codec
