// SPDX-License-Identifier: Apache-2.0
// The depth a file will have once read, from its header alone, agrees with what readImage()
// decodes for every format and depth Tessera writes; a header that does not say gives nothing.

#include "app/io/image_io.h"
#include "app/io/sample_depth.h"
#include "image_io_test_support.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>

#include <fstream>
#include <sstream>
#include <string>

using namespace tessera::test::image_io;

TEST(SampleDepthSniff, AgreesWithTheDecoderForEveryWrittenFormat)
{
    struct Case {
        const char* ext;
        int depth;
        int channels;
    };
    const Case cases[] = {
        {".png", CV_8U, 1}, {".png", CV_8U, 4},  {".png", CV_16U, 1}, {".png", CV_16U, 3}, {".tif", CV_8U, 1},
        {".tif", CV_8U, 3}, {".tif", CV_16U, 1}, {".tif", CV_16U, 4}, {".tif", CV_32F, 1}, {".tif", CV_32F, 3},
        {".jpg", CV_8U, 3}, {".bmp", CV_8U, 3},  {".webp", CV_8U, 3}, {".exr", CV_32F, 3},
    };
    TempDir dir;
    int n = 0;
    for (const Case& c : cases) {
        const std::string path = dir.file("d" + std::to_string(n++) + c.ext);
        SCOPED_TRACE(path);
        tessera::app::writeImage(path, randomImage(c.depth, c.channels));
        const std::optional<int> sniffed = tessera::app::sniffSampleDepth(path);
        ASSERT_TRUE(sniffed.has_value());
        EXPECT_EQ(*sniffed, c.depth);
        EXPECT_EQ(*sniffed, tessera::app::readImage(path).depth());
    }
}

TEST(SampleDepthSniff, NothingWhenTheHeaderDoesNotSay)
{
    EXPECT_FALSE(tessera::app::sniffSampleDepth(std::string("/nonexistent/x.png")).has_value());
    std::istringstream text("not an image at all");
    EXPECT_FALSE(tessera::app::sniffSampleDepth(text).has_value());
    // A PNG cut inside its signature, and one whose header names 4-bit samples as 12.
    std::istringstream cut(std::string("\x89PNG\r\n", 6));
    EXPECT_FALSE(tessera::app::sniffSampleDepth(cut).has_value());
    std::string png("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\0\x10\0\0\0\x10\x0c\0\0\0\0", 29);
    std::istringstream odd(png);
    EXPECT_FALSE(tessera::app::sniffSampleDepth(odd).has_value());
    png[24] = 8;
    std::istringstream eight(png);
    EXPECT_EQ(tessera::app::sniffSampleDepth(eight), CV_8U);
}
