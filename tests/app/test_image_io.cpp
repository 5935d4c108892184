#include "app/io/image_io.h"

#include "app/io/image_header.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;
using tessera::app::ImageError;
using tessera::app::ImageLimits;
using Bytes = std::vector<std::uint8_t>;

namespace {

// A fresh folder per test, removed with everything in it afterwards.
class TempDir {
public:
    TempDir() {
        std::random_device rd;
        path_ = fs::temp_directory_path() / ("tessera-io-" + std::to_string(rd()) + std::to_string(rd()));
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string file(const std::string& name) const { return (path_ / name).string(); }
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(path_)) {
            out.push_back(e.path().filename().string());
        }
        std::sort(out.begin(), out.end());
        return out;
    }

private:
    fs::path path_;
};

void writeBytes(const std::string& path, const Bytes& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

Bytes readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), {});
}

void putBe32(Bytes& b, std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) {
        b.push_back(static_cast<std::uint8_t>(v >> s));
    }
}

std::uint32_t crc32(const std::uint8_t* p, std::size_t n) {
    std::uint32_t c = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k) {
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
        }
    }
    return ~c;
}

void pngChunk(Bytes& png, const char* type, const Bytes& data) {
    putBe32(png, static_cast<std::uint32_t>(data.size()));
    const std::size_t start = png.size();
    png.insert(png.end(), type, type + 4);
    png.insert(png.end(), data.begin(), data.end());
    putBe32(png, crc32(png.data() + start, png.size() - start));
}

// A PNG built by hand (stored deflate blocks), for layouts OpenCV will not write. With no
// rows it is a bare header that claims any size.
Bytes makePng(std::uint32_t w, std::uint32_t h, std::uint8_t colourType, std::uint8_t bitDepth,
              const std::vector<Bytes>& rows) {
    Bytes png{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    Bytes ihdr;
    putBe32(ihdr, w);
    putBe32(ihdr, h);
    ihdr.insert(ihdr.end(), {bitDepth, colourType, 0, 0, 0});
    pngChunk(png, "IHDR", ihdr);
    if (!rows.empty()) {
        Bytes raw;
        for (const Bytes& row : rows) {
            raw.push_back(0);  // filter: none
            raw.insert(raw.end(), row.begin(), row.end());
        }
        Bytes z{0x78, 0x01, 0x01, static_cast<std::uint8_t>(raw.size()), static_cast<std::uint8_t>(raw.size() >> 8),
                static_cast<std::uint8_t>(~raw.size()), static_cast<std::uint8_t>(~raw.size() >> 8)};
        z.insert(z.end(), raw.begin(), raw.end());
        std::uint32_t a = 1;
        std::uint32_t b = 0;
        for (std::uint8_t v : raw) {
            a = (a + v) % 65521;
            b = (b + a) % 65521;
        }
        putBe32(z, b << 16 | a);
        pngChunk(png, "IDAT", z);
    }
    pngChunk(png, "IEND", {});
    return png;
}

cv::Mat randomImage(int depth, int channels, cv::Size size = {37, 23}) {
    cv::Mat m(size, CV_MAKETYPE(depth, channels));
    if (depth == CV_32F) {
        cv::randu(m, -1000.0, 1000.0);
    } else {
        cv::randu(m, 0.0, depth == CV_8U ? 256.0 : 65536.0);
    }
    return m;
}

bool identical(const cv::Mat& a, const cv::Mat& b) {
    if (a.size() != b.size() || a.type() != b.type()) {
        return false;
    }
    const std::size_t rowBytes = a.cols * a.elemSize();
    for (int y = 0; y < a.rows; ++y) {
        if (std::memcmp(a.ptr(y), b.ptr(y), rowBytes) != 0) {
            return false;
        }
    }
    return true;
}

// Runs f, expecting an ImageError whose message names the path and contains every fragment.
template <typename F>
void expectImageError(F&& f, const std::string& path, std::vector<std::string> fragments) {
    try {
        f();
        ADD_FAILURE() << "no ImageError for " << path;
    } catch (const ImageError& e) {
        const std::string what = e.what();
        EXPECT_EQ(e.path(), path);
        EXPECT_NE(what.find(path), std::string::npos) << what;
        for (const std::string& s : fragments) {
            EXPECT_NE(what.find(s), std::string::npos) << "'" << s << "' missing from: " << what;
        }
    }
}

}  // namespace

