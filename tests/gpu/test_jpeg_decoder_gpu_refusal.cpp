// SPDX-License-Identifier: Apache-2.0
// The GPU JPEG decoder's parts that need no GPU: which files it takes (from their headers
// alone), what opening it says where nvJPEG is missing, and the fault hook's wording.

#include "tessera/gpu/jpeg_decoder_gpu.h"

#include "jpeg_test_files.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace tessera::gpu {
namespace {

using testing::encodeJpeg;
using testing::frameHeaderAt;
using testing::JpegChoice;
using testing::photoLike;

std::span<const std::uint8_t> bytes(const std::vector<std::uint8_t>& v)
{
    return {v.data(), v.size()};
}

TEST(GpuJpegRefusal, TakesBaselineProgressiveGreyAnd444)
{
    const cv::Mat colour = photoLike(67, 91);
    EXPECT_EQ(gpuJpegRefusal(bytes(encodeJpeg(colour))), "");
    EXPECT_EQ(gpuJpegRefusal(bytes(encodeJpeg(colour, {.progressive = true}))), "");
    EXPECT_EQ(gpuJpegRefusal(bytes(encodeJpeg(colour, {.full444 = true}))), "");
    EXPECT_EQ(gpuJpegRefusal(bytes(encodeJpeg(photoLike(67, 91, true)))), "");
}

TEST(GpuJpegEngines, TakeBaselineSingleScanFilesOnly)
{
    const cv::Mat colour = photoLike(67, 91);
    EXPECT_TRUE(gpuJpegForEngines(bytes(encodeJpeg(colour))));
    EXPECT_TRUE(gpuJpegForEngines(bytes(encodeJpeg(colour, {.full444 = true}))));
    EXPECT_TRUE(gpuJpegForEngines(bytes(encodeJpeg(photoLike(67, 91, true)))));
    EXPECT_FALSE(gpuJpegForEngines(bytes(encodeJpeg(colour, {.progressive = true}))));
    EXPECT_FALSE(gpuJpegForEngines(bytes(encodeJpeg(colour, {.cmyk = true}))));
    std::vector<std::uint8_t> cut = encodeJpeg(colour);
    cut.resize(frameHeaderAt(cut) + 4);  // the frame header's start: no frame read, no scan
    EXPECT_FALSE(gpuJpegForEngines(bytes(cut)));
}

TEST(GpuJpegRefusal, RefusesWhatLibjpegWouldDecodeDifferently)
{
    const cv::Mat colour = photoLike(40, 56);
    EXPECT_EQ(gpuJpegRefusal(bytes(encodeJpeg(colour, {.cmyk = true}))), "CMYK JPEG (4 components)");
    EXPECT_EQ(gpuJpegRefusal(bytes(encodeJpeg(colour, {.storeRgb = true}))),
              "RGB JPEG stored without the colour transform (Adobe)");
}

TEST(GpuJpegRefusal, ReadsTheFrameHeadersKindAndPrecision)
{
    const std::vector<std::uint8_t> good = encodeJpeg(photoLike(32, 48));
    const std::size_t sof = frameHeaderAt(good);
    auto patched = [&](std::size_t at, std::uint8_t value) {
        std::vector<std::uint8_t> f = good;
        f[at] = value;
        return gpuJpegRefusal(bytes(f));
    };
    EXPECT_EQ(patched(sof + 1, 0xC9), "arithmetic-coded JPEG");
    EXPECT_EQ(patched(sof + 1, 0xCA), "arithmetic-coded JPEG");
    EXPECT_EQ(patched(sof + 1, 0xC3), "lossless JPEG");
    EXPECT_EQ(patched(sof + 1, 0xC5), "hierarchical JPEG");
    EXPECT_EQ(patched(sof + 1, 0xC1), "") << "extended sequential Huffman is decoded like baseline";
    EXPECT_EQ(patched(sof + 4, 12), "12-bit JPEG");
    EXPECT_EQ(patched(sof + 4, 16), "16-bit JPEG");
    std::vector<std::uint8_t> dnl = good;
    dnl[sof + 5] = 0;
    dnl[sof + 6] = 0;
    EXPECT_EQ(gpuJpegRefusal(bytes(dnl)), "JPEG whose height is given after the first scan (DNL)");
}

TEST(GpuJpegRefusal, ComponentsNamedRgbWithoutJfifAreRgb)
{
    std::vector<std::uint8_t> f = encodeJpeg(photoLike(16, 16));
    ASSERT_EQ(f[2], 0xFF);
    ASSERT_EQ(f[3], 0xE0) << "libjpeg writes a JFIF segment first";
    // Turn the JFIF segment into a comment and name the components R, G, B.
    f[3] = 0xFE;
    const std::size_t sof = frameHeaderAt(f);
    f[sof + 10] = 'R';
    f[sof + 13] = 'G';
    f[sof + 16] = 'B';
    EXPECT_EQ(gpuJpegRefusal(bytes(f)), "RGB JPEG (components named R, G, B)");
    f[3] = 0xE0;  // with JFIF the names do not matter: libjpeg reads YCbCr
    EXPECT_EQ(gpuJpegRefusal(bytes(f)), "");
}

TEST(GpuJpegRefusal, DamagedOrForeignBytesAreRefusedNotRead)
{
    EXPECT_EQ(gpuJpegRefusal({}), "not a JPEG file");
    const std::vector<std::uint8_t> png{0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    EXPECT_EQ(gpuJpegRefusal(bytes(png)), "not a JPEG file");
    const std::vector<std::uint8_t> cut{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x40, 'J'};
    EXPECT_EQ(gpuJpegRefusal(bytes(cut)), "damaged marker segment");
    const std::vector<std::uint8_t> scanFirst{0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02};
    EXPECT_EQ(gpuJpegRefusal(bytes(scanFirst)), "no frame header before the first scan");
    std::vector<std::uint8_t> good = encodeJpeg(photoLike(16, 16));
    good.resize(frameHeaderAt(good));
    EXPECT_EQ(gpuJpegRefusal(bytes(good)), "no frame header");
}

TEST(GpuJpegDecoderOpen, WithoutNvjpegSaysWhyAndGivesNothing)
{
    // Before the process's first search, so that this holds on machines with nvJPEG too.
    ::setenv("TESSERA_NVJPEG_LIBRARY", "/nonexistent/libnvjpeg.so.13", 1);
    std::string why;
    const std::shared_ptr<GpuJpegDecoder> decoder = GpuJpegDecoder::open(DeviceId(0), why);
    EXPECT_EQ(decoder, nullptr);
    EXPECT_EQ(why.rfind("GPU JPEG decoding unavailable: libnvjpeg.so.13 or libnvjpeg.so.12 not found (tried "
                        "/nonexistent/libnvjpeg.so.13 (from TESSERA_NVJPEG_LIBRARY))",
                        0),
              0U)
        << why;
}

}  // namespace
}  // namespace tessera::gpu
