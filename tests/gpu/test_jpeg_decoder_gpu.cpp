// SPDX-License-Identifier: Apache-2.0
// nvJPEG on a GPU against libjpeg-turbo (Tessera's codec layer, the CPU reference) on
// photo-like pictures: baseline 4:2:0, 4:4:4, grey, progressive and odd sizes. Skips where
// there is no GPU or no nvJPEG. The measured differences are printed for every case.
//
// Bounds: the two decoders share the entropy decoding (lossless) and differ in arithmetic:
// libjpeg-turbo's ISLOW IDCT is 13-bit fixed point, nvJPEG's is its own, and each rounds the
// YCbCr to BGR conversion and the chroma upsampling (both interpolate: libjpeg-turbo's "fancy"
// filter, nvJPEG with NVJPEG_FLAGS_UPSAMPLING_WITH_INTERPOLATION) its own way. That moves a
// sample by a level or two, at most three, hence max abs 3 and mean abs 0.5 per case. Measured
// on an H200 with nvJPEG 13.0.1: baseline 4:2:0 max 1 (mean 0.0001), 4:4:4 and grey 0 (exact),
// progressive max 3 (mean 0.03 to 0.04).

#include "tessera/gpu/jpeg_decoder_gpu.h"

#include "app/io/codec/codec.h"
#include "app/io/image_io.h"
#include "jpeg_test_files.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <unistd.h>

namespace tessera::gpu {
namespace {

using testing::encodeJpeg;
using testing::JpegChoice;
using testing::photoLike;

std::span<const std::uint8_t> bytes(const std::vector<std::uint8_t>& v)
{
    return {v.data(), v.size()};
}

/// GPU 0's decoder, or null after GTEST_SKIP's message is set in skipWhy.
std::shared_ptr<GpuJpegDecoder> openOrSkipReason(std::string& skipWhy)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        skipWhy = "no CUDA device";
        return nullptr;
    }
    std::shared_ptr<GpuJpegDecoder> d = GpuJpegDecoder::open(DeviceId(0), skipWhy);
    return d;
}

#define OPEN_OR_SKIP(decoder)                                                                                          \
    std::string skipWhy_;                                                                                              \
    const std::shared_ptr<GpuJpegDecoder> decoder = openOrSkipReason(skipWhy_);                                        \
    if (!(decoder)) {                                                                                                  \
        GTEST_SKIP() << skipWhy_;                                                                                      \
    }

cv::Mat libjpegTurbo(const std::vector<std::uint8_t>& file)
{
    return app::codec::readJpeg(bytes(file), {}).pixels;
}

struct Difference {
    std::vector<int> maxPerChannel;
    double mean = 0;
    double overThree = 0;  ///< share of samples more than 3 apart
};

Difference compare(const cv::Mat& a, const cv::Mat& b)
{
    cv::Mat d;
    cv::absdiff(a, b, d);
    Difference out;
    std::vector<cv::Mat> planes;
    cv::split(d, planes);
    for (const cv::Mat& p : planes) {
        double mx = 0;
        cv::minMaxLoc(p, nullptr, &mx);
        out.maxPerChannel.push_back(static_cast<int>(mx));
    }
    out.mean = cv::mean(d.reshape(1))[0];
    cv::Mat over = d.reshape(1) > 3;
    out.overThree = static_cast<double>(cv::countNonZero(over)) / static_cast<double>(d.total() * d.channels());
    return out;
}

struct Case {
    const char* name;
    int rows;
    int cols;
    bool grey;
    JpegChoice choice;
};

/// GPU 0's decoder with the decode engines turned off by the variable.
std::shared_ptr<GpuJpegDecoder> openWithoutEngines(std::string& why)
{
    ::setenv(kNvjpegHardwareVariable, "0", 1);
    std::shared_ptr<GpuJpegDecoder> d = GpuJpegDecoder::open(DeviceId(0), why);
    ::unsetenv(kNvjpegHardwareVariable);
    return d;
}

