// SPDX-License-Identifier: Apache-2.0
// A batch whose JPEGs are decoded on GPU 0 with nvJPEG: each file names the decoder that read
// it, a CMYK file goes to libjpeg-turbo with the reason, and the outputs of an identity chain
// (the decoded pixels, written as PNG) stay within the decoders' bound (max abs 3, see
// test_jpeg_decoder_gpu.cpp) of a run that decodes on the CPU. Skips without a GPU or nvJPEG.

#include "app/batch/batch_devices.h"
#include "app/batch/batch_plan.h"
#include "app/batch/batch_runner.h"
#include "app/io/image_io.h"
#include "tessera/gpu/jpeg_decoder_gpu.h"
#include "jpeg_test_files.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

namespace tessera::app {
namespace {

namespace fs = std::filesystem;
using tessera::testing::encodeJpeg;
using tessera::testing::photoLike;

void writeFile(const fs::path& path, const std::vector<std::uint8_t>& bytes)
{
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

TEST(JpegBatchGpu, JpegsAreDecodedOnTheGpuAndNamedCmykFallsBack)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        GTEST_SKIP() << "no CUDA device";
    }
    std::string why;
    if (!gpu::GpuJpegDecoder::open(values::DeviceId(0), why)) {
        GTEST_SKIP() << why;
    }
    const fs::path root = fs::temp_directory_path() / ("tessera-jpeg-batch-" + std::to_string(std::random_device{}()));
    fs::create_directories(root / "in");
    writeFile(root / "in" / "a.jpg", encodeJpeg(photoLike(601, 803)));
    writeFile(root / "in" / "b.jpg", encodeJpeg(photoLike(480, 640, true)));
    writeFile(root / "in" / "c.jpg", encodeJpeg(photoLike(333, 500), {.progressive = true}));
    writeFile(root / "in" / "d.jpg", encodeJpeg(photoLike(120, 160), {.cmyk = true}));
    cv::Mat png(20, 30, CV_8UC3, cv::Scalar(5, 6, 7));
    writeImage((root / "in" / "e.png").string(), png);

    BatchJob job;
    job.inputs = {(root / "in").string()};
    job.nameTemplate = "{stem}";
    job.format = "png";
    job.chain = {{filters::FilterSpec{}}};  // identity: the outputs are the decoded pixels
    job.jobs = 4;
    std::atomic<bool> never{false};
    job.outputDir = (root / "cpu").string();
    const BatchSummary cpu = runBatch(planBatch(job), job, {cpuProcessor()}, never);
    job.outputDir = (root / "gpu").string();
    job.jpegGpus = {values::DeviceId(0)};
    const BatchSummary onGpu = runBatch(planBatch(job), job, {cpuProcessor()}, never);
    ASSERT_EQ(cpu.ok, 5);
    ASSERT_EQ(onGpu.ok, 5);
    for (std::size_t i = 0; i < onGpu.files.size(); ++i) {
        const FileResult& g = onGpu.files[i];
        SCOPED_TRACE(g.input);
        const std::string name = fs::path(g.input).filename().string();
        if (name == "d.jpg") {
            EXPECT_EQ(g.decoder, "libjpeg-turbo (nvJPEG (GPU 0): CMYK JPEG (4 components))");
        } else if (name == "e.png") {
            EXPECT_EQ(g.decoder, "libpng");
        } else {
            EXPECT_EQ(g.decoder, "nvJPEG (GPU 0)");
        }
        EXPECT_EQ(cpu.files[i].decoder, name == "e.png" ? "libpng" : "libjpeg-turbo");
        const cv::Mat a = readImage(g.output);
        const cv::Mat b = readImage(cpu.files[i].output);
        ASSERT_EQ(a.type(), b.type());
        ASSERT_EQ(a.size(), b.size());
        EXPECT_LE(cv::norm(a, b, cv::NORM_INF), 3.0);
    }
    fs::remove_all(root);
}

}  // namespace
}  // namespace tessera::app