TEST(ImageIoRoundTrip, LosslessFormatsKeepEveryPixel) {
    struct Case {
        const char* ext;
        int depth;
        std::vector<int> channels;
    };
    const std::vector<Case> cases{
        {".png", CV_8U, {1, 3, 4}}, {".png", CV_16U, {1, 3, 4}}, {".PNG", CV_8U, {3}},
        {".tif", CV_8U, {1, 3, 4}}, {".tif", CV_16U, {1, 3, 4}}, {".tiff", CV_32F, {1, 3, 4}},
        {".bmp", CV_8U, {1, 3}},    {".webp", CV_8U, {3, 4}},    {".exr", CV_32F, {1, 3, 4}},
    };
    TempDir dir;
    for (const Case& c : cases) {
        for (int ch : c.channels) {
            cv::Mat img = randomImage(c.depth, ch);
            if (std::string(c.ext) == ".webp" && ch == 4) {
                // libwebp drops the colour under alpha 0, so keep every pixel a little visible.
                img.forEach<cv::Vec4b>([](cv::Vec4b& p, const int*) { p[3] = std::max<std::uint8_t>(p[3], 1); });
            }
            const std::string path = dir.file(std::string("rt") + c.ext);
            SCOPED_TRACE(path + " " + tessera::app::describeFormat(img));
            tessera::app::writeImage(path, img);
            const cv::Mat back = tessera::app::readImage(path);
            EXPECT_TRUE(identical(img, back)) << tessera::app::describeFormat(back);
        }
    }
    EXPECT_EQ(dir.names(), (std::vector<std::string>{"rt.PNG", "rt.bmp", "rt.exr", "rt.png", "rt.tif", "rt.tiff", "rt.webp"}));
}

TEST(ImageIoRoundTrip, FloatKeepsNonFiniteValues) {
    TempDir dir;
    cv::Mat img = randomImage(CV_32F, 3);
    img.at<cv::Vec3f>(1, 2) = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                               -std::numeric_limits<float>::infinity()};
    for (const char* name : {"nf.tif", "nf.exr"}) {
        tessera::app::writeImage(dir.file(name), img);
        EXPECT_TRUE(identical(img, tessera::app::readImage(dir.file(name)))) << name;
    }
}

TEST(ImageIoRoundTrip, GrayWebpComesBackAsEqualChannels) {
    TempDir dir;
    const cv::Mat gray = randomImage(CV_8U, 1);
    tessera::app::writeImage(dir.file("g.webp"), gray);
    const cv::Mat back = tessera::app::readImage(dir.file("g.webp"));
    ASSERT_EQ(back.type(), CV_8UC3);
    std::vector<cv::Mat> planes;
    cv::split(back, planes);
    for (const cv::Mat& p : planes) {
        EXPECT_TRUE(identical(gray, p));
    }
}

TEST(ImageIoRoundTrip, JpegStaysClose) {
    TempDir dir;
    for (int ch : {1, 3}) {
        cv::Mat img(40, 56, CV_8UC(ch));
        for (int y = 0; y < img.rows; ++y) {
            for (int x = 0; x < img.cols * ch; ++x) {
                img.ptr(y)[x] = static_cast<std::uint8_t>(3 * y + x % 97);
            }
        }
        for (const char* name : {"j.jpg", "j.jpeg"}) {
            tessera::app::writeImage(dir.file(name), img);
            const cv::Mat back = tessera::app::readImage(dir.file(name));
            ASSERT_EQ(back.type(), img.type()) << name;
            EXPECT_LT(cv::norm(img, back, cv::NORM_L1) / static_cast<double>(img.total() * ch), 3.0) << name;
        }
    }
}

TEST(ImageIoRead, GrayAlphaPngBecomesBgra) {
    TempDir dir;
    writeBytes(dir.file("ga8.png"), makePng(2, 1, 4, 8, {{10, 200, 30, 40}}));
    cv::Mat img = tessera::app::readImage(dir.file("ga8.png"));
    ASSERT_EQ(img.type(), CV_8UC4);
    EXPECT_EQ(img.at<cv::Vec4b>(0, 0), cv::Vec4b(10, 10, 10, 200));
    EXPECT_EQ(img.at<cv::Vec4b>(0, 1), cv::Vec4b(30, 30, 30, 40));

    writeBytes(dir.file("ga16.png"), makePng(1, 1, 4, 16, {{0x12, 0x34, 0xAB, 0xCD}}));
    img = tessera::app::readImage(dir.file("ga16.png"));
    ASSERT_EQ(img.type(), CV_16UC4);
    EXPECT_EQ(img.at<cv::Vec4w>(0, 0), cv::Vec4w(0x1234, 0x1234, 0x1234, 0xABCD));
}

