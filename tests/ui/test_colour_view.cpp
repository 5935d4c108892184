// SPDX-License-Identifier: Apache-2.0
// A photo with a wide-gamut ICC profile is shown in the screen's colours (sRGB): the view converts
// its rendering from the profile, never the data, and the status bar names the profile.

#include "app/io/image_io.h"
#include "gui_test_support.h"
#include "ui/image_view.h"

#include <gtest/gtest.h>

#include <QColor>
#include <QColorSpace>
#include <QColorTransform>
#include <QFile>
#include <QLabel>

#include <opencv2/core.hpp>

#include <cstdlib>

namespace {

class ColourViewTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        path_ = tessera::test::tempPath(QStringLiteral("colour-view"), QStringLiteral("p3.png"));
    }
    void TearDown() override { QFile::remove(path_); }

    /// Writes an 8 x 8 picture of one colour (BGR) carrying profile.
    void writePhoto(const cv::Vec3b& bgr, const QColorSpace& profile)
    {
        const cv::Mat img(8, 8, CV_8UC3, cv::Scalar(bgr[0], bgr[1], bgr[2]));
        tessera::app::ImageMetadata metadata;
        metadata.icc = profile.iccProfile().toStdString();
        ASSERT_FALSE(metadata.icc.empty());
        tessera::app::writeImage(path_.toStdString(), img, &metadata);
    }
    /// The Display field's whole text (the label itself may be cut short with "…").
    QString displayLabel() const { return window_.findChild<QLabel*>(QStringLiteral("displayLabel"))->toolTip(); }

    QString path_;
};

TEST_F(ColourViewTest, AWideGamutPhotoIsShownInScreenColoursAndItsDataIsKept)
{
    const QColorSpace p3(QColorSpace::DisplayP3);
    const cv::Vec3b stored(40, 60, 220);  // a saturated red, as the file stores it (BGR)
    writePhoto(stored, p3);
    controller_.openImage(path_);
    ASSERT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();

    const QColor want = p3.transformationToColorSpace(QColorSpace(QColorSpace::SRgb)).map(QColor(220, 60, 40));
    ASSERT_GT(std::abs(want.red() - 220) + std::abs(want.green() - 60) + std::abs(want.blue() - 40), 10)
        << "the profile should move this colour visibly";
    const QColor got = window_.imageView()->shownImage().pixelColor(3, 3);
    EXPECT_LE(std::abs(got.red() - want.red()), 1) << got.red() << " vs " << want.red();
    EXPECT_LE(std::abs(got.green() - want.green()), 1) << got.green() << " vs " << want.green();
    EXPECT_LE(std::abs(got.blue() - want.blue()), 1) << got.blue() << " vs " << want.blue();

    EXPECT_EQ(controller_.sourceImage().at<cv::Vec3b>(3, 3), stored);  // the data is the file's
    const QString profile = QColorSpace::fromIccProfile(p3.iccProfile()).description();
    EXPECT_TRUE(displayLabel().contains(profile.isEmpty() ? QStringLiteral("colour profile") : profile))
        << displayLabel().toStdString();
    EXPECT_TRUE(displayLabel().contains(QStringLiteral("shown as sRGB"))) << displayLabel().toStdString();
}

TEST_F(ColourViewTest, AnSrgbPhotoIsShownAsStored)
{
    const cv::Vec3b stored(40, 60, 220);
    writePhoto(stored, QColorSpace(QColorSpace::SRgb));
    controller_.openImage(path_);
    const QColor got = window_.imageView()->shownImage().pixelColor(3, 3);
    EXPECT_EQ(got, QColor(220, 60, 40));
    EXPECT_FALSE(displayLabel().contains(QStringLiteral("shown as sRGB")));
}

}  // namespace
