// SPDX-License-Identifier: Apache-2.0
// The WebP codec against OpenCV 4.6's reader (the same libwebp decoder: identical pixels), its
// lossless and lossy writer, its metadata chunks and its refusals.
#include "app/io/codec/codec.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <webp/encode.h>
#include <webp/mux.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace tessera::app::codec {
namespace {

using Bytes = std::vector<std::uint8_t>;

cv::Mat randomImage(int rows, int cols, int type, unsigned seed)
{
    cv::Mat m(rows, cols, type);
    cv::RNG rng(seed);
    rng.fill(m, cv::RNG::UNIFORM, 0, 256);
    return m;
}

bool samePixels(const cv::Mat& a, const cv::Mat& b)
{
    return a.type() == b.type() && a.size() == b.size() && (a.empty() || cv::norm(a, b, cv::NORM_INF) == 0);
}

Bytes writeWith(const cv::Mat& img, int quality, const ImageMetadata* metadata = nullptr)
{
    EncodeOptions options;
    options.webpQuality = quality;
    MetadataWritten written;
    return writeWebp(img, metadata, options, written);
}

std::string reasonOf(std::span<const std::uint8_t> file, const DecodeBudget& budget = {})
{
    try {
        readWebp(file, budget);
    } catch (const CodecError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(WebpCodec, DecodesAsOpenCvDoes)
{
    int files = 0;
    for (const cv::Size size : {cv::Size(1, 1), cv::Size(1, 9), cv::Size(9, 1), cv::Size(33, 17), cv::Size(64, 47)}) {
        for (const int type : {CV_8UC1, CV_8UC3, CV_8UC4}) {
            for (const int quality : {101, 80, 5}) {
                const cv::Mat img = randomImage(size.height, size.width, type, unsigned(files + 1));
                std::vector<Bytes> encoded{writeWith(img, quality)};
                Bytes byOpenCv;
                ASSERT_TRUE(cv::imencode(".webp", img, byOpenCv, {cv::IMWRITE_WEBP_QUALITY, quality}));
                encoded.push_back(byOpenCv);
                for (const Bytes& file : encoded) {
                    const cv::Mat reference = cv::imdecode(file, cv::IMREAD_UNCHANGED);
                    ASSERT_FALSE(reference.empty());
                    const Decoded decoded = readWebp(file, {});
                    EXPECT_EQ(decoded.pixels.channels(), type == CV_8UC4 ? 4 : 3);
                    EXPECT_TRUE(samePixels(decoded.pixels, reference))
                        << size << " type " << type << " quality " << quality;
                    EXPECT_FALSE(decoded.upright);
                    ++files;
                }
            }
        }
    }
    EXPECT_EQ(files, 90);
}

TEST(WebpCodec, LosslessKeepsEveryPixelAndTheColourUnderTransparency)
{
    cv::Mat img = randomImage(31, 45, CV_8UC4, 7);
    // Half of the pixels fully transparent, with colours a later step may still show.
    for (int y = 0; y < img.rows; ++y) {
        for (int x = 0; x < img.cols; x += 2) {
            img.at<cv::Vec4b>(y, x)[3] = 0;
        }
    }
    const Decoded decoded = readWebp(writeWith(img, 101), {});
    EXPECT_TRUE(samePixels(decoded.pixels, img));

    const cv::Mat colour = randomImage(17, 3, CV_8UC3, 8);
    EXPECT_TRUE(samePixels(readWebp(writeWith(colour, 101), {}).pixels, colour));
}

TEST(WebpCodec, LossyKeepsColourUnderTransparency)
{
    cv::Mat img(32, 32, CV_8UC4, cv::Scalar(40, 160, 220, 0));
    const cv::Mat decoded = readWebp(writeWith(img, 90), {}).pixels;
    ASSERT_EQ(decoded.type(), CV_8UC4);
    const cv::Scalar mean = cv::mean(decoded);
    EXPECT_NEAR(mean[0], 40, 6);
    EXPECT_NEAR(mean[1], 160, 6);
    EXPECT_NEAR(mean[2], 220, 6);
    EXPECT_EQ(mean[3], 0);
}

TEST(WebpCodec, GreyIsWrittenAsThreeEqualChannels)
{
    const cv::Mat grey = randomImage(5, 12, CV_8UC1, 9);
    const cv::Mat decoded = readWebp(writeWith(grey, 101), {}).pixels;
    ASSERT_EQ(decoded.type(), CV_8UC3);
    std::vector<cv::Mat> planes;
    cv::split(decoded, planes);
    for (const cv::Mat& plane : planes) {
        EXPECT_TRUE(samePixels(plane, grey));
    }
}

TEST(WebpCodec, WriterRefusesWhatWebpCannotHold)
{
    MetadataWritten written;
    EXPECT_THROW(writeWebp(cv::Mat(4, 4, CV_16UC3, cv::Scalar::all(0)), nullptr, {}, written), CodecError);
    EXPECT_THROW(writeWebp(cv::Mat(4, 4, CV_8UC2, cv::Scalar::all(0)), nullptr, {}, written), CodecError);
    EXPECT_THROW(writeWebp(cv::Mat(), nullptr, {}, written), CodecError);
    try {
        writeWebp(cv::Mat(1, 16384, CV_8UC3, cv::Scalar::all(0)), nullptr, {}, written);
        FAIL() << "a width over WebP's limit was written";
    } catch (const CodecError& e) {
        EXPECT_NE(std::string(e.what()).find("16383"), std::string::npos) << e.what();
    }
}

TEST(WebpCodec, TruncatedAndCorruptFilesAreErrors)
{
    for (const int quality : {101, 75}) {
        const Bytes file = writeWith(randomImage(40, 40, CV_8UC3, 3), quality);
        for (const std::size_t keep :
             {std::size_t{10}, std::size_t{40}, file.size() / 2, file.size() - 2, file.size() - 1}) {
            const std::string reason = reasonOf(std::span(file).first(keep));
            EXPECT_NE(reason.find("truncated WebP data"), std::string::npos) << keep << ": " << reason;
        }
    }
    Bytes garbage(200, 0x5a);
    EXPECT_EQ(reasonOf(garbage), "not a WebP file, or its header is corrupt");
    // A damaged bitstream behind a good header.
    Bytes file = writeWith(randomImage(40, 40, CV_8UC3, 4), 101);
    for (std::size_t i = 40; i < file.size(); i += 3) {
        file[i] = std::uint8_t(file[i] ^ 0xa5);
    }
    const std::string reason = reasonOf(file);
    EXPECT_NE(reason, "(no error)");
    EXPECT_EQ(reason.find('\n'), std::string::npos);
}

TEST(WebpCodec, SizeIsCheckedBeforeDecodingAndCancelStops)
{
    const Bytes file = writeWith(randomImage(60, 50, CV_8UC3, 5), 101);
    DecodeBudget small;
    small.maxPixels = 2999;
    EXPECT_EQ(reasonOf(file, small), "50 x 60 (3000 pixels) exceeds the limit of 2999 pixels");
    std::atomic<bool> cancel{true};
    DecodeBudget cancelled;
    cancelled.cancel = &cancel;
    EXPECT_THROW(readWebp(file, cancelled), DecodeCancelled);
}

TEST(WebpCodec, AnimationsAreRefusedAsOpenCvDid)
{
    WebPAnimEncoderOptions options;
    ASSERT_TRUE(WebPAnimEncoderOptionsInit(&options));
    WebPAnimEncoder* encoder = WebPAnimEncoderNew(16, 16, &options);
    ASSERT_NE(encoder, nullptr);
    WebPConfig config;
    ASSERT_TRUE(WebPConfigInit(&config));
    config.lossless = 1;
    for (int frame = 0; frame < 3; ++frame) {
        const cv::Mat img = randomImage(16, 16, CV_8UC4, unsigned(20 + frame));
        WebPPicture picture;
        ASSERT_TRUE(WebPPictureInit(&picture));
        picture.width = 16;
        picture.height = 16;
        picture.use_argb = 1;
        ASSERT_TRUE(WebPPictureImportBGRA(&picture, img.data, int(img.step)));
        ASSERT_TRUE(WebPAnimEncoderAdd(encoder, &picture, frame * 100, &config));
        WebPPictureFree(&picture);
    }
    ASSERT_TRUE(WebPAnimEncoderAdd(encoder, nullptr, 300, nullptr));
    WebPData data;
    WebPDataInit(&data);
    ASSERT_TRUE(WebPAnimEncoderAssemble(encoder, &data));
    WebPAnimEncoderDelete(encoder);
    const Bytes file(data.bytes, data.bytes + data.size);
    WebPDataClear(&data);

    EXPECT_EQ(reasonOf(file), "animated WebP (3 frames): Tessera reads still images");
    // OpenCV 4.6 gave no image for it either.
    EXPECT_TRUE(cv::imdecode(file, cv::IMREAD_UNCHANGED).empty());
}

TEST(WebpCodec, DecodesInParallel)
{
    std::vector<Bytes> files;
    std::vector<cv::Mat> images;
    for (int i = 0; i < 4; ++i) {
        images.push_back(randomImage(64 + i, 80, i % 2 ? CV_8UC4 : CV_8UC3, unsigned(30 + i)));
        files.push_back(writeWith(images.back(), 101));
    }
    std::vector<int> ok(files.size(), 0);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < files.size(); ++i) {
        threads.emplace_back([&, i] {
            for (int round = 0; round < 20; ++round) {
                ok[i] += samePixels(readWebp(files[i], {}).pixels, images[i]) ? 1 : 0;
            }
        });
    }
    for (std::thread& t : threads) {
        t.join();
    }
    for (const int count : ok) {
        EXPECT_EQ(count, 20);
    }
}

}  // namespace
}  // namespace tessera::app::codec