TEST(ImageIoRead, MissingFile) {
    TempDir dir;
    const std::string path = dir.file("nope.png");
    expectImageError([&] { tessera::app::readImage(path); }, path, {"not found"});
}

TEST(ImageIoRead, DirectoryNamedLikeAnImage) {
    TempDir dir;
    const std::string path = dir.file("folder.png");
    fs::create_directory(path);
    expectImageError([&] { tessera::app::readImage(path); }, path, {"directory"});
}

TEST(ImageIoRead, EmptyFile) {
    TempDir dir;
    const std::string path = dir.file("empty.png");
    writeBytes(path, {});
    expectImageError([&] { tessera::app::readImage(path); }, path, {"empty"});
}

TEST(ImageIoRead, TextNamedJpg) {
    TempDir dir;
    const std::string path = dir.file("notes.jpg");
    const std::string text = "these are notes, not a picture\n";
    writeBytes(path, Bytes(text.begin(), text.end()));
    expectImageError([&] { tessera::app::readImage(path); }, path, {"not an image"});
}

TEST(ImageIoRead, TruncatedPng) {
    TempDir dir;
    const std::string path = dir.file("cut.png");
    tessera::app::writeImage(path, randomImage(CV_8U, 3, {64, 64}));
    Bytes bytes = readBytes(path);
    bytes.resize(bytes.size() / 2);
    writeBytes(path, bytes);
    expectImageError([&] { tessera::app::readImage(path); }, path, {"corrupt", "PNG"});
}

// A JPEG cut short decodes with grey rows and a warning only; it must be refused, baseline and
// progressive, while complete files (also with bytes after the end marker) still read.
TEST(ImageIoRead, TruncatedJpegIsRefused) {
    TempDir dir;
    const cv::Mat img = randomImage(CV_8U, 3, {96, 80});
    for (const bool progressive : {false, true}) {
        const std::string name = progressive ? "progressive" : "baseline";
        std::vector<uchar> encoded;
        ASSERT_TRUE(cv::imencode(".jpg", img, encoded, {cv::IMWRITE_JPEG_QUALITY, 95, cv::IMWRITE_JPEG_PROGRESSIVE, progressive ? 1 : 0}));
        const Bytes whole(encoded.begin(), encoded.end());
        const std::string good = dir.file(name + ".jpg");
        writeBytes(good, whole);
        EXPECT_EQ(tessera::app::readImage(good).size(), img.size()) << name;

        Bytes trailing = whole;
        trailing.insert(trailing.end(), {0x00, 0x00, 'x', 'y'});
        const std::string padded = dir.file(name + "-trailing.jpg");
        writeBytes(padded, trailing);
        EXPECT_EQ(tessera::app::readImage(padded).size(), img.size()) << name;

        for (const double keep : {0.5, 0.9}) {
            Bytes cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(static_cast<double>(whole.size()) * keep));
            const std::string path = dir.file(name + "-cut.jpg");
            writeBytes(path, cut);
            expectImageError([&] { tessera::app::readImage(path); }, path, {"truncated JPEG"});
        }
        // Only the end marker missing.
        const std::string noEnd = dir.file(name + "-no-end.jpg");
        writeBytes(noEnd, Bytes(whole.begin(), whole.end() - 2));
        expectImageError([&] { tessera::app::readImage(noEnd); }, noEnd, {"truncated JPEG"});
    }
}

TEST(ImageIoRead, HugeHeaderIsRefusedBeforeDecoding) {
    TempDir dir;
    const std::string path = dir.file("huge.png");
    writeBytes(path, makePng(100000, 100000, 2, 8, {}));
    expectImageError([&] { tessera::app::readImage(path); }, path, {"100000 x 100000", "exceeds the limit"});
}

TEST(ImageIoRead, LimitsAreConfigurable) {
    TempDir dir;
    const std::string path = dir.file("small.png");
    tessera::app::writeImage(path, randomImage(CV_8U, 1, {64, 48}));
    EXPECT_EQ(tessera::app::readImage(path).size(), cv::Size(64, 48));
    expectImageError([&] { tessera::app::readImage(path, ImageLimits{32, 1000, 1u << 20}); }, path,
                     {"64 x 48", "32 x 1000"});
    expectImageError([&] { tessera::app::readImage(path, ImageLimits{1000, 1000, 1000}); }, path,
                     {"3072 pixels", "1000 pixels"});
}

