// SPDX-License-Identifier: Apache-2.0
// The JPEG reader against OpenCV's decoder (the same libjpeg-turbo, so identical pixels), its
// refusals of damaged files and of decodes over budget, and cancelling a long progressive decode.
#include "test_jpeg_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace tessera::app::codec {
namespace {

using namespace testing;

std::string errorOf(const std::vector<std::uint8_t>& file, const DecodeBudget& budget = {})
{
    try {
        readJpeg(bytesOf(file), budget);
    } catch (const DecodeCancelled&) {
        return "cancelled";
    } catch (const CodecError& e) {
        return e.what();
    }
    return "no error";
}

TEST(JpegRead, PixelsMatchOpenCvAcrossSizesChannelsQualitiesAndScans)
{
    const cv::Size sizes[] = {{1, 1}, {17, 1}, {1, 23}, {33, 65}, {257, 131}};
    int files = 0;
    for (const cv::Size size : sizes) {
        for (const int type : {CV_8UC1, CV_8UC3}) {
            const cv::Mat img = detailedImage(size.height, size.width, type, static_cast<unsigned>(size.area()));
            for (const int quality : {30, 95}) {
                for (const int progressive : {0, 1}) {
                    const auto file = cvEncode(
                        ".jpg", img, {cv::IMWRITE_JPEG_QUALITY, quality, cv::IMWRITE_JPEG_PROGRESSIVE, progressive});
                    const Decoded d = readJpeg(bytesOf(file), {});
                    EXPECT_TRUE(samePixels(d.pixels, cvDecode(file)))
                        << size << " type " << type << " q" << quality << " progressive " << progressive;
                    ++files;
                }
            }
        }
    }
    // 4:4:4 and a colour file stored as one scan per component, which OpenCV does not write.
    const cv::Mat img = detailedImage(40, 51, CV_8UC3);
    const auto progressive = libjpegEncode(img, JCS_EXT_BGR, JCS_YCbCr, true);
    EXPECT_TRUE(samePixels(readJpeg(bytesOf(progressive), {}).pixels, cvDecode(progressive)));
    EXPECT_EQ(files, 40);
}

TEST(JpegRead, CmykAndYcckBecomeBgrAsOpenCvConvertsThem)
{
    const cv::Mat cmyk = detailedImage(37, 29, CV_8UC4, 3);
    for (const J_COLOR_SPACE stored : {JCS_CMYK, JCS_YCCK}) {
        const auto file = libjpegEncode(cmyk, JCS_CMYK, stored, false);
        const cv::Mat reference = cvDecode(file);
        ASSERT_EQ(reference.channels(), 3);
        const Decoded d = readJpeg(bytesOf(file), {});
        EXPECT_EQ(d.pixels.channels(), 3);
        EXPECT_TRUE(samePixels(d.pixels, reference)) << "stored as " << stored;
    }
}

TEST(JpegRead, TruncatedFilesAreErrorsNotGreyRows)
{
    const cv::Mat img = detailedImage(64, 64, CV_8UC3);
    for (const int progressive : {0, 1}) {
        auto file = cvEncode(".jpg", img, {cv::IMWRITE_JPEG_PROGRESSIVE, progressive});
        file.resize(file.size() * 2 / 3);
        EXPECT_EQ(errorOf(file).rfind("truncated JPEG data", 0), 0u) << errorOf(file);
    }
    auto headerOnly = cvEncode(".jpg", img);
    headerOnly.resize(100);
    EXPECT_EQ(errorOf(headerOnly).rfind("truncated JPEG data", 0), 0u) << errorOf(headerOnly);
}

TEST(JpegRead, DamagedAndForeignBytesGiveOneLineReasons)
{
    EXPECT_EQ(errorOf({'G', 'I', 'F', '8'}), "not a JPEG file: it does not start with a JPEG start-of-image marker");
    auto file = cvEncode(".jpg", detailedImage(16, 16, CV_8UC1));
    // A frame header with a zero height.
    for (std::size_t i = 2; i + 8 < file.size(); ++i) {
        if (file[i] == 0xFF && file[i + 1] == 0xC0) {
            file[i + 5] = 0;
            file[i + 6] = 0;
            break;
        }
    }
    const std::string reason = errorOf(file);
    EXPECT_NE(reason, "no error");
    EXPECT_EQ(reason.find('\n'), std::string::npos);
    EXPECT_EQ(reason.rfind("invalid JPEG data: ", 0), 0u) << reason;
}

TEST(JpegRead, ScanBudgetRefusesWithTheFigures)
{
    const cv::Mat img = detailedImage(64, 48, CV_8UC3);
    const auto file = libjpegEncode(img, JCS_EXT_BGR, JCS_YCbCr, true);  // ten scans
    DecodeBudget budget;
    budget.maxJpegScans = 4;
    EXPECT_EQ(errorOf(file, budget),
              "progressive JPEG of 10 scans over 48 x 64 pixels: more scans than the limit of 4");
    budget = {};
    budget.maxWork = 48 * 64 * 9;
    EXPECT_EQ(errorOf(file, budget),
              "progressive JPEG of 10 scans over 48 x 64 pixels: 30720 pixel passes exceed the decode budget of 27648");
    budget.maxWork = 48 * 64 * 10;
    EXPECT_NO_THROW(readJpeg(bytesOf(file), budget));
    budget = {};
    budget.maxPixels = 1000;
    EXPECT_EQ(errorOf(file, budget), "48 x 64 (3072 pixels) exceeds the limit of 1000 pixels");
}

TEST(JpegRead, CancelStopsALongProgressiveDecodeQuickly)
{
    const cv::Mat img = detailedImage(4096, 4096, CV_8UC3, 11);
    const auto file = libjpegEncode(img, JCS_EXT_BGR, JCS_YCbCr, true, 95);
    std::atomic<bool> cancel{false};
    DecodeBudget budget;
    budget.cancel = &cancel;
    std::string outcome;
    std::chrono::steady_clock::time_point finished;
    std::thread decoder([&] {
        outcome = errorOf(file, budget);
        finished = std::chrono::steady_clock::now();
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    const auto set = std::chrono::steady_clock::now();
    cancel = true;
    decoder.join();
    EXPECT_EQ(outcome, "cancelled");
    EXPECT_LT(std::chrono::duration<double>(finished - set).count(), 2.0);
}

TEST(JpegRead, DecodesInParallelWithPerHandleErrors)
{
    const auto good = cvEncode(".jpg", detailedImage(200, 300, CV_8UC3));
    auto bad = good;
    bad.resize(bad.size() / 2);
    const cv::Mat reference = cvDecode(good);
    std::atomic<int> right{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 10; ++i) {
                if ((t + i) % 2 == 0) {
                    right += samePixels(readJpeg(bytesOf(good), {}).pixels, reference) ? 1 : 0;
                } else {
                    right += errorOf(bad).rfind("truncated JPEG data", 0) == 0 ? 1 : 0;
                }
            }
        });
    }
    for (std::thread& t : threads) {
        t.join();
    }
    EXPECT_EQ(right.load(), 40);
}

TEST(JpegRead, MetadataOfDamagedFilesDoesNotThrow)
{
    EXPECT_TRUE(readJpegMetadata({}).empty());
    const std::vector<std::uint8_t> junk = {0xFF, 0xD8, 0xFF, 0xE1, 0x00};
    EXPECT_TRUE(readJpegMetadata(bytesOf(junk)).empty());
}

}  // namespace
}  // namespace tessera::app::codec
