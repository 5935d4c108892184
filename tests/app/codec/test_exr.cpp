// SPDX-License-Identifier: Apache-2.0
// The EXR codec against OpenCV 4.6's reader: files from Tessera's writer, from OpenCV's (float and
// half) and hand-built uncompressed ones (uint channels, grey + alpha, a shifted data window,
// foreign channel names, the multi-part and deep flags, a data window bomb).
#include "app/io/codec/codec.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace tessera::app::codec {
namespace {

using Bytes = std::vector<std::uint8_t>;

void enableOpenCvExr()
{
    ::setenv("OPENCV_IO_ENABLE_OPENEXR", "1", 1);
}

cv::Mat randomFloats(int rows, int cols, int channels, unsigned seed)
{
    cv::Mat m(rows, cols, CV_32FC(channels));
    cv::RNG rng(seed);
    rng.fill(m, cv::RNG::UNIFORM, -2.0f, 3.0f);
    return m;
}

bool samePixels(const cv::Mat& a, const cv::Mat& b)
{
    if (a.type() != b.type() || a.size() != b.size()) {
        return false;
    }
    for (int y = 0; y < a.rows; ++y) {
        if (std::memcmp(a.ptr(y), b.ptr(y), a.cols * a.elemSize()) != 0) {
            return false;
        }
    }
    return true;
}

Bytes writeWith(const cv::Mat& img, const ImageMetadata* metadata = nullptr)
{
    MetadataWritten written;
    return writeExr(img, metadata, {}, written);
}

std::string reasonOf(std::span<const std::uint8_t> file, const DecodeBudget& budget = {})
{
    try {
        readExr(file, budget);
    } catch (const CodecError& e) {
        return e.what();
    }
    return "(no error)";
}

/// An uncompressed scanline EXR built byte by byte: channels (sorted by name), each sample a
/// 32-bit value (type 0: uint, 2: float) equal to its row * 1000 + column * 10 + channel index.
struct ExrSpec {
    std::vector<std::pair<std::string, int>> channels;
    int minX = 0, minY = 0, maxX = 3, maxY = 2;
    std::uint32_t versionFlags = 0;
    bool pixels = true;
};

/// Little-endian bytes of an OpenEXR file, appended to out.
struct ExrWriter {
    Bytes out;