TEST(ImageIoRead, UnreadableFile) {
    if (::geteuid() == 0) {
        GTEST_SKIP() << "root reads files whatever their permissions";
    }
    TempDir dir;
    const std::string path = dir.file("locked.png");
    tessera::app::writeImage(path, randomImage(CV_8U, 1));
    fs::permissions(path, fs::perms::none);
    expectImageError([&] { tessera::app::readImage(path); }, path, {"permission denied"});
}

TEST(ImageIoRead, OtherDepthsAreRefused) {
    TempDir dir;
    for (int depth : {CV_64F, CV_16S}) {
        const std::string path = dir.file("deep" + std::to_string(depth) + ".tif");
        cv::Mat img(4, 5, CV_MAKETYPE(depth, 1), cv::Scalar(7));
        ASSERT_TRUE(cv::imwrite(path, img));
        expectImageError([&] { tessera::app::readImage(path); }, path,
                         {"unsupported sample type", depth == CV_64F ? "f64" : "s16"});
    }
}

TEST(ImageIoWrite, DepthsAFormatCannotHoldAreRefused) {
    TempDir dir;
    const auto refuse = [&](const char* name, int depth, int channels, std::vector<std::string> why) {
        const std::string path = dir.file(name);
        expectImageError([&] { tessera::app::writeImage(path, randomImage(depth, channels)); }, path, std::move(why));
    };
    refuse("f.jpg", CV_32F, 3, {"JPEG cannot hold f32", "TIFF, EXR"});
    refuse("w.jpg", CV_16U, 1, {"JPEG cannot hold u16", "PNG, TIFF"});
    refuse("f.png", CV_32F, 1, {"PNG cannot hold f32", "TIFF, EXR"});
    refuse("w.webp", CV_16U, 3, {"WebP cannot hold u16"});
    refuse("b.exr", CV_8U, 3, {"EXR cannot hold u8", "PNG, JPEG, TIFF, BMP, WebP"});
    refuse("d.tif", CV_64F, 1, {"cannot write f64"});
    refuse("two.png", CV_8U, 2, {"2-channel"});
    refuse("alpha.jpg", CV_8U, 4, {"alpha", "PNG, TIFF, WebP"});
    refuse("alpha.bmp", CV_8U, 4, {"alpha"});
    refuse("x.gif", CV_8U, 3, {"unsupported output format '.gif'"});
    refuse("noext", CV_8U, 3, {"unsupported output format"});
    expectImageError([&] { tessera::app::writeImage(dir.file("e.png"), cv::Mat()); }, dir.file("e.png"), {"empty"});
    EXPECT_TRUE(dir.names().empty());
}

TEST(ImageIoWrite, OutputFolderMissing) {
    TempDir dir;
    const std::string path = dir.file("absent/out.png");
    expectImageError([&] { tessera::app::writeImage(path, randomImage(CV_8U, 3)); }, path,
                     {"output folder does not exist"});
    EXPECT_TRUE(dir.names().empty());
}

TEST(ImageIoWrite, OutputFolderNotWritable) {
    if (::geteuid() == 0) {
        GTEST_SKIP() << "root writes into folders whatever their permissions";
    }
    TempDir dir;
    fs::create_directory(dir.file("ro"));
    fs::permissions(dir.file("ro"), fs::perms::owner_read | fs::perms::owner_exec);
    const std::string path = dir.file("ro/out.png");
    expectImageError([&] { tessera::app::writeImage(path, randomImage(CV_8U, 3)); }, path, {"not writable"});
    fs::permissions(dir.file("ro"), fs::perms::owner_all);
    EXPECT_TRUE(fs::is_empty(dir.file("ro")));
}

TEST(ImageIoWrite, OutputIsADirectory) {
    TempDir dir;
    const std::string path = dir.file("taken.png");
    fs::create_directory(path);
    expectImageError([&] { tessera::app::writeImage(path, randomImage(CV_8U, 3)); }, path, {"directory"});
    EXPECT_EQ(dir.names(), std::vector<std::string>{"taken.png"});
}

