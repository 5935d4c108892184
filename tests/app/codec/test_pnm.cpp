// SPDX-License-Identifier: Apache-2.0
#include "app/io/codec/codec.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <string>

namespace tessera::app::codec {
namespace {

std::vector<std::uint8_t> bytesOf(const std::string& text)
{
    return {text.begin(), text.end()};
}

TEST(Pnm, BinaryGreyColourAndSixteenBitReadAsOpenCvReadsThem)
{
    cv::RNG rng(9);
    for (const int type : {CV_8UC1, CV_8UC3, CV_16UC1, CV_16UC3}) {
        cv::Mat img(13, 7, type);
        rng.fill(img, cv::RNG::UNIFORM, 0, CV_MAT_DEPTH(type) == CV_8U ? 256 : 65536);
        std::vector<std::uint8_t> file;
        ASSERT_TRUE(cv::imencode(CV_MAT_CN(type) == 1 ? ".pgm" : ".ppm", img, file));
        const Decoded got = readPnm(file, {});
        EXPECT_EQ(cv::norm(got.pixels, cv::imdecode(file, cv::IMREAD_UNCHANGED), cv::NORM_INF), 0.0) << type;
    }
}

TEST(Pnm, AsciiAndBitmapFormsWithComments)
{
    const Decoded grey = readPnm(bytesOf("P2\n# a comment\n3 1\n9\n0 4 9\n"), {});
    ASSERT_EQ(grey.pixels.type(), CV_8UC1);
    EXPECT_EQ(grey.pixels.at<std::uint8_t>(0, 2), 9);
    const Decoded colour = readPnm(bytesOf("P3 1 1 255 10 20 30"), {});
    EXPECT_EQ(colour.pixels.at<cv::Vec3b>(0, 0), cv::Vec3b(30, 20, 10));
    const Decoded bits = readPnm(bytesOf("P1\n2 1\n1 0\n"), {});
    EXPECT_EQ(bits.pixels.at<std::uint8_t>(0, 0), 0);    // ink
    EXPECT_EQ(bits.pixels.at<std::uint8_t>(0, 1), 255);  // paper
}

TEST(Pnm, DamagedFilesAreRefusedWithAReason)
{
    EXPECT_THROW(readPnm(bytesOf("P5\n4 4\n255\nab"), {}), CodecError);          // cut short
    EXPECT_THROW(readPnm(bytesOf("P2\n2 1\n9\n3 12\n"), {}), CodecError);        // above maxval
    EXPECT_THROW(readPnm(bytesOf("P5\n99999999999 4\n255\n"), {}), CodecError);  // size
    EXPECT_THROW(readPnm(bytesOf("P6\n4 4\n0\n"), {}), CodecError);              // maxval 0
    DecodeBudget small;
    small.maxPixels = 10;
    EXPECT_THROW(readPnm(bytesOf("P5\n4 4\n255\n0123456789abcdef"), small), CodecError);
}

}  // namespace
}  // namespace tessera::app::codec
