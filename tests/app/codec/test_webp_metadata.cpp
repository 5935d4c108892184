// SPDX-License-Identifier: Apache-2.0
// The WebP codec's metadata: ICC, EXIF and XMP placed as chunks and read back by Tessera's own
// reader and by the exiv2 tool, IPTC named as left out.
#include "app/io/codec/codec.h"
#include "tests/app/fake_icc.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

namespace tessera::app::codec {
namespace {

using Bytes = std::vector<std::uint8_t>;

/// A little-endian TIFF block with IFD0 holding one Artist tag.
std::string exifWithArtist(const std::string& artist)
{
    std::string block("II*\0\x08\0\0\0", 8);
    const auto u16 = [&](unsigned v) { block += char(v & 0xff), block += char(v >> 8); };
    const auto u32 = [&](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) {
            block += char((v >> (8 * i)) & 0xff);
        }
    };
    u16(1);
    u16(0x013b);
    u16(2);
    u32(std::uint32_t(artist.size() + 1));
    u32(8 + 2 + 12 + 4);
    u32(0);
    block += artist;
    block += '\0';
    return block;
}

std::string xmpWithTool(const std::string& tool)
{
    return "<?xpacket begin=\"\xef\xbb\xbf\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
           "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
           "<rdf:Description rdf:about=\"\" xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmp:CreatorTool=\"" +
           tool + "\"/></rdf:RDF></x:xmpmeta><?xpacket end=\"w\"?>";
}

/// The output of a command, or nothing when it cannot run.
std::string commandOutput(const std::string& command)
{
    std::string out;
    const std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    if (!pipe) {
        return out;
    }
    std::array<char, 4096> buffer{};
    while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe.get())) {
        out.append(buffer.data(), n);
    }
    return out;
}

TEST(WebpMetadata, ChunksAreWrittenAndReadBack)
{
    ImageMetadata metadata;
    metadata.exif = exifWithArtist("Tessera Test Artist");
    metadata.xmp = xmpWithTool("TesseraWebpTest");
    metadata.icc = tessera::test::fakeIccProfile();
    metadata.iptc = std::string("\x1c\x02\x05\x00\x04name", 9);
    const cv::Mat img(21, 13, CV_8UC4, cv::Scalar(10, 20, 30, 128));
    for (const int quality : {101, 70}) {
        EncodeOptions options;
        options.webpQuality = quality;
        MetadataWritten written;
        const Bytes file = writeWebp(img, &metadata, options, written);
        EXPECT_EQ(written.parts.exif, metadata.exif);
        EXPECT_EQ(written.parts.xmp, metadata.xmp);
        EXPECT_EQ(written.parts.icc, metadata.icc);
        EXPECT_TRUE(written.parts.iptc.empty());
        EXPECT_EQ(written.parts.orientation, 1);
        ASSERT_EQ(written.dropped.size(), 1u);
        EXPECT_EQ(written.dropped[0], "IPTC: WebP has no place for it");

        const ImageMetadata read = readWebpMetadata(file);
        EXPECT_EQ(read.exif, metadata.exif);
        EXPECT_EQ(read.xmp, metadata.xmp);
        EXPECT_EQ(read.icc, metadata.icc);
        EXPECT_TRUE(read.iptc.empty());

        const Decoded decoded = readWebp(file, {});
        EXPECT_EQ(decoded.metadata.icc, metadata.icc);
        EXPECT_EQ(decoded.pixels.type(), CV_8UC4);
        // The extended container still decodes as OpenCV reads it.
        const cv::Mat reference = cv::imdecode(file, cv::IMREAD_UNCHANGED);
        ASSERT_EQ(reference.type(), decoded.pixels.type());
        EXPECT_EQ(cv::norm(reference, decoded.pixels, cv::NORM_INF), 0);
    }
}

TEST(WebpMetadata, NothingOfferedNothingWritten)
{
    MetadataWritten written;
    const ImageMetadata none;
    const Bytes file = writeWebp(cv::Mat(4, 4, CV_8UC3, cv::Scalar::all(9)), &none, {}, written);
    EXPECT_TRUE(written.parts.empty());
    EXPECT_TRUE(written.dropped.empty());
    EXPECT_TRUE(readWebpMetadata(file).empty());
    // Damaged or foreign bytes give nothing rather than an error.
    EXPECT_TRUE(readWebpMetadata(std::span(file).first(20)).empty());
    const Bytes junk(64, 0xff);
    EXPECT_TRUE(readWebpMetadata(junk).empty());
}

TEST(WebpMetadata, ExifPrefixInsideTheChunkIsDropped)
{
    ImageMetadata metadata;
    const std::string exif = exifWithArtist("Prefixed");
    metadata.exif = std::string("Exif\0\0", 6) + exif;
    MetadataWritten written;
    const Bytes file = writeWebp(cv::Mat(4, 4, CV_8UC3, cv::Scalar::all(9)), &metadata, {}, written);
    EXPECT_EQ(readWebpMetadata(file).exif, exif);
}

TEST(WebpMetadata, Exiv2ReadsTheExifAndXmp)
{
    if (commandOutput("command -v exiv2").empty()) {
        GTEST_SKIP() << "the exiv2 tool is not installed";
    }
    ImageMetadata metadata;
    metadata.exif = exifWithArtist("Tessera Test Artist");
    metadata.xmp = xmpWithTool("TesseraWebpTest");
    metadata.icc = tessera::test::fakeIccProfile();
    MetadataWritten written;
    const Bytes file = writeWebp(cv::Mat(8, 8, CV_8UC3, cv::Scalar(1, 2, 3)), &metadata, {}, written);
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("tessera-webp-meta-" + std::to_string(::getpid()) + ".webp");
    {
        std::ofstream out(path, std::ios::binary);
        out.write(reinterpret_cast<const char*>(file.data()), std::streamsize(file.size()));
    }
    const std::string listing = commandOutput("exiv2 -pa '" + path.string() + "' 2>&1");
    std::filesystem::remove(path);
    EXPECT_NE(listing.find("Exif.Image.Artist"), std::string::npos) << listing;
    EXPECT_NE(listing.find("Tessera Test Artist"), std::string::npos) << listing;
    EXPECT_NE(listing.find("Xmp.xmp.CreatorTool"), std::string::npos) << listing;
    EXPECT_NE(listing.find("TesseraWebpTest"), std::string::npos) << listing;
}

}  // namespace
}  // namespace tessera::app::codec
