// SPDX-License-Identifier: Apache-2.0
// Export to a format that cannot hold the result is no dead end: the user may write the same
// name as TIFF, convert the result to 8 bits in the chosen format, or write nothing.

#include "gui_test_support.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QStatusBar>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

namespace {

using tessera::ui::MainWindow;
using Fix = MainWindow::ExportFix;

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
        window_.prompts().setExportFixPrompt([this, fix](const QString& problem, const QString& other, bool canConvert) {
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
    EXPECT_TRUE(window_.statusBar()->currentMessage().contains(tiff_));
}

TEST_F(ExportFixTest, ConvertTo8BitKeepsTheChosenFormat)
{
    answer(Fix::Convert8Bit);
    emit window_.exportRequested(jpeg_);
    ASSERT_TRUE(waitForWholeResult());
    ASSERT_EQ(asked_.size(), 1);
    const cv::Mat written = cv::imread(jpeg_.toStdString(), cv::IMREAD_UNCHANGED);
    ASSERT_FALSE(written.empty()) << window_.lastError().toStdString();
    EXPECT_EQ(written.depth(), CV_8U);
    EXPECT_EQ(written.size(), controller_.sourceImage().size());
    EXPECT_TRUE(window_.statusBar()->currentMessage().contains(QStringLiteral("converted from f32")))
        << window_.statusBar()->currentMessage().toStdString();
}

TEST_F(ExportFixTest, CancelWritesNothingAndSaysWhy)
{
    answer(Fix::Cancel);
    emit window_.exportRequested(jpeg_);
    ASSERT_TRUE(waitForWholeResult());
    EXPECT_FALSE(QFile::exists(jpeg_));
    EXPECT_FALSE(QFile::exists(tiff_));
    EXPECT_TRUE(window_.statusBar()->currentMessage().startsWith(QStringLiteral("Nothing exported")));
}

}  // namespace
