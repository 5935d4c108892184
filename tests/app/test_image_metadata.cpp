// SPDX-License-Identifier: Apache-2.0
// Photos keep what they carry: the EXIF orientation is applied on reading (the pixels stand
// upright), and EXIF, XMP and the ICC profile go on into what apply and batch write, with the
// orientation set to upright and the dimensions of the output; --strip-metadata leaves them out.

#include "app/cli/cli.h"
#include "app/io/image_io.h"
#include "app/io/image_metadata.h"
#include "photo_metadata.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

using tessera::app::ImageMetadata;
using tessera::test::readBack;
using tessera::test::writeTaggedPhoto;

class ImageMetadataTest : public testing::Test {
protected:
    void SetUp() override
    {
        dir_ = fs::temp_directory_path() / ("tessera-metadata-" + std::to_string(::getpid()) + "-" +
                                            testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string file(const std::string& name) const { return (dir_ / name).string(); }

    int cli(std::vector<std::string> args)
    {
        std::ostringstream out;
        std::ostringstream err;
        const int code = tessera::app::runCli(args, out, err);
        out_ = out.str();
        err_ = err.str();
        return code;
    }

    /// True when the red block of storedPhoto() sits at the top-right corner of img (turned
    /// 90 degrees clockwise) and the image is 40 wide and 64 high.
    static bool upright(const cv::Mat& img)
    {
        if (img.cols != 40 || img.rows != 64) {
            return false;
        }
        const cv::Vec3b topRight = img.at<cv::Vec3b>(4, 36);
        const cv::Vec3b topLeft = img.at<cv::Vec3b>(4, 4);
        return topRight[2] > 200 && topRight[0] < 60 && topLeft[2] < 160;
    }

    fs::path dir_;
    std::string out_;
    std::string err_;
};

TEST_F(ImageMetadataTest, ARotatedPhotoOpensUpright)
{
    for (const char* ext : {".jpg", ".png", ".tif"}) {
        const std::string in = file(std::string("photo") + ext);
        writeTaggedPhoto(in, 6);
        ImageMetadata metadata;
        const cv::Mat img = tessera::app::readImage(in, {}, &metadata);
        EXPECT_EQ(metadata.orientation, 6) << ext;
        EXPECT_TRUE(upright(img)) << ext << ": " << img.cols << " x " << img.rows;
        EXPECT_FALSE(metadata.exif.empty()) << ext;
        EXPECT_FALSE(metadata.xmp.empty()) << ext;
        EXPECT_EQ(metadata.icc, tessera::test::fakeIccProfile()) << ext;
        EXPECT_EQ(metadata.summary(), "EXIF, XMP, ICC profile") << ext;
    }
}

TEST_F(ImageMetadataTest, EveryOrientationTurnsTheSamePhotoUpright)
{
    // Stored as orientation k asks, each turns back to the same upright pixels.
    const cv::Mat upright = tessera::test::storedPhoto();
    const std::vector<std::pair<int, cv::Mat>> stored = [&] {
        std::vector<std::pair<int, cv::Mat>> v;
        cv::Mat m;
        v.emplace_back(1, upright.clone());
        cv::flip(upright, m, 1);
        v.emplace_back(2, m.clone());
        cv::rotate(upright, m, cv::ROTATE_180);
        v.emplace_back(3, m.clone());
        cv::flip(upright, m, 0);
        v.emplace_back(4, m.clone());
        cv::transpose(upright, m);
        v.emplace_back(5, m.clone());
        cv::rotate(upright, m, cv::ROTATE_90_COUNTERCLOCKWISE);
        v.emplace_back(6, m.clone());
        cv::transpose(upright, m);
        cv::flip(m, m, -1);
        v.emplace_back(7, m.clone());
        cv::rotate(upright, m, cv::ROTATE_90_CLOCKWISE);
        v.emplace_back(8, m.clone());
        return v;
    }();
    for (const auto& [orientation, pixels] : stored) {
        const cv::Mat back = tessera::app::applyOrientation(pixels, orientation);
        ASSERT_EQ(back.size(), upright.size()) << orientation;
        EXPECT_EQ(cv::norm(back, upright, cv::NORM_INF), 0.0) << orientation;
    }
}

TEST_F(ImageMetadataTest, ApplyCarriesExifXmpAndIccAndSetsTheOrientationUpright)
{
    const std::string in = file("photo.jpg");
    writeTaggedPhoto(in, 6);
    for (const char* ext : {".jpg", ".png", ".tif", ".webp"}) {
        const std::string out = file(std::string("out") + ext);
        ASSERT_EQ(cli({"apply", in, "-o", out, "--filter", "box"}), 0) << err_;
        // Exiv2 0.27 writes no ICC profile into WebP, and apply says what it kept.
        // Every format carries all three now, WebP's ICC profile included (an ICCP chunk).
        EXPECT_NE(out_.find("kept EXIF, XMP, ICC profile"), std::string::npos) << out_;
        EXPECT_NE(out_.find("rotated 90"), std::string::npos) << out_;
        const tessera::test::FoundMetadata found = readBack(out);
        EXPECT_EQ(found.make, "TesseraTestCamera") << ext;
        EXPECT_EQ(found.orientation, 1) << ext;
        EXPECT_EQ(found.pixelWidth, 40) << ext;
        EXPECT_EQ(found.rating, "4") << ext;
        EXPECT_EQ(found.xmpOrientation, "1") << ext;
        EXPECT_EQ(found.icc, tessera::test::fakeIccProfile()) << ext;
        // The pixels were written upright, so a reader that ignores the tag sees them upright too.
        EXPECT_TRUE(upright(cv::imread(out, cv::IMREAD_UNCHANGED))) << ext;
    }
}

TEST_F(ImageMetadataTest, StripMetadataWritesNone)
{
    const std::string in = file("photo.jpg");
    writeTaggedPhoto(in, 6);
    const std::string out = file("out.jpg");
    ASSERT_EQ(cli({"apply", in, "-o", out, "--filter", "box", "--strip-metadata"}), 0) << err_;
    const tessera::test::FoundMetadata found = readBack(out);
    EXPECT_TRUE(found.make.empty());
    EXPECT_TRUE(found.rating.empty());
    EXPECT_TRUE(found.icc.empty());
    EXPECT_TRUE(upright(cv::imread(out, cv::IMREAD_UNCHANGED)));  // still turned upright
}

TEST_F(ImageMetadataTest, BatchCarriesMetadataAndItsManifestSaysSo)
{
    const std::string in = file("photo.jpg");
    writeTaggedPhoto(in, 6);
    const std::string outDir = file("out");
    ASSERT_EQ(cli({"batch", in, "-o", outDir, "--filter", "box", "--format", "png", "--manifest"}), 0) << err_;
    const std::string out = (fs::path(outDir) / "photo-box.png").string();
    ASSERT_TRUE(fs::exists(out)) << out_;
    const tessera::test::FoundMetadata found = readBack(out);
    EXPECT_EQ(found.make, "TesseraTestCamera");
    EXPECT_EQ(found.orientation, 1);
    EXPECT_EQ(found.icc, tessera::test::fakeIccProfile());
    EXPECT_TRUE(upright(cv::imread(out, cv::IMREAD_UNCHANGED)));
    std::ifstream manifestFile(out + ".json");
    const nlohmann::json manifest = nlohmann::json::parse(manifestFile);
    EXPECT_EQ(manifest.value("metadata_kept", ""), "EXIF, XMP, ICC profile");
    EXPECT_EQ(manifest.value("orientation_applied", ""), "rotated 90\u00b0 clockwise");

    const std::string stripped = file("stripped");
    ASSERT_EQ(cli({"batch", in, "-o", stripped, "--filter", "box", "--format", "png", "--strip-metadata"}), 0) << err_;
    const tessera::test::FoundMetadata none = readBack((fs::path(stripped) / "photo-box.png").string());
    EXPECT_TRUE(none.make.empty());
    EXPECT_TRUE(none.icc.empty());
}

TEST_F(ImageMetadataTest, DamagedOrForeignBytesGiveNoMetadata)
{
    const std::string junk = "\xff\xd8\xff\xe1\x00\x10"
                             "Exif\0\0MM\0*\0\0\0\x08\xff\xff";
    const ImageMetadata m = tessera::app::readMetadata(reinterpret_cast<const std::uint8_t*>(junk.data()), junk.size());
    EXPECT_EQ(m.orientation, 1);
    EXPECT_EQ(tessera::app::readMetadata(nullptr, 0).summary(), "none");
    EXPECT_EQ(tessera::app::readMetadata(file("missing.jpg")).summary(), "none");
}

}  // namespace
