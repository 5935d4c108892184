// SPDX-License-Identifier: Apache-2.0
#pragma once

// Helpers of the image I/O tests: a temporary folder, files of raw bytes, PNGs built by hand,
// random images and the check of an ImageError's message.

#include "app/io/image_io.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace tessera::test::image_io {

namespace fs = std::filesystem;
using tessera::app::ImageError;
using Bytes = std::vector<std::uint8_t>;

// A fresh folder per test, removed with everything in it afterwards.
class TempDir {
public:
    TempDir()
    {
        std::random_device rd;
        path_ = fs::temp_directory_path() / ("tessera-io-" + std::to_string(rd()) + std::to_string(rd()));
        fs::create_directories(path_);
    }
    ~TempDir()
    {
        std::error_code ec;
        fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string file(const std::string& name) const { return (path_ / name).string(); }
    std::vector<std::string> names() const
    {
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

inline void writeBytes(const std::string& path, const Bytes& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

inline Bytes readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), {});
}

inline void putBe32(Bytes& b, std::uint32_t v)
{
    for (int s = 24; s >= 0; s -= 8) {
        b.push_back(static_cast<std::uint8_t>(v >> s));
    }
}

inline std::uint32_t crc32(const std::uint8_t* p, std::size_t n)
{
    std::uint32_t c = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k) {
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
        }
    }
    return ~c;
}

inline void pngChunk(Bytes& png, const char* type, const Bytes& data)
{
    putBe32(png, static_cast<std::uint32_t>(data.size()));
    const std::size_t start = png.size();
    png.insert(png.end(), type, type + 4);
    png.insert(png.end(), data.begin(), data.end());
    putBe32(png, crc32(png.data() + start, png.size() - start));
}

// A PNG built by hand (stored deflate blocks), for layouts OpenCV will not write. With no
// rows it is a bare header that claims any size.
inline Bytes makePng(std::uint32_t w, std::uint32_t h, std::uint8_t colourType, std::uint8_t bitDepth,
                     const std::vector<Bytes>& rows)
{
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
        Bytes z{0x78,
                0x01,
                0x01,
                static_cast<std::uint8_t>(raw.size()),
                static_cast<std::uint8_t>(raw.size() >> 8),
                static_cast<std::uint8_t>(~raw.size()),
                static_cast<std::uint8_t>(~raw.size() >> 8)};
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

inline cv::Mat randomImage(int depth, int channels, cv::Size size = {37, 23})
{
    cv::Mat m(size, CV_MAKETYPE(depth, channels));
    if (depth == CV_32F) {
        cv::randu(m, -1000.0, 1000.0);
    } else {
        cv::randu(m, 0.0, depth == CV_8U ? 256.0 : 65536.0);
    }
    return m;
}

inline bool identical(const cv::Mat& a, const cv::Mat& b)
{
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
inline void expectImageError(F&& f, const std::string& path, std::vector<std::string> fragments)
{
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

}  // namespace tessera::test::image_io
