// SPDX-License-Identifier: Apache-2.0
// Which decoder reads a JPEG: a decoder handed to readImage through ImageLimits::jpegDecoder
// (here a stand-in, so no GPU is needed) is used when it gives an image of the right shape,
// and libjpeg-turbo reads the file, with the reason named, when it gives none, throws or gives
// the wrong shape. A batch asked to decode on GPUs where nvJPEG is missing writes the same
// bytes as one never asked, and says libjpeg-turbo read the files.

#include "app/batch/batch_devices.h"
#include "app/batch/batch_json.h"
#include "app/batch/batch_plan.h"
#include "app/batch/batch_runner.h"
#include "app/io/image_io.h"
#include "app/io/orientation.h"
#include "batch_test_data.h"
#include "filters/factories.h"
#include "photo_metadata.h"

#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include <cstdlib>
#include <stdexcept>

namespace tessera::app {
namespace {

using test::TempFolder;
namespace fs = std::filesystem;

constexpr const char* kName = "Stand-in GPU";

/// A picture no decoder would make of the test files: the stand-in's answer.
cv::Mat marker(int rows, int cols, int type = CV_8UC3)
{
    cv::Mat m(rows, cols, type);
    cv::randu(m, 0, 256);
    return m;
}

class JpegDecoderChoice : public ::testing::Test {
protected:
    void SetUp() override
    {
        cv::Mat photo(40, 64, CV_8UC3);
        cv::randu(photo, 0, 256);
        jpeg_ = folder_.file("photo.jpg");
        ASSERT_TRUE(cv::imwrite(jpeg_, photo));
        plain_ = readImage(jpeg_, {}, &plainMetadata_);
    }

    /// limits with the stand-in answering answer(), counting its calls.
    ImageLimits withDecoder(std::function<std::optional<cv::Mat>(std::string&)> answer)
    {
        ImageLimits limits;
        limits.jpegDecoderName = kName;
        limits.decoderUsed = &used_;
        limits.jpegDecoder = [this, answer](std::span<const std::uint8_t> file, std::string& why) {
            ++calls_;
            EXPECT_GE(file.size(), 2U);
            EXPECT_EQ(file[0], 0xFF);
            EXPECT_EQ(file[1], 0xD8) << "the decoder is handed the whole JPEG file";
            return answer(why);
        };
        return limits;
    }

