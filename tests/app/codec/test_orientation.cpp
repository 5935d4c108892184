// SPDX-License-Identifier: Apache-2.0
#include "app/io/codec/codec.h"
#include "app/io/orientation.h"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>

namespace tessera::app {
namespace {

// What EXIF orientation N means, written with OpenCV's own flips and rotations.
cv::Mat reference(const cv::Mat& img, int orientation)
{
    cv::Mat out;
    switch (orientation) {
    case 2: cv::flip(img, out, 1); return out;
    case 3: cv::rotate(img, out, cv::ROTATE_180); return out;
    case 4: cv::flip(img, out, 0); return out;
    case 5: cv::transpose(img, out); return out;
    case 6: cv::rotate(img, out, cv::ROTATE_90_CLOCKWISE); return out;
    case 7:
        cv::transpose(img, out);
        cv::flip(out, out, -1);
        return out;
    case 8: cv::rotate(img, out, cv::ROTATE_90_COUNTERCLOCKWISE); return out;
    default: return img;
    }
}

TEST(Orientation, EveryTurnMatchesOpenCvForEveryPixelSize)
{
    cv::RNG rng(8);
    for (const int type :
         {CV_8UC1, CV_8UC3, CV_8UC4, CV_16UC1, CV_16UC3, CV_16UC4, CV_32FC1, CV_32FC3, CV_32FC4, CV_8UC2}) {
        // Sizes across block edges, thin strips and a view into a larger image.
        for (const cv::Size size :
             {cv::Size(1, 1), cv::Size(1, 70), cv::Size(130, 1), cv::Size(65, 129), cv::Size(200, 64)}) {
            cv::Mat big(size.height + 3, size.width + 5, type);
            rng.fill(big, cv::RNG::UNIFORM, 0, 255);
            const cv::Mat img = big(cv::Rect(2, 1, size.width, size.height));
            for (int orientation = 1; orientation <= 8; ++orientation) {
                const cv::Mat got = orientUpright(img, orientation);
                const cv::Mat want = reference(img, orientation);
                ASSERT_EQ(got.size(), want.size()) << orientation;
                ASSERT_EQ(got.type(), want.type());
                EXPECT_EQ(cv::norm(got, want, cv::NORM_INF), 0.0)
                    << "orientation " << orientation << " type " << type << " size " << size;
            }
        }
    }
}

TEST(Orientation, BandsPlacedOneByOneMakeTheWholeTurn)
{
    // As a decoder places its bands of rows, of any height, the last one short.
    cv::RNG rng(5);
    cv::Mat img(77, 53, CV_8UC3);
    rng.fill(img, cv::RNG::UNIFORM, 0, 255);
    for (int orientation = 1; orientation <= 8; ++orientation) {
        for (const int band : {1, 8, 16, 77}) {
            cv::Mat dst(uprightSize(img.size(), orientation), img.type(), cv::Scalar::all(0));
            for (int y = 0; y < img.rows; y += band) {
                placeRows(img.rowRange(y, std::min(y + band, img.rows)), y, img.rows, dst, orientation);
            }
            EXPECT_EQ(cv::norm(dst, reference(img, orientation), cv::NORM_INF), 0.0)
                << "orientation " << orientation << " band " << band;
        }
    }
}

TEST(Orientation, AJpegDecodedIntoItsUprightPlaceEqualsOneTurnedAfterwards)
{
    cv::Mat img(77, 53, CV_8UC3);
    cv::RNG(3).fill(img, cv::RNG::UNIFORM, 0, 255);
    codec::MetadataWritten written;
    const std::vector<std::uint8_t> file = codec::writeJpeg(img, nullptr, {}, written);
    const codec::Decoded plain = codec::readJpeg(file, {});
    EXPECT_FALSE(plain.upright);
    for (int orientation = 1; orientation <= 8; ++orientation) {
        codec::DecodeBudget budget;
        budget.orientationOf = [orientation](const ImageMetadata&) { return orientation; };
        const codec::Decoded turned = codec::readJpeg(file, budget);
        EXPECT_EQ(turned.upright, orientation != 1);
        EXPECT_EQ(cv::norm(turned.pixels, reference(plain.pixels, orientation), cv::NORM_INF), 0.0) << orientation;
    }
}

TEST(Orientation, UprightAndUnknownValuesShareThePixels)
{
    const cv::Mat img(4, 3, CV_8UC3, cv::Scalar(1, 2, 3));
    EXPECT_EQ(orientUpright(img, 1).data, img.data);
    EXPECT_EQ(orientUpright(img, 0).data, img.data);
    EXPECT_EQ(orientUpright(img, 9).data, img.data);
}

}  // namespace
}  // namespace tessera::app