void expectWithinTheBounds(GpuJpegDecoder& decoder)
{
    std::printf("%s\n", decoder.describe().c_str());
    const Case cases[] = {
        {"baseline 4:2:0 q90 1920x1080", 1080, 1920, false, {}},
        {"baseline 4:2:0 q75 odd 4001x2999", 2999, 4001, false, {.quality = 75}},
        {"baseline 4:4:4 q95 1023x769", 769, 1023, false, {.quality = 95, .full444 = true}},
        {"grey q90 1001x667", 667, 1001, true, {}},
        {"progressive 4:2:0 q90 1500x1001", 1001, 1500, false, {.progressive = true}},
        {"progressive 4:4:4 q85 33x17", 17, 33, false, {.quality = 85, .progressive = true, .full444 = true}},
        {"progressive grey 999x7", 7, 999, true, {.progressive = true}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const std::vector<std::uint8_t> file = encodeJpeg(photoLike(c.rows, c.cols, c.grey), c.choice);
        const cv::Mat want = libjpegTurbo(file);
        std::string why;
        const std::size_t enginesBefore = decoder.hardwareDecodes();
        const std::optional<cv::Mat> got = decoder.decode(bytes(file), why);
        ASSERT_TRUE(got.has_value()) << why;
        const bool onEngines = decoder.hardwareDecodes() > enginesBefore;
        ASSERT_EQ(got->type(), c.grey ? CV_8UC1 : CV_8UC3);
        ASSERT_EQ(got->type(), want.type());
        ASSERT_EQ(got->size(), want.size());
        const Difference d = compare(*got, want);
        std::string maxText;
        for (int m : d.maxPerChannel) {
            maxText += (maxText.empty() ? "" : ",") + std::to_string(m);
        }
        std::printf("%-36s %-8s max abs per channel (B,G,R) %s  mean abs %.4f  share > 3: %.5f%%\n", c.name,
                    onEngines ? "engines" : "default", maxText.c_str(), d.mean, 100.0 * d.overThree);
        EXPECT_LE(d.mean, 0.5);
        for (int m : d.maxPerChannel) {
            EXPECT_LE(m, 3);
        }
    }
}

TEST(GpuJpegDecoderGpu, MatchesLibjpegTurboWithinTheBounds)
{
    OPEN_OR_SKIP(decoder);
    expectWithinTheBounds(*decoder);
}

TEST(GpuJpegDecoderGpu, MatchesLibjpegTurboWithinTheBoundsWithoutTheEngines)
{
    OPEN_OR_SKIP(withEngines);
    std::string why;
    const std::shared_ptr<GpuJpegDecoder> decoder = openWithoutEngines(why);
    ASSERT_TRUE(decoder) << why;
    EXPECT_FALSE(decoder->hasHardwareDecoder());
    EXPECT_NE(decoder->describe().find("turned off by TESSERA_NVJPEG_HARDWARE=0"), std::string::npos)
        << decoder->describe();
    expectWithinTheBounds(*decoder);
    EXPECT_EQ(decoder->hardwareDecodes(), 0U);
}

TEST(GpuJpegDecoderGpu, BaselineJpegsGoToTheEnginesAndProgressiveOnesDoNot)
{
    OPEN_OR_SKIP(decoder);
    if (!decoder->hasHardwareDecoder()) {
        GTEST_SKIP() << decoder->describe();
    }
    std::string why;
    const std::vector<std::uint8_t> baseline = encodeJpeg(photoLike(300, 400));
    const std::vector<std::uint8_t> progressive = encodeJpeg(photoLike(300, 400), {.progressive = true});
    const std::vector<std::uint8_t> grey = encodeJpeg(photoLike(120, 90, true));
    const std::size_t before = decoder->hardwareDecodes();
    ASSERT_TRUE(decoder->decode(bytes(baseline), why).has_value()) << why;
    EXPECT_EQ(decoder->hardwareDecodes(), before + 1);
    ASSERT_TRUE(decoder->decode(bytes(progressive), why).has_value()) << why;
    EXPECT_EQ(decoder->hardwareDecodes(), before + 1);
    ASSERT_TRUE(decoder->decode(bytes(grey), why).has_value()) << why;
    std::printf("grey baseline went to the %s\n",
                decoder->hardwareDecodes() > before + 1 ? "engines" : "default backend");
}

TEST(GpuJpegDecoderGpu, CmykFallsBackToLibjpegTurboWithTheReason)
{
    OPEN_OR_SKIP(decoder);
    const std::vector<std::uint8_t> file = encodeJpeg(photoLike(48, 64), {.cmyk = true});
    std::string why;
    EXPECT_FALSE(decoder->decode(bytes(file), why).has_value());
    EXPECT_EQ(why, "CMYK JPEG (4 components)");

    // Through readImage: libjpeg-turbo's pixels, and the report says why.
    const std::string path = ::testing::TempDir() + "tessera-cmyk-" + std::to_string(::getpid()) + ".jpg";
    {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        std::fwrite(file.data(), 1, file.size(), f);
        std::fclose(f);
    }
    std::string used;
    app::ImageLimits limits;
    limits.jpegDecoderName = decoder->label();
    limits.jpegDecoder = [&](std::span<const std::uint8_t> bytesIn, std::string& w) {
        return decoder->decode(bytesIn, w);
    };
    limits.decoderUsed = &used;
    const cv::Mat got = app::readImage(path, limits);
    std::remove(path.c_str());
    EXPECT_EQ(cv::norm(got, libjpegTurbo(file), cv::NORM_INF), 0.0);
    EXPECT_EQ(used, "libjpeg-turbo (nvJPEG (GPU 0): CMYK JPEG (4 components))");
}

TEST(GpuJpegDecoderGpu, TheFaultHookFailsDecodesUntilCleared)
{
    OPEN_OR_SKIP(decoder);
    const std::vector<std::uint8_t> file = encodeJpeg(photoLike(64, 80));
    std::string why;
    setGpuJpegFaultForTesting([] { return true; });
    EXPECT_FALSE(decoder->decode(bytes(file), why).has_value());
    EXPECT_NE(why.find("injected fault"), std::string::npos) << why;
    setGpuJpegFaultForTesting({});
    why.clear();
    const std::optional<cv::Mat> after = decoder->decode(bytes(file), why);
    ASSERT_TRUE(after.has_value()) << why;
    EXPECT_EQ(after->size(), cv::Size(80, 64));
}

TEST(GpuJpegDecoderGpu, ManyThreadsAtOnceGetEachFilesOwnPixels)
{
    OPEN_OR_SKIP(decoder);
    std::vector<std::vector<std::uint8_t>> files;
    std::vector<cv::Mat> alone;
    for (int i = 0; i < 6; ++i) {
        files.push_back(encodeJpeg(photoLike(200 + 37 * i, 300 - 21 * i, i == 3, 100 + i), {.progressive = i == 4}));
        std::string why;
        std::optional<cv::Mat> m = decoder->decode(bytes(files.back()), why);
        ASSERT_TRUE(m.has_value()) << why;
        alone.push_back(*m);
    }
    std::atomic<int> wrong{0};
    std::mutex textMutex;
    std::string text;
    std::vector<std::thread> threads;
    for (int t = 0; t < 12; ++t) {  // more threads than the decoder keeps states
        threads.emplace_back([&, t] {
            for (int k = 0; k < 10; ++k) {
                const std::size_t i = static_cast<std::size_t>(t + k) % files.size();
                std::string why;
                const std::optional<cv::Mat> m = decoder->decode(bytes(files[i]), why);
                if (!m || m->size() != alone[i].size() || cv::norm(*m, alone[i], cv::NORM_INF) != 0) {
                    ++wrong;
                    const std::lock_guard lock(textMutex);
                    text += "file " + std::to_string(i) + ": " +
                            (m ? "max abs " + std::to_string(m->size() == alone[i].size()
                                                                 ? cv::norm(*m, alone[i], cv::NORM_INF)
                                                                 : -1.0)
                               : "no image: " + why) +
                            "\n";
                }
            }
        });
    }
    for (std::thread& t : threads) {
        t.join();
    }
    EXPECT_EQ(wrong.load(), 0) << "concurrent decodes gave other pixels than the same file decoded alone:\n" << text;
}

}  // namespace
}  // namespace tessera::gpu
