// SPDX-License-Identifier: Apache-2.0
#include "app/io/image_io.h"

#include "app/io/image_header.h"
#include "image_io_test_support.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using tessera::app::ImageLimits;
using namespace tessera::test::image_io;

TEST(ImageIoRoundTrip, LosslessFormatsKeepEveryPixel)
{
    struct Case {
        const char* ext;
        int depth;
        std::vector<int> channels;
    };
    const std::vector<Case> cases{
        {".png", CV_8U, {1, 3, 4}}, {".png", CV_16U, {1, 3, 4}}, {".PNG", CV_8U, {3}},
        {".tif", CV_8U, {1, 3, 4}}, {".tif", CV_16U, {1, 3, 4}}, {".tiff", CV_32F, {1, 3, 4}},
        {".bmp", CV_8U, {1, 3}},    {".webp", CV_8U, {3, 4}},    {".exr", CV_32F, {1, 3, 4}},
    };
    TempDir dir;
    for (const Case& c : cases) {
        for (int ch : c.channels) {
            cv::Mat img = randomImage(c.depth, ch);
            if (std::string(c.ext) == ".webp" && ch == 4) {
                // libwebp drops the colour under alpha 0, so keep every pixel a little visible.
                img.forEach<cv::Vec4b>([](cv::Vec4b& p, const int*) { p[3] = std::max<std::uint8_t>(p[3], 1); });
            }
            const std::string path = dir.file(std::string("rt") + c.ext);
            SCOPED_TRACE(path + " " + tessera::app::describeFormat(img));
            tessera::app::writeImage(path, img);
            const cv::Mat back = tessera::app::readImage(path);
            EXPECT_TRUE(identical(img, back)) << tessera::app::describeFormat(back);
        }
    }
    EXPECT_EQ(dir.names(),
              (std::vector<std::string>{"rt.PNG", "rt.bmp", "rt.exr", "rt.png", "rt.tif", "rt.tiff", "rt.webp"}));
}

TEST(ImageIoRoundTrip, FloatKeepsNonFiniteValues)
{
    TempDir dir;
    cv::Mat img = randomImage(CV_32F, 3);
    img.at<cv::Vec3f>(1, 2) = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                               -std::numeric_limits<float>::infinity()};
    for (const char* name : {"nf.tif", "nf.exr"}) {
        tessera::app::writeImage(dir.file(name), img);
        EXPECT_TRUE(identical(img, tessera::app::readImage(dir.file(name)))) << name;
    }
}

TEST(ImageIoRoundTrip, GrayWebpComesBackAsEqualChannels)
{
    TempDir dir;
    const cv::Mat gray = randomImage(CV_8U, 1);
    tessera::app::writeImage(dir.file("g.webp"), gray);
    const cv::Mat back = tessera::app::readImage(dir.file("g.webp"));
    ASSERT_EQ(back.type(), CV_8UC3);
    std::vector<cv::Mat> planes;
    cv::split(back, planes);
    for (const cv::Mat& p : planes) {
        EXPECT_TRUE(identical(gray, p));
    }
}

TEST(ImageIoRoundTrip, JpegStaysClose)
{
    TempDir dir;
    for (int ch : {1, 3}) {
        cv::Mat img(40, 56, CV_8UC(ch));
        for (int y = 0; y < img.rows; ++y) {
            for (int x = 0; x < img.cols * ch; ++x) {
                img.ptr(y)[x] = static_cast<std::uint8_t>(3 * y + x % 97);
            }
        }
        for (const char* name : {"j.jpg", "j.jpeg"}) {
            tessera::app::writeImage(dir.file(name), img);
            const cv::Mat back = tessera::app::readImage(dir.file(name));
            ASSERT_EQ(back.type(), img.type()) << name;
            EXPECT_LT(cv::norm(img, back, cv::NORM_L1) / static_cast<double>(img.total() * ch), 3.0) << name;
        }
    }
}