    void u8(int v) { out.push_back(std::uint8_t(v)); }
    void i32(std::uint32_t v)
    {
        for (int i = 0; i < 4; ++i) {
            out.push_back(std::uint8_t(v >> (8 * i)));
        }
    }
    void f32(float f)
    {
        std::uint32_t v;
        std::memcpy(&v, &f, 4);
        i32(v);
    }
    void text(const std::string& s)
    {
        out.insert(out.end(), s.begin(), s.end());
        out.push_back(0);
    }
    void attribute(const std::string& name, const std::string& type, std::uint32_t size)
    {
        text(name);
        text(type);
        i32(size);
    }
};

/// The magic number, version and the header's attributes, ending with its terminating 0.
void writeExrHeader(ExrWriter& w, const ExrSpec& spec)
{
    w.i32(20000630);
    w.i32(2 | spec.versionFlags);
    std::uint32_t listSize = 1;
    for (const auto& [name, type] : spec.channels) {
        listSize += std::uint32_t(name.size()) + 1 + 16;
    }
    w.attribute("channels", "chlist", listSize);
    for (const auto& [name, type] : spec.channels) {
        w.text(name);
        w.i32(std::uint32_t(type));
        w.i32(0);
        w.i32(1);
        w.i32(1);
    }
    w.u8(0);
    w.attribute("compression", "compression", 1);
    w.u8(0);
    for (const char* name : {"dataWindow", "displayWindow"}) {
        w.attribute(name, "box2i", 16);
        w.i32(std::uint32_t(spec.minX));
        w.i32(std::uint32_t(spec.minY));
        w.i32(std::uint32_t(spec.maxX));
        w.i32(std::uint32_t(spec.maxY));
    }
    w.attribute("lineOrder", "lineOrder", 1);
    w.u8(0);
    w.attribute("pixelAspectRatio", "float", 4);
    w.f32(1.0f);
    w.attribute("screenWindowCenter", "v2f", 8);
    w.f32(0.0f);
    w.f32(0.0f);
    w.attribute("screenWindowWidth", "float", 4);
    w.f32(1.0f);
    w.u8(0);
}

/// The line offset table and one uncompressed scan line per row, each sample r * 1000 + x * 10
/// + its channel's place.
void writeExrPixels(ExrWriter& w, const ExrSpec& spec)
{
    const int width = spec.maxX - spec.minX + 1;
    const int rows = spec.maxY - spec.minY + 1;
    const std::size_t table = w.out.size();
    const std::uint32_t lineBytes = std::uint32_t(width) * 4 * std::uint32_t(spec.channels.size());
    for (int r = 0; r < rows; ++r) {
        const std::uint64_t offset = table + std::uint64_t(rows) * 8 + std::uint64_t(r) * (8 + lineBytes);
        w.i32(std::uint32_t(offset));
        w.i32(std::uint32_t(offset >> 32));
    }
    for (int r = 0; r < rows; ++r) {
        w.i32(std::uint32_t(spec.minY + r));
        w.i32(lineBytes);
        for (std::size_t c = 0; c < spec.channels.size(); ++c) {
            for (int x = 0; x < width; ++x) {
                const std::uint32_t value = std::uint32_t(r * 1000 + x * 10) + std::uint32_t(c);
                if (spec.channels[c].second == 0) {
                    w.i32(value);
                } else {
                    w.f32(float(value));
                }
            }
        }
    }
}

Bytes buildExr(const ExrSpec& spec)
{
    ExrWriter w;
    writeExrHeader(w, spec);
    if (spec.pixels) {
        writeExrPixels(w, spec);
    }
    return std::move(w.out);
}

TEST(ExrCodec, DecodesAsOpenCvDoes)
{
    enableOpenCvExr();
    int files = 0;
    for (const cv::Size size : {cv::Size(1, 1), cv::Size(1, 9), cv::Size(9, 1), cv::Size(33, 17), cv::Size(70, 45)}) {
        for (const int channels : {1, 3, 4}) {
            const cv::Mat img = randomFloats(size.height, size.width, channels, unsigned(files + 1));
            std::vector<Bytes> encoded{writeWith(img)};
            for (const int type : {cv::IMWRITE_EXR_TYPE_FLOAT, cv::IMWRITE_EXR_TYPE_HALF}) {
                Bytes byOpenCv;
                ASSERT_TRUE(cv::imencode(".exr", img, byOpenCv, {cv::IMWRITE_EXR_TYPE, type}));
                encoded.push_back(byOpenCv);
            }
            for (std::size_t i = 0; i < encoded.size(); ++i) {
                const cv::Mat reference = cv::imdecode(encoded[i], cv::IMREAD_UNCHANGED);
                ASSERT_FALSE(reference.empty());
                const Decoded decoded = readExr(encoded[i], {});
                EXPECT_TRUE(decoded.metadata.empty());
                EXPECT_TRUE(samePixels(decoded.pixels, reference)) << size << " x" << channels << " file " << i;
                if (i == 0) {
                    EXPECT_TRUE(samePixels(decoded.pixels, img)) << "float round trip " << size;
                }
                ++files;
            }
        }
    }
    EXPECT_EQ(files, 45);
}

TEST(ExrCodec, HandBuiltLayoutsDecodeAsOpenCvDoes)
{
    enableOpenCvExr();
    std::vector<ExrSpec> specs;
    specs.push_back({{{"B", 0}, {"G", 0}, {"R", 0}}});                      // uint colour
    specs.push_back({{{"A", 2}, {"Y", 2}}});                                // grey + alpha
    specs.push_back({{{"G", 2}, {"R", 2}}, -5, 7, -1, 9});                  // shifted window, no blue
    specs.push_back({{{"A", 2}, {"B", 2}, {"G", 2}, {"R", 2}, {"Z", 2}}});  // an extra channel
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const Bytes file = buildExr(specs[i]);
        const cv::Mat reference = cv::imdecode(file, cv::IMREAD_UNCHANGED);
        ASSERT_FALSE(reference.empty()) << i;
        const Decoded decoded = readExr(file, {});
        EXPECT_TRUE(samePixels(decoded.pixels, reference))
            << "layout " << i << ": " << decoded.pixels.channels() << " channels, OpenCV " << reference.channels();
    }
    const cv::Mat grey = readExr(buildExr(specs[1]), {}).pixels;
    ASSERT_EQ(grey.type(), CV_32FC2);
    EXPECT_EQ(grey.at<cv::Vec2f>(2, 3), cv::Vec2f(2031, 2030));  // Y (channel 1), then A (channel 0)
    const cv::Mat shifted = readExr(buildExr(specs[2]), {}).pixels;
    EXPECT_EQ(shifted.size(), cv::Size(5, 3));
    EXPECT_EQ(shifted.at<cv::Vec3f>(1, 2), cv::Vec3f(0, 1020, 1021));
}

