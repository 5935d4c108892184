// SPDX-License-Identifier: Apache-2.0
// The read path of an image, stage by stage, on one thread: header scan, decode, metadata,
// conversion and rotation, the median of N runs each. Built from the same source against a
// tree that decodes through OpenCV's imgcodecs and exiv2 and against one with Tessera's codec
// layer (app/io/codec), so that both are measured by one program in one run.
//
//   io_profile --make DIR         writes the three test files into DIR
//   io_profile [--runs N] FILE... prints one table row per stage and file

#include "app/io/image_header.h"
#include "app/io/image_io.h"
#include "app/io/image_metadata.h"

#if __has_include("app/io/codec/codec.h")
#include "app/io/codec/codec.h"
#define TESSERA_IO_PROFILE_CODECS 1
#else
#include <opencv2/imgcodecs.hpp>
#endif

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

using namespace tessera::app;

namespace {

using Clock = std::chrono::steady_clock;

double medianMs(int runs, const std::function<void()>& work)
{
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        work();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

std::vector<std::uint8_t> bytesOf(const std::string& path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(in.tellg()));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return bytes;
}

// A photo-like picture: smooth gradients with fine noise, so that the codecs work as on a photo.
cv::Mat picture(int rows, int cols, int type)
{
    cv::Mat base(rows, cols, CV_32FC3);
    for (int y = 0; y < rows; ++y) {
        auto* row = base.ptr<cv::Vec3f>(y);
        for (int x = 0; x < cols; ++x) {
            row[x] = {0.5f + 0.4f * std::sin(x * 0.003f), 0.5f + 0.4f * std::cos(y * 0.004f),
                      0.5f + 0.3f * std::sin((x + y) * 0.002f)};
        }
    }
    cv::Mat noise(rows, cols, CV_32FC3);
    cv::randn(noise, 0.0, 0.02);
    base += noise;
    cv::Mat out;
    const double scale = CV_MAT_DEPTH(type) == CV_8U ? 255.0 : CV_MAT_DEPTH(type) == CV_16U ? 65535.0 : 1.0;
    base.convertTo(out, type, scale);
    return out;
}

// An EXIF block (little-endian TIFF structure) holding only Orientation = 6.
std::string orientationExif()
{
    const unsigned char block[] = {'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3,
                                   0,   1,   0,  0, 0, 6, 0, 0, 0, 0, 0,    0,    0};
    return std::string(reinterpret_cast<const char*>(block), sizeof block);
}

int make(const std::string& dir)
{
    ImageMetadata exif;
    exif.exif = orientationExif();
    writeImage(dir + "/photo-12mp.jpg", picture(3000, 4000, CV_8UC3), &exif);
    // Writers keep outputs upright; Debian's exiv2 tool marks the photo as taken turned, so
    // that reading it turns it.
    const std::string mark = "exiv2 -M'set Exif.Image.Orientation Short 6' '" + dir + "/photo-12mp.jpg'";
    if (std::system(mark.c_str()) != 0) {
        std::fprintf(stderr, "io_profile: could not set the orientation with the exiv2 tool\n");
    }
    writeImage(dir + "/scan-16bit.png", picture(3000, 4000, CV_16UC3));
    writeImage(dir + "/render-float.tif", picture(3000, 4000, CV_32FC3));
    return 0;
}

// FNV-1a over the pixels, row by row: equal between two builds when the decoded pixels are.
std::uint64_t pixelHash(const cv::Mat& img)
{
    std::uint64_t h = 1469598103934665603ull;
    for (int y = 0; y < img.rows; ++y) {
        const std::uint8_t* row = img.ptr(y);
        for (std::size_t i = 0; i < img.cols * img.elemSize(); ++i) {
            h = (h ^ row[i]) * 1099511628211ull;
        }
    }
    return h;
}

void profile(const std::string& path, int runs)
{
    const std::vector<std::uint8_t> file = bytesOf(path);
    cv::Mat decoded;
    ImageMetadata metadata;
    const double whole = medianMs(runs, [&] { decoded = readImage(path, {}, &metadata); });
    const double header = medianMs(runs, [&] { (void)sniffImageHeader(path); });
    const double fileRead = medianMs(runs, [&] { (void)bytesOf(path); });
#if TESSERA_IO_PROFILE_CODECS
    const ImageHeader h = sniffImageHeader(path);
    const std::span<const std::uint8_t> bytes(file);
    const codec::DecodeBudget budget;
    cv::Mat raw;
    const double decode = medianMs(runs, [&] {
        raw = h.format == "jpeg"  ? codec::readJpeg(bytes, budget).pixels
              : h.format == "png" ? codec::readPng(bytes, budget).pixels
                                  : codec::readTiff(bytes, budget).pixels;
    });
#else
    cv::Mat raw;
    const double decode = medianMs(runs, [&] { raw = cv::imread(path, cv::IMREAD_UNCHANGED); });
#endif
    const double meta = medianMs(runs, [&] { (void)readMetadata(path); });
    // Conversion: what the rest of Tessera does first with a photo, u8 to f32; rotation by the
    // file's orientation.
    cv::Mat asFloat;
    const double convert = medianMs(runs, [&] { raw.convertTo(asFloat, CV_32F); });
    const double rotate = medianMs(runs, [&] { (void)applyOrientation(raw, metadata.orientation); });
    std::printf("%-22s %9.1f KB  %5dx%-5d %-6s orient %d | whole %8.2f | header %7.3f | file %6.2f | decode %8.2f | "
                "metadata %7.3f | convert %7.2f | rotate %7.2f  (ms, median of %d) pixels %016llx\n",
                path.substr(path.find_last_of('/') + 1).c_str(), file.size() / 1024.0, decoded.cols, decoded.rows,
                describeFormat(decoded).c_str(), metadata.orientation, whole, header, fileRead, decode, meta, convert,
                rotate, runs, static_cast<unsigned long long>(pixelHash(decoded)));
}

}  // namespace

int main(int argc, char** argv)
{
    cv::setNumThreads(1);
    std::vector<std::string> files;
    int runs = 10;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--make" && i + 1 < argc) {
            return make(argv[i + 1]);
        }
        if (arg == "--runs" && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else {
            files.push_back(arg);
        }
    }
    for (const std::string& f : files) {
        profile(f, runs);
    }
    return 0;
}