TEST(ImageIoRead, GrayAlphaPngBecomesBgra)
{
    TempDir dir;
    writeBytes(dir.file("ga8.png"), makePng(2, 1, 4, 8, {{10, 200, 30, 40}}));
    cv::Mat img = tessera::app::readImage(dir.file("ga8.png"));
    ASSERT_EQ(img.type(), CV_8UC4);
    EXPECT_EQ(img.at<cv::Vec4b>(0, 0), cv::Vec4b(10, 10, 10, 200));
    EXPECT_EQ(img.at<cv::Vec4b>(0, 1), cv::Vec4b(30, 30, 30, 40));

    writeBytes(dir.file("ga16.png"), makePng(1, 1, 4, 16, {{0x12, 0x34, 0xAB, 0xCD}}));
    img = tessera::app::readImage(dir.file("ga16.png"));
    ASSERT_EQ(img.type(), CV_16UC4);
    EXPECT_EQ(img.at<cv::Vec4w>(0, 0), cv::Vec4w(0x1234, 0x1234, 0x1234, 0xABCD));
}

TEST(ImageIoRead, MissingFile)
{
    TempDir dir;
    const std::string path = dir.file("nope.png");
    expectImageError([&] { tessera::app::readImage(path); }, path, {"not found"});
}

TEST(ImageIoRead, DirectoryNamedLikeAnImage)
{
    TempDir dir;
    const std::string path = dir.file("folder.png");
    fs::create_directory(path);
    expectImageError([&] { tessera::app::readImage(path); }, path, {"directory"});
}

TEST(ImageIoRead, EmptyFile)
{
    TempDir dir;
    const std::string path = dir.file("empty.png");
    writeBytes(path, {});
    expectImageError([&] { tessera::app::readImage(path); }, path, {"empty"});
}

TEST(ImageIoRead, TextNamedJpg)
{
    TempDir dir;
    const std::string path = dir.file("notes.jpg");
    const std::string text = "these are notes, not a picture\n";
    writeBytes(path, Bytes(text.begin(), text.end()));
    expectImageError([&] { tessera::app::readImage(path); }, path, {"not an image"});
}

TEST(ImageIoRead, TruncatedPng)
{
    TempDir dir;
    const std::string path = dir.file("cut.png");
    tessera::app::writeImage(path, randomImage(CV_8U, 3, {64, 64}));
    Bytes bytes = readBytes(path);
    bytes.resize(bytes.size() / 2);
    writeBytes(path, bytes);
    // Named for what it is: cut short, not merely damaged.
    expectImageError([&] { tessera::app::readImage(path); }, path, {"truncated", "PNG"});
}

// A JPEG cut short decodes with grey rows and a warning only; it must be refused, baseline and
// progressive, while complete files (also with bytes after the end marker) still read.
TEST(ImageIoRead, TruncatedJpegIsRefused)
{
    TempDir dir;
    const cv::Mat img = randomImage(CV_8U, 3, {96, 80});
    for (const bool progressive : {false, true}) {
        const std::string name = progressive ? "progressive" : "baseline";
        std::vector<uchar> encoded;
        ASSERT_TRUE(cv::imencode(".jpg", img, encoded,
                                 {cv::IMWRITE_JPEG_QUALITY, 95, cv::IMWRITE_JPEG_PROGRESSIVE, progressive ? 1 : 0}));
        const Bytes whole(encoded.begin(), encoded.end());
        const std::string good = dir.file(name + ".jpg");
        writeBytes(good, whole);
        EXPECT_EQ(tessera::app::readImage(good).size(), img.size()) << name;

        Bytes trailing = whole;
        trailing.insert(trailing.end(), {0x00, 0x00, 'x', 'y'});
        const std::string padded = dir.file(name + "-trailing.jpg");
        writeBytes(padded, trailing);
        EXPECT_EQ(tessera::app::readImage(padded).size(), img.size()) << name;

        for (const double keep : {0.5, 0.9}) {
            Bytes cut(whole.begin(),
                      whole.begin() + static_cast<std::ptrdiff_t>(static_cast<double>(whole.size()) * keep));
            const std::string path = dir.file(name + "-cut.jpg");
            writeBytes(path, cut);
            expectImageError([&] { tessera::app::readImage(path); }, path, {"truncated JPEG"});
        }
        // Only the end marker missing.
        const std::string noEnd = dir.file(name + "-no-end.jpg");
        writeBytes(noEnd, Bytes(whole.begin(), whole.end() - 2));
        expectImageError([&] { tessera::app::readImage(noEnd); }, noEnd, {"truncated JPEG"});
    }
}