TEST(ExrCodec, RefusesWhatItDoesNotRead)
{
    enableOpenCvExr();
    ExrSpec foreign{{{"diffuse.B", 2}, {"diffuse.G", 2}, {"diffuse.R", 2}}};
    EXPECT_EQ(reasonOf(buildExr(foreign)),
              "EXR channels diffuse.B, diffuse.G, diffuse.R: Tessera reads R, G, B (A) or Y (A)");
    EXPECT_TRUE(cv::imdecode(buildExr(foreign), cv::IMREAD_UNCHANGED).empty());

    // A depth channel alone: OpenCV 4.6 gave an image of zeros for it.
    ExrSpec depth{{{"Z", 2}}};
    EXPECT_EQ(reasonOf(buildExr(depth)), "EXR channels Z: Tessera reads R, G, B (A) or Y (A)");
    const cv::Mat zeros = cv::imdecode(buildExr(depth), cv::IMREAD_UNCHANGED);
    EXPECT_TRUE(zeros.empty() || cv::norm(zeros, cv::NORM_INF) == 0);

    ExrSpec chroma{{{"BY", 2}, {"RY", 2}, {"Y", 2}}};
    EXPECT_EQ(reasonOf(buildExr(chroma)), "luminance/chroma EXR (Y, RY, BY): Tessera reads RGB or Y channels");

    ExrSpec multi{{{"Y", 2}}};
    multi.versionFlags = 0x1000;
    EXPECT_EQ(reasonOf(buildExr(multi)), "multi-part EXR: Tessera reads single-part images");
    ExrSpec deep{{{"Y", 2}}};
    deep.versionFlags = 0x800;
    EXPECT_EQ(reasonOf(buildExr(deep)), "deep EXR data: Tessera reads flat images");

    const Bytes junk(100, 0x33);
    EXPECT_EQ(reasonOf(junk), "not an EXR file");
}

TEST(ExrCodec, HugeDataWindowIsRefusedFromTheHeader)
{
    ExrSpec bomb{{{"Y", 2}}, 0, 0, 0x3fffffff, 0x3fffffff};
    bomb.pixels = false;
    const Bytes file = buildExr(bomb);
    EXPECT_LT(file.size(), 400u);
    EXPECT_EQ(reasonOf(file), "1073741824 x 1073741824 exceeds the limit of 32768 x 32768");
    ExrSpec wide{{{"Y", 2}}, -2147483647, 0, 2147483647, 0};
    wide.pixels = false;
    EXPECT_NE(reasonOf(buildExr(wide)).find("exceeds the limit"), std::string::npos);
    ExrSpec inverted{{{"Y", 2}}, 5, 5, 0, 0};
    inverted.pixels = false;
    EXPECT_NE(reasonOf(buildExr(inverted)), "(no error)");
}

TEST(ExrCodec, TruncatedAndDamagedFilesAreOneLineErrors)
{
    for (const Bytes& file : {writeWith(randomFloats(40, 30, 3, 5)), buildExr({{{"B", 2}, {"G", 2}, {"R", 2}}})}) {
        for (const std::size_t keep : {std::size_t{6}, std::size_t{60}, file.size() / 2, file.size() - 1}) {
            const std::string reason = reasonOf(std::span(file).first(keep));
            EXPECT_NE(reason, "(no error)") << keep;
            EXPECT_EQ(reason.find('\n'), std::string::npos) << reason;
        }
    }
    const Bytes grey = buildExr({{{"Y", 2}}});
    EXPECT_NE(reasonOf(std::span(grey).first(grey.size() - 20)).find("truncated EXR data"), std::string::npos);
}

TEST(ExrCodec, BudgetAndCancel)
{
    const Bytes file = writeWith(randomFloats(60, 50, 1, 6));
    DecodeBudget small;
    small.maxPixels = 2999;
    EXPECT_EQ(reasonOf(file, small), "50 x 60 (3000 pixels) exceeds the limit of 2999 pixels");
    std::atomic<bool> cancel{true};
    DecodeBudget cancelled;
    cancelled.cancel = &cancel;
    EXPECT_THROW(readExr(file, cancelled), DecodeCancelled);
}

TEST(ExrCodec, WriterTakesFloatsAndNamesTheMetadataItLeavesOut)
{
    MetadataWritten written;
    EXPECT_THROW(writeExr(cv::Mat(3, 3, CV_8UC3, cv::Scalar::all(1)), nullptr, {}, written), CodecError);
    EXPECT_THROW(writeExr(cv::Mat(3, 3, CV_32FC2, cv::Scalar::all(1)), nullptr, {}, written), CodecError);
    EXPECT_THROW(writeExr(cv::Mat(), nullptr, {}, written), CodecError);

    ImageMetadata metadata;
    metadata.exif = "II*";
    metadata.xmp = "<x/>";
    metadata.icc = "icc";
    const cv::Mat img = randomFloats(5, 5, 3, 7);
    const Bytes file = writeExr(img, &metadata, {}, written);
    EXPECT_TRUE(written.parts.empty());
    ASSERT_EQ(written.dropped.size(), 1u);
    EXPECT_EQ(written.dropped[0], "EXIF, XMP, ICC profile: EXR outputs carry no metadata");
    EXPECT_TRUE(samePixels(readExr(file, {}).pixels, img));
    // ZIP compression, as OpenCV wrote: the compression attribute's value is 3.
    const std::string bytes(file.begin(), file.end());
    const std::size_t at = bytes.find(std::string("compression\0compression\0\x01\0\0\0", 28));
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ(bytes[at + 28], 3);
}

}  // namespace
}  // namespace tessera::app::codec