TEST(ImageIoWrite, ReplacesAFileAndLeavesNoTemporary) {
    TempDir dir;
    const std::string path = dir.file("out.png");
    tessera::app::writeImage(path, randomImage(CV_8U, 3));
    fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    const cv::Mat second = randomImage(CV_16U, 1);
    tessera::app::writeImage(path, second);
    EXPECT_TRUE(identical(second, tessera::app::readImage(path)));
    EXPECT_EQ(fs::status(path).permissions(), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    EXPECT_EQ(dir.names(), std::vector<std::string>{"out.png"});
}

TEST(ImageIoWrite, FailuresNeverTouchTheExistingFile) {
    TempDir dir;
    const Bytes precious{'k', 'e', 'e', 'p'};
    for (const char* name : {"keep.png", "keep.jpg"}) {
        writeBytes(dir.file(name), precious);
    }
    // Refused before encoding: the format cannot hold the depth.
    EXPECT_THROW(tessera::app::writeImage(dir.file("keep.png"), randomImage(CV_32F, 1)), ImageError);
    // Refused by the encoder itself, after the temporary file exists: JPEG stops at 65500 wide.
    expectImageError([&] { tessera::app::writeImage(dir.file("keep.jpg"), cv::Mat(1, 70000, CV_8UC1, cv::Scalar(9))); },
                     dir.file("keep.jpg"), {"cannot encode u8x1 as JPEG"});
    EXPECT_EQ(readBytes(dir.file("keep.png")), precious);
    EXPECT_EQ(readBytes(dir.file("keep.jpg")), precious);
    EXPECT_EQ(dir.names(), (std::vector<std::string>{"keep.jpg", "keep.png"}));
}

TEST(ImageIoSameFile, RefusesEverySpellingOfOneFile) {
    TempDir dir;
    fs::create_directory(dir.file("a"));
    const std::string a = dir.file("a.png");
    tessera::app::writeImage(a, randomImage(CV_8U, 1));
    fs::create_symlink(a, dir.file("link.png"));
    fs::create_hard_link(a, dir.file("hard.png"));
    for (const std::string& other : {a, dir.file("a/../a.png"), dir.file("./a.png"), dir.file("link.png"),
                                     dir.file("hard.png")}) {
        expectImageError([&] { tessera::app::refuseSameFile(a, other); }, other, {"same file", a});
    }
    const fs::path before = fs::current_path();
    fs::current_path(dir.file("a"));
    EXPECT_THROW(tessera::app::refuseSameFile("../a.png", a), ImageError);
    fs::current_path(before);
    EXPECT_NO_THROW(tessera::app::refuseSameFile(a, dir.file("b.png")));
    EXPECT_NO_THROW(tessera::app::refuseSameFile(a, dir.file("a/a.png")));
}

TEST(ImageIoSniff, ReadsDimensionsOfEveryFormat) {
    TempDir dir;
    const cv::Mat u8 = randomImage(CV_8U, 3);
    const cv::Mat f32 = randomImage(CV_32F, 3);
    const std::vector<std::pair<std::string, std::string>> files{
        {"s.png", "png"}, {"s.jpg", "jpeg"}, {"s.tif", "tiff"}, {"s.bmp", "bmp"}, {"s.webp", "webp"}, {"s.exr", "exr"}};
    for (const auto& [name, format] : files) {
        tessera::app::writeImage(dir.file(name), name == "s.exr" ? f32 : u8);
        const auto h = tessera::app::sniffImageHeader(dir.file(name));
        EXPECT_EQ(h.format, format) << name;
        EXPECT_EQ(h.width, 37) << name;
        EXPECT_EQ(h.height, 23) << name;
    }
    ASSERT_TRUE(cv::imwrite(dir.file("lossy.webp"), u8, {cv::IMWRITE_WEBP_QUALITY, 80}));  // VP8 chunk
    EXPECT_EQ(tessera::app::sniffImageHeader(dir.file("lossy.webp")).width, 37);
    EXPECT_EQ(tessera::app::sniffImageHeader(dir.file("lossy.webp")).height, 23);

    // JPEG with an extra APP1 segment and fill bytes before the frame header.
    Bytes jpeg = readBytes(dir.file("s.jpg"));
    jpeg.insert(jpeg.begin() + 2, {0xFF, 0xE1, 0x00, 0x06, 'E', 'x', 'i', 'f', 0xFF, 0xFF});
    writeBytes(dir.file("app1.jpg"), jpeg);
    EXPECT_EQ(tessera::app::sniffImageHeader(dir.file("app1.jpg")).width, 37);

    // Top-down BMP: negative height.
    Bytes bmp = readBytes(dir.file("s.bmp"));
    const std::int32_t minus = -23;
    std::memcpy(bmp.data() + 22, &minus, 4);
    writeBytes(dir.file("down.bmp"), bmp);
    EXPECT_EQ(tessera::app::sniffImageHeader(dir.file("down.bmp")).height, 23);
}

TEST(ImageIoSniff, HandBuiltHeaders) {
    TempDir dir;
    const auto sniff = [&](const Bytes& bytes) {
        writeBytes(dir.file("h.bin"), bytes);
        return tessera::app::sniffImageHeader(dir.file("h.bin"));
    };
    // Big-endian TIFF: ImageWidth as SHORT, ImageLength as LONG.
    auto h = sniff({'M', 'M', 0, 42, 0, 0, 0, 8, 0, 2,  //
                    1, 0, 0, 3, 0, 0, 0, 1, 0x01, 0x2C, 0, 0,  //
                    1, 1, 0, 4, 0, 0, 0, 1, 0, 1, 0x86, 0xA0});
    EXPECT_EQ(h.format, "tiff");
    EXPECT_EQ(h.width, 300);
    EXPECT_EQ(h.height, 100000);
    // Little-endian BigTIFF with LONG8 sizes.
    h = sniff({'I', 'I', 43, 0, 8, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,  //
               0, 1, 16, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x40, 0x1F, 0, 0, 0, 0, 0, 0,         //
               1, 1, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0});
    EXPECT_EQ(h.width, 8000);
    EXPECT_EQ(h.height, 5);
    // Extended WebP: 24-bit canvas sizes minus one.
    h = sniff({'R', 'I', 'F', 'F', 30, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', 'X', 10, 0, 0, 0,  //
               0x10, 0, 0, 0, 0x9F, 0x86, 0x01, 0xFF, 0x00, 0x00});
    EXPECT_EQ(h.format, "webp");
    EXPECT_EQ(h.width, 100000);
    EXPECT_EQ(h.height, 256);
    // A PNG header past int's range saturates so the limits still refuse it.
    h = sniff(makePng(0xFFFFFFF0u, 3, 0, 8, {}));
    EXPECT_EQ(h.width, INT_MAX);
    EXPECT_EQ(h.height, 3);
    // Unknown or missing files give an empty header.
    EXPECT_TRUE(sniff({'h', 'e', 'l', 'l', 'o'}).format.empty());
    EXPECT_TRUE(tessera::app::sniffImageHeader(dir.file("missing.png")).format.empty());
}

// Sniffs in memory through the stream overload, so thousands of variants stay cheap.
tessera::app::ImageHeader sniffBytes(const Bytes& bytes) {
    std::istringstream in(std::string(bytes.begin(), bytes.end()), std::ios::binary);
    return tessera::app::sniffImageHeader(in);
}

TEST(ImageIoSniff, DamagedHeadersNeverBreakTheSniffer) {
    TempDir dir;
    std::vector<Bytes> samples;
    for (const char* name : {"d.png", "d.jpg", "d.tif", "d.bmp", "d.webp"}) {
        tessera::app::writeImage(dir.file(name), randomImage(CV_8U, 3));
        samples.push_back(readBytes(dir.file(name)));
    }
    tessera::app::writeImage(dir.file("d.exr"), randomImage(CV_32F, 1));
    samples.push_back(readBytes(dir.file("d.exr")));
    std::mt19937 rng(12345);
    for (const Bytes& full : samples) {
        EXPECT_EQ(sniffBytes(full).width, 37);
        for (std::size_t n = 0; n <= std::min<std::size_t>(full.size(), 400); ++n) {
            const auto h = sniffBytes(Bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n)));
            EXPECT_GE(h.width, 0);
            EXPECT_GE(h.height, 0);
        }
        for (int trial = 0; trial < 2000; ++trial) {
            Bytes bad = full;
            for (int k = 0; k < 4; ++k) {
                bad[4 + rng() % std::min<std::size_t>(bad.size() - 4, 300)] = static_cast<std::uint8_t>(rng());
            }
            const auto h = sniffBytes(bad);
            EXPECT_GE(h.width, 0);
            EXPECT_GE(h.height, 0);
        }
    }
}

TEST(ImageIoFormat, DescribesDepthAndChannels) {
    EXPECT_EQ(tessera::app::describeFormat(cv::Mat(1, 1, CV_8UC3)), "u8x3");
    EXPECT_EQ(tessera::app::describeFormat(cv::Mat(1, 1, CV_16UC1)), "u16x1");
    EXPECT_EQ(tessera::app::describeFormat(cv::Mat(1, 1, CV_32FC4)), "f32x4");
}