TEST(ImageIoRead, HugeHeaderIsRefusedBeforeDecoding)
{
    TempDir dir;
    const std::string path = dir.file("huge.png");
    writeBytes(path, makePng(100000, 100000, 2, 8, {}));
    expectImageError([&] { tessera::app::readImage(path); }, path, {"100000 x 100000", "exceeds the limit"});
}

TEST(ImageIoRead, LimitsAreConfigurable)
{
    TempDir dir;
    const std::string path = dir.file("small.png");
    tessera::app::writeImage(path, randomImage(CV_8U, 1, {64, 48}));
    EXPECT_EQ(tessera::app::readImage(path).size(), cv::Size(64, 48));
    expectImageError(
        [&] {
            tessera::app::readImage(path, ImageLimits{32, 1000, 1u << 20});
        },
        path, {"64 x 48", "32 x 1000"});
    expectImageError(
        [&] {
            tessera::app::readImage(path, ImageLimits{1000, 1000, 1000});
        },
        path, {"3072 pixels", "1000 pixels"});
}

TEST(ImageIoRead, UnreadableFile)
{
    if (::geteuid() == 0) {
        GTEST_SKIP() << "root reads files whatever their permissions";
    }
    TempDir dir;
    const std::string path = dir.file("locked.png");
    tessera::app::writeImage(path, randomImage(CV_8U, 1));
    fs::permissions(path, fs::perms::none);
    expectImageError([&] { tessera::app::readImage(path); }, path, {"permission denied"});
}

TEST(ImageIoRead, OtherDepthsAreRefused)
{
    TempDir dir;
    for (int depth : {CV_64F, CV_16S}) {
        const std::string path = dir.file("deep" + std::to_string(depth) + ".tif");
        cv::Mat img(4, 5, CV_MAKETYPE(depth, 1), cv::Scalar(7));
        ASSERT_TRUE(cv::imwrite(path, img));
        expectImageError([&] { tessera::app::readImage(path); }, path,
                         {"unsupported sample type", depth == CV_64F ? "f64" : "s16"});
    }
}

TEST(ImageIoWrite, DepthsAFormatCannotHoldAreRefused)
{
    TempDir dir;
    const auto refuse = [&](const char* name, int depth, int channels, std::vector<std::string> why) {
        const std::string path = dir.file(name);
        expectImageError([&] { tessera::app::writeImage(path, randomImage(depth, channels)); }, path, std::move(why));
    };
    refuse("f.jpg", CV_32F, 3, {"JPEG cannot hold f32", "TIFF, EXR"});
    refuse("w.jpg", CV_16U, 1, {"JPEG cannot hold u16", "PNG, TIFF"});
    refuse("f.png", CV_32F, 1, {"PNG cannot hold f32", "TIFF, EXR"});
    refuse("w.webp", CV_16U, 3, {"WebP cannot hold u16"});
    refuse("b.exr", CV_8U, 3, {"EXR cannot hold u8", "PNG, JPEG, TIFF, BMP, WebP"});
    refuse("d.tif", CV_64F, 1, {"cannot write f64"});
    refuse("two.png", CV_8U, 2, {"2-channel"});
    refuse("alpha.jpg", CV_8U, 4, {"alpha", "PNG, TIFF, WebP"});
    refuse("alpha.bmp", CV_8U, 4, {"alpha"});
    refuse("x.gif", CV_8U, 3, {"unsupported output format '.gif'"});
    refuse("noext", CV_8U, 3, {"unsupported output format"});
    expectImageError([&] { tessera::app::writeImage(dir.file("e.png"), cv::Mat()); }, dir.file("e.png"), {"empty"});
    EXPECT_TRUE(dir.names().empty());
}

TEST(ImageIoWrite, OutputFolderMissing)
{
    TempDir dir;
    const std::string path = dir.file("absent/out.png");
    expectImageError([&] { tessera::app::writeImage(path, randomImage(CV_8U, 3)); }, path,
                     {"output folder does not exist"});
    EXPECT_TRUE(dir.names().empty());
}

