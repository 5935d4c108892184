// SPDX-License-Identifier: Apache-2.0
// A large image is read and rendered off the GUI thread: the window keeps handling events while
// it is read, the decoders report their progress, Cancel leaves the open image as it was, and
// Apply's wait shows a dialog with Cancel.
#include "gui_test_support.h"

#include "app/gui/gui_controller.h"
#include "app/io/image_io.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QProgressDialog>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <opencv2/core.hpp>

#include <vector>

namespace {

class BackgroundOpenTest : public tessera::test::WindowFixture {
protected:
    QString big(const QString& name, cv::Size size)
    {
        const QString path = dir_.filePath(name);
        cv::Mat img(size, CV_8UC3);
        cv::randu(img, cv::Scalar::all(0), cv::Scalar::all(256));
        tessera::values::EncodeOptions none;
        none.tiffCompression = tessera::values::EncodeOptions::TiffCompression::None;
        tessera::app::writeImage(path.toStdString(), img, nullptr, none);
        return path;
    }
    bool waitForOpening()
    {
        return QTest::qWaitFor([this] { return !controller_.isOpening(); }, 20'000);
    }

    QTemporaryDir dir_;
};

TEST_F(BackgroundOpenTest, ALargeImageIsReadWhileTheWindowGoesOn)
{
    controller_.setBackgroundOpenPixels(1);
    const QString coffee = QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png");
    int ticks = 0;
    QTimer timer;
    QObject::connect(&timer, &QTimer::timeout, [&ticks] { ++ticks; });
    timer.start(1);
    controller_.openImage(coffee);
    EXPECT_TRUE(controller_.isOpening()) << "openImage returned before the file was read";
    EXPECT_TRUE(controller_.sourceImage().empty());
    EXPECT_NE(window_.findChild<QProgressDialog*>(QStringLiteral("openProgress")), nullptr);
    ASSERT_TRUE(waitForOpening());
    EXPECT_GT(ticks, 0) << "the GUI thread handled events meanwhile";
    const cv::Mat want = tessera::app::readImage(coffee.toStdString());
    ASSERT_EQ(controller_.sourceImage().size(), want.size());
    EXPECT_EQ(cv::norm(controller_.sourceImage(), want, cv::NORM_INF), 0.0);
    EXPECT_TRUE(window_.imageView()->hasImage());
    EXPECT_EQ(window_.imageView()->imageSize(), QSize(want.cols, want.rows));
    EXPECT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
}

TEST_F(BackgroundOpenTest, CancelLeavesTheOpenImageAsItWas)
{
    const QString coffee = QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png");
    controller_.openImage(coffee);  // small: read at once
    ASSERT_FALSE(controller_.sourceImage().empty());
    const cv::Mat before = controller_.sourceImage().clone();
    const QString large = big(QStringLiteral("large.tif"), cv::Size(4000, 3000));
    controller_.setBackgroundOpenPixels(1'000'000);
    controller_.openImage(large);
    ASSERT_TRUE(controller_.isOpening());
    controller_.openImage(coffee);  // refused while one runs
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("Still opening"))) << window_.lastError().toStdString();
    controller_.cancelOpening();
    ASSERT_TRUE(waitForOpening());
    EXPECT_EQ(cv::norm(controller_.sourceImage(), before, cv::NORM_INF), 0.0);
    EXPECT_EQ(window_.currentPath(), QFileInfo(coffee).absoluteFilePath());
    EXPECT_TRUE(window_.statusMessage().contains(QStringLiteral("cancelled"))) << window_.statusMessage().toStdString();
}

TEST_F(BackgroundOpenTest, DecodersReportTheirProgress)
{
    const cv::Size size(1200, 900);
    for (const QString& name : {QStringLiteral("p.tif"), QStringLiteral("p.png"), QStringLiteral("p.jpg")}) {
        const QString path = big(name, size);
        std::vector<double> seen;
        tessera::app::ImageLimits limits;
        limits.progress = [&seen](double f) { seen.push_back(f); };
        tessera::app::readImage(path.toStdString(), limits);
        ASSERT_GE(seen.size(), 5u) << name.toStdString();
        EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end())) << name.toStdString();
        EXPECT_GE(seen.back(), 0.9) << name.toStdString();
        EXPECT_LE(seen.back(), 1.0);
    }
}

TEST_F(BackgroundOpenTest, WaitingForTheWholeResultOffersCancel)
{
    controller_.setRegionPreviewThreshold(10'000);
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    window_.imageView()->setZoom(4.0);  // only a region is previewed: Apply must wait for the whole
    window_.findChild<QAction*>(QStringLiteral("stackAdd_gaussian"))->trigger();
    controller_.applyPreview();
    ASSERT_TRUE(controller_.isComputingWhole());
    auto* progress = window_.findChild<QProgressDialog*>(QStringLiteral("wholeProgress"));
    ASSERT_NE(progress, nullptr);
    emit progress->canceled();
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("cancelled")) ||
                window_.statusMessage().contains(QStringLiteral("cancelled")))
        << window_.lastError().toStdString() << " / " << window_.statusMessage().toStdString();
    ASSERT_TRUE(waitForWholeResult());
}

}  // namespace
