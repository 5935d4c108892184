// SPDX-License-Identifier: Apache-2.0
#include "app/engine/display_mapping.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using tessera::app::DisplayMapping;
using tessera::app::SignedMode;
using tessera::app::toDisplayImage;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// A 1-row gray float image holding the given values.
cv::Mat floatRow(const std::vector<float>& values)
{
    cv::Mat m(1, static_cast<int>(values.size()), CV_32FC1);
    for (int x = 0; x < m.cols; ++x) {
        m.at<float>(0, x) = values[static_cast<std::size_t>(x)];
    }
    return m;
}

std::vector<int> grays(const QImage& img)
{
    std::vector<int> out;
    for (int x = 0; x < img.width(); ++x) {
        out.push_back(qGray(img.pixel(x, 0)));
    }
    return out;
}

// Bitwise, so NaN samples compare equal to themselves.
bool sameBits(const cv::Mat& a, const cv::Mat& b)
{
    if (a.size() != b.size() || a.type() != b.type()) {
        return false;
    }
    for (int y = 0; y < a.rows; ++y) {
        if (std::memcmp(a.ptr(y), b.ptr(y), a.cols * a.elemSize()) != 0) {
            return false;
        }
    }
    return true;
}

DisplayMapping mapping(bool stretch, SignedMode mode = SignedMode::Offset)
{
    DisplayMapping m;
    m.stretch = stretch;
    m.signedMode = mode;
    return m;
}

}  // namespace

TEST(DisplayMapping, EightBitGrayMapsOneToOne)
{
    cv::Mat img(3, 5, CV_8UC1);  // odd width: QImage rows are padded, Mat rows are not
    cv::randu(img, 0, 256);
    const QImage out = toDisplayImage(img);
    ASSERT_EQ(out.format(), QImage::Format_Grayscale8);
    ASSERT_EQ(out.size(), QSize(5, 3));
    for (int y = 0; y < img.rows; ++y) {
        for (int x = 0; x < img.cols; ++x) {
            EXPECT_EQ(out.constScanLine(y)[x], img.at<std::uint8_t>(y, x));
        }
    }
}

TEST(DisplayMapping, EightBitBgrBecomesRgb)
{
    cv::Mat img(2, 3, CV_8UC3, cv::Scalar(10, 20, 30));  // B, G, R
    img.at<cv::Vec3b>(1, 2) = {200, 100, 0};
    const QImage out = toDisplayImage(img);
    ASSERT_EQ(out.format(), QImage::Format_RGB32);
    EXPECT_EQ(out.pixel(0, 0), qRgb(30, 20, 10));
    EXPECT_EQ(out.pixel(2, 1), qRgb(0, 100, 200));
}

TEST(DisplayMapping, AlphaIsKept)
{
    cv::Mat u8(1, 2, CV_8UC4);
    u8.at<cv::Vec4b>(0, 0) = {1, 2, 3, 0};
    u8.at<cv::Vec4b>(0, 1) = {4, 5, 6, 77};
    QImage out = toDisplayImage(u8);
    ASSERT_EQ(out.format(), QImage::Format_ARGB32);
    EXPECT_EQ(out.pixel(0, 0), qRgba(3, 2, 1, 0));
    EXPECT_EQ(out.pixel(1, 0), qRgba(6, 5, 4, 77));

    // Float alpha shows [0, 1] and never takes part in the colour stretch.
    cv::Mat f32(1, 2, CV_32FC4);
    f32.at<cv::Vec4f>(0, 0) = {0.f, 0.f, 0.f, 0.5f};
    f32.at<cv::Vec4f>(0, 1) = {2.f, 2.f, 2.f, 100.f};
    out = toDisplayImage(f32);
    EXPECT_EQ(out.pixel(0, 0), qRgba(0, 0, 0, 128));
    EXPECT_EQ(out.pixel(1, 0), qRgba(255, 255, 255, 255));

    cv::Mat u16(1, 1, CV_16UC4, cv::Scalar(0, 0, 0, 0x8000));
    EXPECT_EQ(qAlpha(toDisplayImage(u16).pixel(0, 0)), 0x80);
}