TEST(ImageIoWrite, OutputFolderNotWritable)
{
    if (::geteuid() == 0) {
        GTEST_SKIP() << "root writes into folders whatever their permissions";
    }
    TempDir dir;
    fs::create_directory(dir.file("ro"));
    fs::permissions(dir.file("ro"), fs::perms::owner_read | fs::perms::owner_exec);
    const std::string path = dir.file("ro/out.png");
    expectImageError([&] { tessera::app::writeImage(path, randomImage(CV_8U, 3)); }, path, {"not writable"});
    fs::permissions(dir.file("ro"), fs::perms::owner_all);
    EXPECT_TRUE(fs::is_empty(dir.file("ro")));
}

TEST(ImageIoWrite, OutputIsADirectory)
{
    TempDir dir;
    const std::string path = dir.file("taken.png");
    fs::create_directory(path);
    expectImageError([&] { tessera::app::writeImage(path, randomImage(CV_8U, 3)); }, path, {"directory"});
    EXPECT_EQ(dir.names(), std::vector<std::string>{"taken.png"});
}

TEST(ImageIoWrite, ReplacesAFileAndLeavesNoTemporary)
{
    TempDir dir;
    const std::string path = dir.file("out.png");
    tessera::app::writeImage(path, randomImage(CV_8U, 3));
    fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    const cv::Mat second = randomImage(CV_16U, 1);
    tessera::app::writeImage(path, second);
    EXPECT_TRUE(identical(second, tessera::app::readImage(path)));
    EXPECT_EQ(fs::status(path).permissions(), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    EXPECT_EQ(dir.names(), std::vector<std::string>{"out.png"});
}

TEST(ImageIoWrite, FailuresNeverTouchTheExistingFile)
{
    TempDir dir;
    const Bytes precious{'k', 'e', 'e', 'p'};
    for (const char* name : {"keep.png", "keep.jpg"}) {
        writeBytes(dir.file(name), precious);
    }
    // Refused before encoding: the format cannot hold the depth.
    EXPECT_THROW(tessera::app::writeImage(dir.file("keep.png"), randomImage(CV_32F, 1)), ImageError);
    // Refused by the encoder itself, after the temporary file exists: JPEG stops at 65500 wide.
    expectImageError([&] { tessera::app::writeImage(dir.file("keep.jpg"), cv::Mat(1, 70000, CV_8UC1, cv::Scalar(9))); },
                     dir.file("keep.jpg"), {"cannot encode u8x1 as JPEG"});
    EXPECT_EQ(readBytes(dir.file("keep.png")), precious);
    EXPECT_EQ(readBytes(dir.file("keep.jpg")), precious);
    EXPECT_EQ(dir.names(), (std::vector<std::string>{"keep.jpg", "keep.png"}));
}

TEST(ImageIoSameFile, RefusesEverySpellingOfOneFile)
{
    TempDir dir;
    fs::create_directory(dir.file("a"));
    const std::string a = dir.file("a.png");
    tessera::app::writeImage(a, randomImage(CV_8U, 1));
    fs::create_symlink(a, dir.file("link.png"));
    fs::create_hard_link(a, dir.file("hard.png"));
    for (const std::string& other :
         {a, dir.file("a/../a.png"), dir.file("./a.png"), dir.file("link.png"), dir.file("hard.png")}) {
        expectImageError([&] { tessera::app::refuseSameFile(a, other); }, other, {"same file", a});
    }
    const fs::path before = fs::current_path();
    fs::current_path(dir.file("a"));
    EXPECT_THROW(tessera::app::refuseSameFile("../a.png", a), ImageError);
    fs::current_path(before);
    EXPECT_NO_THROW(tessera::app::refuseSameFile(a, dir.file("b.png")));
    EXPECT_NO_THROW(tessera::app::refuseSameFile(a, dir.file("a/a.png")));
}

TEST(ImageIoFormat, DescribesDepthAndChannels)
{
    EXPECT_EQ(tessera::app::describeFormat(cv::Mat(1, 1, CV_8UC3)), "u8x3");
    EXPECT_EQ(tessera::app::describeFormat(cv::Mat(1, 1, CV_16UC1)), "u16x1");
    EXPECT_EQ(tessera::app::describeFormat(cv::Mat(1, 1, CV_32FC4)), "f32x4");
}
