// SPDX-License-Identifier: Apache-2.0
#pragma once

// Helpers of the PNG and TIFF codec tests: test images, a small valid ICC profile, comparing a
// decode with OpenCV's and running outside metadata readers on a written file.

#include "app/io/codec/codec.h"
#include "tests/app/fake_icc.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

namespace tessera::app::codec::test_support {

/// Pixels that differ everywhere (a ramp mixed with the channel index) of the given type.
inline cv::Mat pattern(int rows, int cols, int type)
{
    cv::Mat m(rows, cols, type);
    const int cn = m.channels();
    for (int y = 0; y < rows; ++y) {
        for (int x = 0; x < cols; ++x) {
            for (int c = 0; c < cn; ++c) {
                const int v = (x * 37 + y * 101 + c * 59 + x * y) & 0xffff;
                switch (m.depth()) {
                case CV_8U: m.ptr<std::uint8_t>(y)[x * cn + c] = static_cast<std::uint8_t>(v); break;
                case CV_16U: m.ptr<std::uint16_t>(y)[x * cn + c] = static_cast<std::uint16_t>(v * 7); break;
                default: m.ptr<float>(y)[x * cn + c] = static_cast<float>(v) / 97.0f - 3.0f; break;
                }
            }
        }
    }
    return m;
}

inline bool samePixels(const cv::Mat& a, const cv::Mat& b)
{
    if (a.size() != b.size() || a.type() != b.type()) {
        return false;
    }
    for (int y = 0; y < a.rows; ++y) {
        if (std::memcmp(a.ptr(y), b.ptr(y), a.cols * a.elemSize()) != 0) {
            return false;
        }
    }
    return true;
}

/// A small EXIF block (little-endian TIFF structure) holding IFD0 Make = "Tessera" and an EXIF
/// sub-IFD with UserComment of userCommentBytes bytes.
inline std::string tinyExif(std::size_t userCommentBytes = 16)
{
    std::string e = std::string("II*\0", 4) + std::string("\x08\0\0\0", 4);
    auto put16 = [&](std::uint16_t v) {
        e += static_cast<char>(v & 0xff);
        e += static_cast<char>(v >> 8);
    };
    auto put32 = [&](std::uint32_t v) {
        for (int i = 0; i < 4; ++i)
            e += static_cast<char>((v >> (8 * i)) & 0xff);
    };
    // IFD0 at 8: 2 entries (12 bytes each) + next offset -> ends at 8 + 2 + 24 + 4 = 38
    put16(2);
    put16(0x010f);
    put16(2);
    put32(8);
    put32(38);  // Make, ASCII, 8 bytes at 38
    put16(0x8769);
    put16(4);
    put32(1);
    put32(46);  // ExifIFD at 46
    put32(0);
    e += std::string("Tessera\0", 8);  // 38..46
    put16(1);                          // EXIF IFD: 1 entry
    put16(0x9286);
    put16(7);
    put32(static_cast<std::uint32_t>(userCommentBytes));
    put32(46 + 2 + 12 + 4);
    put32(0);
    std::string comment = std::string("ASCII\0\0\0", 8);
    while (comment.size() < userCommentBytes) {
        comment += static_cast<char>('a' + comment.size() % 26);
    }
    e += comment.substr(0, userCommentBytes);
    return e;
}

inline const std::string kXmp =
    "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
    "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
    "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
    "<dc:creator><rdf:Seq><rdf:li>Tessera Test</rdf:li></rdf:Seq></dc:creator>"
    "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>";

/// IPTC records: the record version and an object name "Tessera".
inline std::string tinyIptc()
{
    return std::string("\x1c\x02\x00\x00\x02\x00\x04", 7) + std::string("\x1c\x02\x05\x00\x07", 5) + "Tessera";
}

inline std::string tempPath(const std::string& name)
{
    return (std::filesystem::temp_directory_path() / ("tessera-codec-" + std::to_string(::getpid()) + "-" + name))
        .string();
}

inline void writeFile(const std::string& path, const std::vector<std::uint8_t>& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

/// What a command prints on stdout; empty when it cannot run.
inline std::string commandOutput(const std::string& command)
{
    std::string out;
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
    if (!pipe) {
        return out;
    }
    std::array<char, 4096> buffer{};
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe.get())) > 0) {
        out.append(buffer.data(), n);
    }
    return out;
}

inline bool haveProgram(const std::string& name)
{
    return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

inline std::vector<std::uint8_t> encodeWithOpenCv(const std::string& ext, const cv::Mat& img,
                                                  const std::vector<int>& params = {})
{
    std::vector<std::uint8_t> bytes;
    if (!cv::imencode(ext, img, bytes, params)) {
        return {};
    }
    return bytes;
}

inline cv::Mat decodeWithOpenCv(const std::vector<std::uint8_t>& bytes)
{
    return cv::imdecode(bytes, cv::IMREAD_UNCHANGED);
}

}  // namespace tessera::app::codec::test_support