TEST(DisplayMapping, SixteenBitStretchesItsRange)
{
    cv::Mat img(1, 3, CV_16UC1);
    img.at<std::uint16_t>(0, 0) = 1000;
    img.at<std::uint16_t>(0, 1) = 2000;
    img.at<std::uint16_t>(0, 2) = 3000;
    EXPECT_EQ(grays(toDisplayImage(img)), (std::vector<int>{0, 128, 255}));
    // Without stretch only the high byte shows.
    img.at<std::uint16_t>(0, 0) = 0x12FF;
    img.at<std::uint16_t>(0, 2) = 0xFFFF;
    EXPECT_EQ(grays(toDisplayImage(img, mapping(false))), (std::vector<int>{0x12, 2000 >> 8, 0xFF}));
}

TEST(DisplayMapping, SixteenBitColourStretchIgnoresAlpha)
{
    cv::Mat img(1, 2, CV_16UC4);
    img.at<cv::Vec4w>(0, 0) = {100, 200, 300, 65535};
    img.at<cv::Vec4w>(0, 1) = {300, 300, 300, 0};
    const QImage out = toDisplayImage(img);
    EXPECT_EQ(out.pixel(0, 0), qRgba(255, 128, 0, 255));
    EXPECT_EQ(out.pixel(1, 0), qRgba(255, 255, 255, 0));
}

TEST(DisplayMapping, FloatPositiveStretch)
{
    EXPECT_EQ(grays(toDisplayImage(floatRow({2.f, 3.f, 4.f}))), (std::vector<int>{0, 128, 255}));
}

TEST(DisplayMapping, FloatSignedOffsetPutsZeroAtMidGray)
{
    const cv::Mat img = floatRow({-2.f, 0.f, 1.f, 2.f});
    EXPECT_EQ(grays(toDisplayImage(img, mapping(true, SignedMode::Offset))), (std::vector<int>{0, 128, 191, 255}));
    // The range is symmetric even when one side is short.
    EXPECT_EQ(grays(toDisplayImage(floatRow({-1.f, 0.f, 4.f}))), (std::vector<int>{96, 128, 255}));
}

TEST(DisplayMapping, FloatSignedAbsoluteStretchesMagnitude)
{
    const cv::Mat img = floatRow({-2.f, 0.f, 1.f, -1.f});
    EXPECT_EQ(grays(toDisplayImage(img, mapping(true, SignedMode::Absolute))), (std::vector<int>{255, 0, 128, 128}));
    EXPECT_EQ(grays(toDisplayImage(floatRow({-4.f, -2.f}), mapping(true, SignedMode::Absolute))),
              (std::vector<int>{255, 0}));
}

TEST(DisplayMapping, FloatRangeIgnoresNonFinite)
{
    const cv::Mat img = floatRow({0.f, 1.f, kNaN, kInf, -kInf});
    // NaN shows black, infinities clamp to the ends of the stretched range.
    EXPECT_EQ(grays(toDisplayImage(img)), (std::vector<int>{0, 255, 0, 255, 0}));
}

TEST(DisplayMapping, FloatWithoutStretchShowsTheTypesRange)
{
    // [0, 1] for data without negatives; signed data puts 0 at mid-grey ([-1, 1]) or folds.
    // An overshoot (up to twice the range) is clamped; data far beyond it is not (next test).
    EXPECT_EQ(grays(toDisplayImage(floatRow({0.f, 0.5f, 1.f, 1.5f}), mapping(false))),
              (std::vector<int>{0, 128, 255, 255}));
    const cv::Mat img = floatRow({-1.f, 0.f, 0.5f, 1.f, 2.f});
    EXPECT_EQ(grays(toDisplayImage(img, mapping(false))), (std::vector<int>{0, 128, 191, 255, 255}));
    EXPECT_EQ(grays(toDisplayImage(img, mapping(false, SignedMode::Absolute))),
              (std::vector<int>{255, 0, 128, 255, 255}));
}

TEST(DisplayMapping, FloatFarBeyondTheTypesRangeShowsItsDataRange)
{
    // A 16-bit image filtered into float (0 to 65535) is not all white under the type's range.
    const cv::Mat img = floatRow({0.f, 32767.5f, 65535.f});
    std::string shown;
    EXPECT_EQ(grays(toDisplayImage(img, mapping(false), &shown)), (std::vector<int>{0, 128, 255}));
    EXPECT_EQ(shown, "data min-max [0, 65535] (values beyond the float range [0, 1])");
}

