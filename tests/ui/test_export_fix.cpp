// SPDX-License-Identifier: Apache-2.0
// Export to a format that cannot hold the result is no dead end: the user may write the same
// name as TIFF, convert the result to 8 bits in the chosen format, or write nothing.

#include "gui_test_support.h"
#include "ui/image_view.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QStatusBar>
#include <QTest>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

namespace {

using tessera::ui::MainWindow;
using Fix = tessera::ui::DocumentPrompts::ExportFix;

class ExportFixTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
        window_.findChild<QAction*>(QStringLiteral("stackAdd_box"))->trigger();
        auto* depth = window_.findChild<QComboBox*>(QStringLiteral("depthCombo"));
        depth->setCurrentIndex(depth->findText(QStringLiteral("32-bit float")));
        jpeg_ = tessera::test::tempPath(QStringLiteral("export-fix"), QStringLiteral("out.jpg"));
        tiff_ = tessera::test::tempPath(QStringLiteral("export-fix"), QStringLiteral("out.tif"));
        QFile::remove(jpeg_);
        QFile::remove(tiff_);
    }
    void TearDown() override
    {
        QFile::remove(jpeg_);
        QFile::remove(tiff_);
    }

    void answer(Fix fix)
    {
        window_.prompts().setExportFixPrompt(
            [this, fix](const QString& problem, const QString& other, bool canConvert) {
                asked_ << problem;
                other_ = other;
                canConvert_ = canConvert;
                return fix;
            });
    }

    QString jpeg_;
    QString tiff_;
    QStringList asked_;
    QString other_;
    bool canConvert_ = false;
};

TEST_F(ExportFixTest, SaveAsTiffWritesTheFloatResultUnderTheSameName)
{
    answer(Fix::OtherFormat);
    emit window_.exportRequested(jpeg_);
    ASSERT_TRUE(waitForWholeResult());
    ASSERT_EQ(asked_.size(), 1);
    EXPECT_TRUE(asked_[0].contains(QStringLiteral("JPEG"))) << asked_[0].toStdString();
    EXPECT_EQ(other_, tiff_);
    EXPECT_TRUE(canConvert_);
    EXPECT_FALSE(QFile::exists(jpeg_));
    const cv::Mat written = cv::imread(tiff_.toStdString(), cv::IMREAD_UNCHANGED);
    ASSERT_FALSE(written.empty()) << window_.lastError().toStdString();
    EXPECT_EQ(written.depth(), CV_32F);
    EXPECT_TRUE(window_.statusMessage().contains(tiff_));
}

TEST_F(ExportFixTest, ConvertTo8BitKeepsTheChosenFormat)
{
    answer(Fix::ConvertClipped);
    emit window_.exportRequested(jpeg_);
    ASSERT_TRUE(waitForWholeResult());
    ASSERT_EQ(asked_.size(), 1);
    const cv::Mat written = cv::imread(jpeg_.toStdString(), cv::IMREAD_UNCHANGED);
    ASSERT_FALSE(written.empty()) << window_.lastError().toStdString();
    EXPECT_EQ(written.depth(), CV_8U);
    EXPECT_EQ(written.size(), controller_.sourceImage().size());
    EXPECT_TRUE(window_.statusMessage().contains(QStringLiteral("converted from f32")))
        << window_.statusMessage().toStdString();
}

// A float Sobel shows its negative slopes below mid-grey and its positive ones above; "8-bit as
// Shown" writes that picture, pixel for pixel, where clipping would turn every negative black.
TEST_F(ExportFixTest, AsShownWritesThePictureTheViewShows)
{
    window_.findChild<QAction*>(QStringLiteral("stackAdd_sobel"))->trigger();
    auto* depth = window_.findChild<QComboBox*>(QStringLiteral("depthCombo"));
    depth->setCurrentIndex(depth->findText(QStringLiteral("32-bit float")));
    ASSERT_TRUE(QTest::qWaitFor(
        [this] { return !controller_.isPreviewPending() && !controller_.previewData().empty(); }, 20'000));
    ASSERT_EQ(controller_.previewData().depth(), CV_32F);
    const QString png = tessera::test::tempPath(QStringLiteral("export-fix"), QStringLiteral("shown.png"));
    QFile::remove(png);
    answer(Fix::ConvertAsShown);
    emit window_.exportRequested(png);
    ASSERT_TRUE(waitForWholeResult());
    const cv::Mat written = cv::imread(png.toStdString(), cv::IMREAD_COLOR);
    ASSERT_FALSE(written.empty()) << window_.lastError().toStdString();
    const QImage shown = window_.imageView()->shownImage().convertToFormat(QImage::Format_RGB888);
    ASSERT_EQ(shown.width(), written.cols);
    ASSERT_EQ(shown.height(), written.rows);
    int differ = 0;
    int black = 0;
    for (int y = 0; y < written.rows; ++y) {
        const uchar* rgb = shown.constScanLine(y);
        for (int x = 0; x < written.cols; ++x) {
            const cv::Vec3b bgr = written.at<cv::Vec3b>(y, x);
            differ += bgr[2] != rgb[3 * x] || bgr[1] != rgb[3 * x + 1] || bgr[0] != rgb[3 * x + 2];
            black += bgr == cv::Vec3b(0, 0, 0);
        }
    }
    EXPECT_EQ(differ, 0);
    EXPECT_LT(black, written.rows * written.cols / 10);
    EXPECT_TRUE(window_.statusMessage().contains(QStringLiteral("as the view shows it")))
        << window_.statusMessage().toStdString();
    QFile::remove(png);
}

TEST_F(ExportFixTest, CancelWritesNothingAndSaysWhy)
{
    answer(Fix::Cancel);
    emit window_.exportRequested(jpeg_);
    ASSERT_TRUE(waitForWholeResult());
    EXPECT_FALSE(QFile::exists(jpeg_));
    EXPECT_FALSE(QFile::exists(tiff_));
    EXPECT_TRUE(window_.statusMessage().startsWith(QStringLiteral("Nothing exported")));
}

// Export writes through the same run object as tessera-cli apply, so it keeps apply's rule: the
// file the image came from is never written; File > Save is the way to replace it.
TEST_F(ExportFixTest, ExportNeverReplacesTheOpenFile)
{
    const QString open = tessera::test::tempPath(QStringLiteral("export-fix"), QStringLiteral("open.png"));
    QFile::remove(open);
    ASSERT_TRUE(QFile::copy(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"), open));
    QFile original(open);
    ASSERT_TRUE(original.open(QIODevice::ReadOnly));
    const QByteArray before = original.readAll();
    original.close();
    controller_.openImage(open);
    window_.findChild<QAction*>(QStringLiteral("stackAdd_box"))->trigger();
    answer(Fix::ConvertAsShown);
    emit window_.exportRequested(open);
    ASSERT_TRUE(waitForWholeResult());
    ASSERT_TRUE(original.open(QIODevice::ReadOnly));
    EXPECT_EQ(original.readAll(), before);
    original.close();
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("same file as the input")))
        << window_.lastError().toStdString();
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("Nothing was written")));
    QFile::remove(open);
}

}  // namespace
