// SPDX-License-Identifier: Apache-2.0
// The encoder choices as the command line, Python and the settings write them.
#include "values/encode_options.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace tessera::values {
namespace {

using C = EncodeOptions::TiffCompression;

TEST(EncodeOptions, TheDefaultsAreJpeg92Png6TiffLzwWebpLossless)
{
    const EncodeOptions o;
    EXPECT_EQ(o.jpegQuality, 92);
    EXPECT_EQ(o.pngCompression, 6);
    EXPECT_EQ(o.tiffCompression, C::Lzw);
    EXPECT_GT(o.webpQuality, 100);
}

TEST(EncodeOptions, FormatsComeFromTheExtensionInAnyCase)
{
    EXPECT_EQ(encodedFormatOf("a/b.JPG"), EncodedFormat::Jpeg);
    EXPECT_EQ(encodedFormatOf("b.jpeg"), EncodedFormat::Jpeg);
    EXPECT_EQ(encodedFormatOf("b.Png"), EncodedFormat::Png);
    EXPECT_EQ(encodedFormatOf("b.tiff"), EncodedFormat::Tiff);
    EXPECT_EQ(encodedFormatOf("b.webp"), EncodedFormat::Webp);
    EXPECT_EQ(encodedFormatOf("b.exr"), EncodedFormat::Other);
    EXPECT_EQ(encodedFormatOf("dir.png/file"), EncodedFormat::Other);
}

TEST(EncodeOptions, QualitySetsJpegAndLossyWebpOrLosslessWebp)
{
    EncodeOptions o;
    setQuality(o, "75");
    EXPECT_EQ(o.jpegQuality, 75);
    EXPECT_EQ(o.webpQuality, 75);
    EXPECT_EQ(describeEncoding(EncodedFormat::Jpeg, o), "JPEG quality 75");
    EXPECT_EQ(describeEncoding(EncodedFormat::Webp, o), "WebP quality 75");
    setQuality(o, "Lossless");
    EXPECT_EQ(o.jpegQuality, 75);
    EXPECT_EQ(describeEncoding(EncodedFormat::Webp, o), "WebP lossless");
    EXPECT_EQ(qualityText(o, EncodedFormat::Webp), "lossless");
    for (const char* bad : {"0", "101", "9.5", "", "high", "75 "}) {
        EXPECT_THROW(setQuality(o, bad), std::invalid_argument) << bad;
    }
    EXPECT_EQ(o.jpegQuality, 75);
}

TEST(EncodeOptions, CompressionSetsThePngLevelOrTheTiffScheme)
{
    EncodeOptions o;
    setCompression(o, "9");
    EXPECT_EQ(o.pngCompression, 9);
    EXPECT_EQ(compressionText(o, EncodedFormat::Png), "9");
    setCompression(o, "DEFLATE");
    EXPECT_EQ(o.tiffCompression, C::Deflate);
    EXPECT_EQ(describeEncoding(EncodedFormat::Tiff, o), "TIFF with Deflate compression");
    setCompression(o, "none");
    EXPECT_EQ(compressionText(o, EncodedFormat::Tiff), "none");
    EXPECT_EQ(describeEncoding(EncodedFormat::Png, o), "PNG compression level 9");
    for (const char* bad : {"10", "-1", "jpeg", "", "lzw2"}) {
        EXPECT_THROW(setCompression(o, bad), std::invalid_argument) << bad;
    }
    EXPECT_EQ(describeEncoding(EncodedFormat::Other, o), "");
}

}  // namespace
}  // namespace tessera::values