    TempFolder folder_{"jpeg-choice"};
    std::string jpeg_;
    cv::Mat plain_;
    ImageMetadata plainMetadata_;
    std::string used_ = "unset";
    int calls_ = 0;
};

bool same(const cv::Mat& a, const cv::Mat& b)
{
    return a.type() == b.type() && a.size() == b.size() && cv::norm(a, b, cv::NORM_INF) == 0;
}

TEST_F(JpegDecoderChoice, ItsImageIsUsedAndNamed)
{
    const cv::Mat answer = marker(40, 64);
    ImageMetadata metadata;
    const cv::Mat got = readImage(jpeg_, withDecoder([&](std::string&) { return answer.clone(); }), &metadata);
    EXPECT_EQ(calls_, 1);
    EXPECT_TRUE(same(got, answer));
    EXPECT_FALSE(same(got, plain_));
    EXPECT_EQ(used_, kName);
}

TEST_F(JpegDecoderChoice, WithoutOneLibjpegTurboIsNamed)
{
    ImageLimits limits;
    limits.decoderUsed = &used_;
    EXPECT_TRUE(same(readImage(jpeg_, limits), plain_));
    EXPECT_EQ(used_, "libjpeg-turbo");
}

TEST_F(JpegDecoderChoice, NoImageFallsBackToLibjpegTurboWithTheReason)
{
    const cv::Mat got = readImage(jpeg_, withDecoder([](std::string& why) -> std::optional<cv::Mat> {
                                      why = "CMYK JPEG (4 components)";
                                      return std::nullopt;
                                  }));
    EXPECT_EQ(calls_, 1);
    EXPECT_TRUE(same(got, plain_));
    EXPECT_EQ(used_, std::string("libjpeg-turbo (") + kName + ": CMYK JPEG (4 components))");
}

TEST_F(JpegDecoderChoice, AnExceptionFallsBackToLibjpegTurboWithItsText)
{
    const cv::Mat got = readImage(jpeg_, withDecoder([](std::string&) -> std::optional<cv::Mat> {
                                      throw std::runtime_error("the device fell off the bus");
                                  }));
    EXPECT_TRUE(same(got, plain_));
    EXPECT_EQ(used_, std::string("libjpeg-turbo (") + kName + ": failed: the device fell off the bus)");
}

TEST_F(JpegDecoderChoice, AnImageOfAnotherShapeIsNotUsed)
{
    cv::Mat got = readImage(jpeg_, withDecoder([](std::string&) { return marker(10, 10); }));
    EXPECT_TRUE(same(got, plain_));
    EXPECT_EQ(used_, std::string("libjpeg-turbo (") + kName + ": gave a 10 x 10 u8x3 image for a 64 x 40 JPEG)");
    got = readImage(jpeg_, withDecoder([](std::string&) { return marker(40, 64, CV_8UC4); }));
    EXPECT_TRUE(same(got, plain_));
    EXPECT_EQ(used_, std::string("libjpeg-turbo (") + kName + ": gave a 64 x 40 u8x4 image for a 64 x 40 JPEG)");
    got = readImage(jpeg_, withDecoder([](std::string&) { return cv::Mat(40, 64, CV_16UC3, cv::Scalar::all(7)); }));
    EXPECT_TRUE(same(got, plain_));
    EXPECT_EQ(calls_, 3);
}

TEST_F(JpegDecoderChoice, ItsImageIsTurnedUprightAndTheMetadataReadAsForLibjpeg)
{
    const std::string tagged = folder_.file("turned.jpg");
    test::writeTaggedPhoto(tagged, 6);
    ImageMetadata plainMetadata;
    const cv::Mat plain = readImage(tagged, {}, &plainMetadata);
    ASSERT_EQ(plain.size(), cv::Size(40, 64)) << "orientation 6 turns the 64 x 40 photo upright";

    const cv::Mat answer = marker(40, 64);
    ImageMetadata metadata;
    const cv::Mat got = readImage(tagged, withDecoder([&](std::string&) { return answer.clone(); }), &metadata);
    EXPECT_EQ(used_, kName);
    EXPECT_TRUE(same(got, orientUpright(answer, 6)));
    EXPECT_EQ(metadata.orientation, 6);
    EXPECT_EQ(metadata.exif, plainMetadata.exif);
    EXPECT_EQ(metadata.xmp, plainMetadata.xmp);
    EXPECT_EQ(metadata.icc, plainMetadata.icc);
    EXPECT_FALSE(metadata.icc.empty());

    // Handing back what libjpeg-turbo decodes before turning gives libjpeg-turbo's result.
    used_.clear();
    const cv::Mat stored = orientUpright(plain, 8);  // 8 undoes 6
    const cv::Mat same6 = readImage(tagged, withDecoder([&](std::string&) { return stored.clone(); }));
    EXPECT_TRUE(same(same6, plain));
}

TEST_F(JpegDecoderChoice, OtherFormatsNeverReachItAndNameTheirLibrary)
{
    const std::string png = folder_.file("photo.png");
    ASSERT_TRUE(cv::imwrite(png, plain_));
    EXPECT_TRUE(same(readImage(png, withDecoder([](std::string&) { return marker(40, 64); })), plain_));
    EXPECT_EQ(calls_, 0);
    EXPECT_EQ(used_, "libpng");
}

TEST_F(JpegDecoderChoice, TheHeaderChecksComeFirst)
{
    std::string bytes = test::readBytes(jpeg_);
    bytes.resize(bytes.size() - 2);  // no end-of-image marker
    const std::string cut = folder_.file("cut.jpg");
    test::writeBytes(cut, bytes);
    EXPECT_THROW(readImage(cut, withDecoder([](std::string&) { return marker(40, 64); })), ImageError);
    ImageLimits small = withDecoder([](std::string&) { return marker(40, 64); });
    small.maxWidth = 32;
    EXPECT_THROW(readImage(jpeg_, small), ImageError);
    EXPECT_EQ(calls_, 0);
}

TEST_F(JpegDecoderChoice, ACancelDuringItsDecodeStopsTheRead)
{
    std::atomic<bool> cancel{false};
    ImageLimits limits = withDecoder([&](std::string&) {
        cancel = true;
        return marker(40, 64);
    });
    limits.cancel = &cancel;
    EXPECT_THROW(readImage(jpeg_, limits), ImageReadCancelled);
}

TEST(JpegDecoderBatch, WithoutNvjpegTheOutputsAreTheSameBytesAndLibjpegTurboIsNamed)
{
    // Before the process's first search for nvJPEG, so that this holds where it is installed.
    ::setenv("TESSERA_NVJPEG_LIBRARY", "/nonexistent/libnvjpeg.so.13", 1);
    TempFolder in("jpeg-batch-in");
    TempFolder out("jpeg-batch-out");
    cv::RNG rng(static_cast<std::uint64_t>(std::random_device{}()));
    for (int i = 0; i < 5; ++i) {
        cv::Mat img(30 + i * 7, 41 + i * 5, i == 2 ? CV_8UC1 : CV_8UC3);
        rng.fill(img, cv::RNG::UNIFORM, 0, 256);
        ASSERT_TRUE(cv::imwrite(in.file("p" + std::to_string(i) + ".jpg"), img));
    }
    ASSERT_TRUE(cv::imwrite(in.file("q.png"), cv::Mat(9, 9, CV_8UC3, cv::Scalar(1, 2, 3))));

    BatchJob job;
    job.inputs = {in.path().string()};
    job.nameTemplate = "{stem}";
    job.format = "png";
    job.chain = {{filters::makeGaussian(1.0, 5)}};
    job.jobs = 2;
    std::atomic<bool> never{false};
    job.outputDir = out.file("cpu");
    const BatchSummary plain = runBatch(planBatch(job), job, {cpuProcessor()}, never);
    job.outputDir = out.file("asked");
    job.jpegGpus = {values::DeviceId(0), values::DeviceId(1)};
    const BatchSummary asked = runBatch(planBatch(job), job, {cpuProcessor()}, never);

    ASSERT_EQ(plain.ok, 6);
    ASSERT_EQ(asked.ok, 6);
    for (std::size_t i = 0; i < asked.files.size(); ++i) {
        const FileResult& a = asked.files[i];
        const FileResult& p = plain.files[i];
        SCOPED_TRACE(a.input);
        EXPECT_EQ(test::readBytes(a.output), test::readBytes(p.output)) << "the outputs differ";
        const bool isJpeg = a.input.ends_with(".jpg");
        EXPECT_EQ(p.decoder, isJpeg ? "libjpeg-turbo" : "libpng");
        if (isJpeg) {
            EXPECT_EQ(a.decoder.rfind("libjpeg-turbo (nvJPEG: GPU JPEG decoding unavailable: libnvjpeg.so.13 or "
                                      "libnvjpeg.so.12 not found (tried /nonexistent/libnvjpeg.so.13",
                                      0),
                      0U)
                << a.decoder;
        } else {
            EXPECT_EQ(a.decoder, "libpng");
        }
        EXPECT_EQ(fileResultJson(a)["decoder"], a.decoder);
    }
}

}  // namespace
}  // namespace tessera::app