TEST(DisplayMapping, SaysWhatBlackAndWhiteStandFor)
{
    std::string shown = "stale";
    toDisplayImage(cv::Mat(1, 2, CV_8UC1, cv::Scalar(3)), {}, &shown);
    EXPECT_EQ(shown, "");
    const cv::Mat img = floatRow({-2.f, 0.f, 1.f});
    toDisplayImage(img, mapping(true), &shown);
    EXPECT_EQ(shown, "data min-max [-2, 2], 0 at mid-grey");
    toDisplayImage(img, mapping(true, SignedMode::Absolute), &shown);
    EXPECT_EQ(shown, "data min-max |v| [0, 2]");
    toDisplayImage(img, mapping(false), &shown);
    EXPECT_EQ(shown, "full range [-1, 1], 0 at mid-grey");
    cv::Mat wide(1, 2, CV_16UC1);
    wide.at<std::uint16_t>(0, 0) = 100;
    wide.at<std::uint16_t>(0, 1) = 900;
    toDisplayImage(wide, mapping(true), &shown);
    EXPECT_EQ(shown, "data min-max [100, 900]");
    toDisplayImage(wide, mapping(false), &shown);
    EXPECT_EQ(shown, "full range [0, 65535]");
}

TEST(DisplayMapping, ConstantDataFallsBackToTheFixedMapping)
{
    EXPECT_EQ(grays(toDisplayImage(floatRow({0.5f, 0.5f}))), (std::vector<int>{128, 128}));
    EXPECT_EQ(grays(toDisplayImage(cv::Mat(1, 2, CV_16UC1, cv::Scalar(0x4000)))), (std::vector<int>{0x40, 0x40}));
    EXPECT_EQ(grays(toDisplayImage(floatRow({kNaN, kNaN}))), (std::vector<int>{0, 0}));
}

TEST(DisplayMapping, InputIsNeverModified)
{
    std::vector<cv::Mat> inputs;
    for (int type : {CV_8UC1, CV_8UC3, CV_8UC4, CV_16UC1, CV_16UC3, CV_16UC4, CV_32FC1, CV_32FC3, CV_32FC4}) {
        cv::Mat m(7, 9, type);
        cv::randu(m, -50.0, 300.0);
        if (m.depth() == CV_32F) {
            m.at<float>(0, 0) = kNaN;
        }
        inputs.push_back(m);
    }
    for (const cv::Mat& img : inputs) {
        const cv::Mat before = img.clone();
        for (const DisplayMapping& m : {mapping(true), mapping(true, SignedMode::Absolute), mapping(false)}) {
            const QImage out = toDisplayImage(img, m);
            EXPECT_FALSE(out.isNull());
        }
        EXPECT_TRUE(sameBits(before, img)) << img.type();
    }
}

TEST(DisplayMapping, RegionOfInterestAndOwnership)
{
    cv::Mat big(6, 8, CV_8UC3);
    cv::randu(big, 0, 256);
    QImage out;
    cv::Vec3b expected;
    {
        const cv::Mat roi = big(cv::Rect(3, 2, 4, 3)).clone();
        const cv::Mat view = big(cv::Rect(3, 2, 4, 3));  // not continuous
        ASSERT_FALSE(view.isContinuous());
        out = toDisplayImage(view);
        expected = roi.at<cv::Vec3b>(2, 3);
    }
    big.setTo(cv::Scalar::all(0));  // the QImage holds its own copy
    big.release();
    EXPECT_EQ(out.pixel(3, 2), qRgb(expected[2], expected[1], expected[0]));
}

TEST(DisplayMapping, EmptyAndUnsupportedInputs)
{
    EXPECT_TRUE(toDisplayImage(cv::Mat()).isNull());
    EXPECT_THROW(toDisplayImage(cv::Mat(2, 2, CV_8UC2)), std::invalid_argument);
    EXPECT_THROW(toDisplayImage(cv::Mat(2, 2, CV_64FC1)), std::invalid_argument);
    EXPECT_THROW(toDisplayImage(cv::Mat(2, 2, CV_16SC3)), std::invalid_argument);
}
