// SPDX-License-Identifier: Apache-2.0
// The window opens a photo upright from its EXIF orientation and says so; Save and Export carry
// its EXIF, XMP and ICC profile into what they write.

#include "../app/photo_metadata.h"
#include "gui_test_support.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QStatusBar>

#include <opencv2/core.hpp>

namespace {

class PhotoMetadataTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        photo_ = tessera::test::tempPath(QStringLiteral("photo"), QStringLiteral("in.jpg"));
        tessera::test::writeTaggedPhoto(photo_.toStdString(), 6);
    }
    void TearDown() override
    {
        for (const QString& f : {photo_, saved_, exported_}) {
            QFile::remove(f);
        }
    }

    QString photo_;
    QString saved_ = tessera::test::tempPath(QStringLiteral("photo"), QStringLiteral("saved.png"));
    QString exported_ = tessera::test::tempPath(QStringLiteral("photo"), QStringLiteral("exported.tif"));
};

TEST_F(PhotoMetadataTest, OpensUprightAndSaveAndExportKeepTheMetadata)
{
    controller_.openImage(photo_);
    ASSERT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
    const cv::Mat& img = controller_.sourceImage();
    EXPECT_EQ(img.cols, 40);
    EXPECT_EQ(img.rows, 64);
    EXPECT_TRUE(window_.statusMessage().contains(QStringLiteral("rotated 90")))
        << window_.statusMessage().toStdString();

    emit window_.saveRequested(saved_);
    ASSERT_TRUE(QFile::exists(saved_)) << window_.lastError().toStdString();
    EXPECT_TRUE(window_.statusMessage().contains(QStringLiteral("kept EXIF, XMP, ICC profile")))
        << window_.statusMessage().toStdString();
    emit window_.exportRequested(exported_);
    ASSERT_TRUE(QFile::exists(exported_)) << window_.lastError().toStdString();

    for (const QString& written : {saved_, exported_}) {
        const tessera::test::FoundMetadata found = tessera::test::readBack(written.toStdString());
        EXPECT_EQ(found.make, "TesseraTestCamera") << written.toStdString();
        EXPECT_EQ(found.orientation, 1) << written.toStdString();
        EXPECT_EQ(found.pixelWidth, 40) << written.toStdString();
        EXPECT_EQ(found.rating, "4") << written.toStdString();
        EXPECT_EQ(found.icc, tessera::test::fakeIccProfile()) << written.toStdString();
    }
}

}  // namespace
