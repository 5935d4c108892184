// SPDX-License-Identifier: Apache-2.0
#include "app/gui/gui_controller.h"
#include "gui_test_support.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "filters/registry.h"
#include "ui/filter_panel.h"
#include "ui/image_view.h"
#include "ui/help_menu.h"
#include "ui/main_window.h"
#include "ui/filter_dock.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QSpinBox>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

using tessera::app::GuiController;
using tessera::ui::MainWindow;

namespace {

using GuiControllerTest = tessera::test::WindowFixture;

TEST_F(GuiControllerTest, OpensTheCoffeeSample)
{
    const QString path = QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png");
    controller_.openImage(path);
    EXPECT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
    ASSERT_TRUE(window_.imageView()->hasImage());
    EXPECT_EQ(window_.imageView()->imageSize(), QSize(600, 400));
    EXPECT_TRUE(window_.windowTitle().contains(QStringLiteral("coffee.png")));
    EXPECT_EQ(controller_.sourceImage().cols, 600);
    EXPECT_EQ(controller_.sourceImage().rows, 400);
}

TEST_F(GuiControllerTest, OpenRequestReachesTheController)
{
    emit window_.openRequested(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    EXPECT_TRUE(window_.imageView()->hasImage());
}

TEST_F(GuiControllerTest, MissingFileShowsAnErrorWithThePath)
{
    const QString path = QStringLiteral(TESSERA_SAMPLE_DIR "/does-not-exist.png");
    controller_.openImage(path);
    EXPECT_FALSE(window_.imageView()->hasImage());
    EXPECT_TRUE(window_.lastError().contains(path)) << window_.lastError().toStdString();
    EXPECT_EQ(window_.windowTitle(), QStringLiteral("Tessera"));
}

TEST_F(GuiControllerTest, DeviceInfoFillsAboutAndStatusBar)
{
    controller_.refreshDeviceInfo();
    EXPECT_TRUE(window_.help()->aboutText().contains(QString::fromLatin1(qVersion())));
    auto* compute = window_.findChild<QLabel*>(QStringLiteral("computeLabel"));
    ASSERT_NE(compute, nullptr);
    EXPECT_TRUE(compute->text().startsWith(QStringLiteral("GPU")) || compute->text().startsWith(QStringLiteral("CPU")))
        << compute->text().toStdString();
}

}  // namespace

namespace {

TEST_F(GuiControllerTest, PreviewArrivesWithTheCpuPathsPixels)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    const double zoomBefore = window_.imageView()->zoomFactor();
    QSignalSpy shown(&controller_, &GuiController::previewShown);
    const tessera::filters::FilterChain chain{{tessera::filters::makeGaussian(1.5, 0)}};
    controller_.requestPreview(chain);
    ASSERT_TRUE(shown.wait(20000));
    const cv::Mat want = tessera::filters::applyCpu(controller_.sourceImage(), chain);
    EXPECT_LE(cv::norm(controller_.previewData(), want, cv::NORM_INF), 1.0);
    // A small image is previewed whole, whatever the view shows.
    EXPECT_EQ(controller_.previewRegion(), (tessera::values::Rect{0, 0, 600, 400}));
    EXPECT_TRUE(window_.previewStatus().startsWith(QStringLiteral("Preview: ")))
        << window_.previewStatus().toStdString();
    EXPECT_FALSE(window_.previewStatus().contains(QStringLiteral(", view "))) << window_.previewStatus().toStdString();
    // A preview replaces the pixels, not the view.
    EXPECT_DOUBLE_EQ(window_.imageView()->zoomFactor(), zoomBefore);
    EXPECT_EQ(window_.imageView()->imageSize(), QSize(600, 400));
}

TEST_F(GuiControllerTest, NewestOfTwentyPreviewsIsTheOneShown)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    QSignalSpy shown(&controller_, &GuiController::previewShown);
    tessera::filters::FilterChain last;
    for (int i = 1; i <= 20; ++i) {
        last = tessera::filters::FilterChain{{tessera::filters::makeBox(2 * i + 1, true)}};
        controller_.requestPreview(last);
    }
    // Wait until the last request's preview is on screen.
    for (int tries = 0; tries < 100; ++tries) {
        const cv::Mat want = tessera::filters::applyCpu(controller_.sourceImage(), last);
        if (!controller_.previewData().empty() && cv::norm(controller_.previewData(), want, cv::NORM_INF) == 0.0) {
            break;
        }
        shown.wait(200);
    }
    const cv::Mat want = tessera::filters::applyCpu(controller_.sourceImage(), last);
    ASSERT_FALSE(controller_.previewData().empty())
        << shown.count() << " previews shown; status: " << window_.previewStatus().toStdString()
        << "; last error: " << window_.lastError().toStdString() << "; pending: " << controller_.isPreviewPending();
    EXPECT_LE(cv::norm(controller_.previewData(), want, cv::NORM_INF), 1.0)
        << "status: " << window_.previewStatus().toStdString();
    EXPECT_LE(shown.count(), 20);
}

}  // namespace

namespace {

TEST_F(GuiControllerTest, MovingAParameterInThePanelUpdatesThePreview)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    auto* panel = window_.filterDock()->panel();
    ASSERT_NE(panel, nullptr);
    auto* combo = panel->findChild<QComboBox*>(QStringLiteral("filterCombo"));
    ASSERT_NE(combo, nullptr);
    combo->setCurrentIndex(combo->findData(QStringLiteral("box")));
    auto* size = panel->findChild<QSpinBox*>(QStringLiteral("param_size_spin"));
    ASSERT_NE(size, nullptr);
    QSignalSpy shown(&controller_, &GuiController::previewShown);
    size->setValue(7);
    ASSERT_TRUE(shown.wait(20000) || shown.count() > 0);
    while (shown.wait(300)) {}
    const tessera::filters::FilterChoice choice = panel->currentChoice();
    ASSERT_EQ(choice.id, "box");
    const auto spec = tessera::filters::builtinRegistry().get("box").build(choice.values);
    const cv::Mat want = tessera::filters::applyCpu(controller_.sourceImage(), spec);
    EXPECT_LE(cv::norm(controller_.previewData(), want, cv::NORM_INF), 1.0);
    EXPECT_EQ(spec.kernel.width, 7);
}

}  // namespace

namespace {

using tessera::test::waitForPreviewOf;

tessera::filters::FilterChain boxChain(int size)
{
    return tessera::filters::FilterChain{{tessera::filters::makeBox(size, true)}};
}

TEST_F(GuiControllerTest, UndoApplySaveReload)
{
    const QString path = QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png");
    controller_.openImage(path);
    const cv::Mat original = controller_.sourceImage().clone();
    auto* panel = window_.filterDock()->panel();
    auto* combo = panel->findChild<QComboBox*>(QStringLiteral("filterCombo"));
    combo->setCurrentIndex(combo->findData(QStringLiteral("box")));
    auto* size = panel->findChild<QSpinBox*>(QStringLiteral("param_size_spin"));
    ASSERT_NE(size, nullptr);
    size->setValue(5);
    ASSERT_TRUE(waitForPreviewOf(controller_, boxChain(5)));
    // A separate step (outside the merge window) to undo.
    QTest::qWait(1100);
    size->setValue(9);
    ASSERT_TRUE(waitForPreviewOf(controller_, boxChain(9)));
    ASSERT_TRUE(controller_.undoStack().canUndo());

    controller_.undoStack().undo();
    EXPECT_EQ(size->value(), 5);
    ASSERT_TRUE(waitForPreviewOf(controller_, boxChain(5)));
    controller_.undoStack().redo();
    EXPECT_EQ(size->value(), 9);
    ASSERT_TRUE(waitForPreviewOf(controller_, boxChain(9)));

    // Apply makes the preview the image, and marks it modified.
    controller_.applyPreview();
    const cv::Mat applied = tessera::filters::applyCpu(original, boxChain(9));
    EXPECT_LE(cv::norm(controller_.sourceImage(), applied, cv::NORM_INF), 1.0);
    EXPECT_TRUE(window_.isWindowModified());

    // Save to a new file, read it back: same pixels, and no longer modified.
    const QString out =
        QDir::temp().filePath(QStringLiteral("tessera-ui-save-%1.png").arg(QCoreApplication::applicationPid()));
    emit window_.saveRequested(out);
    EXPECT_FALSE(window_.isWindowModified()) << window_.lastError().toStdString();
    // Save As moves the document: the title and the next Save follow the new file.
    EXPECT_EQ(window_.currentPath(), QFileInfo(out).absoluteFilePath());
    EXPECT_TRUE(window_.windowTitle().contains(QFileInfo(out).fileName()));
    const cv::Mat reloaded = cv::imread(out.toStdString(), cv::IMREAD_UNCHANGED);
    ASSERT_FALSE(reloaded.empty());
    EXPECT_EQ(cv::norm(reloaded, controller_.sourceImage(), cv::NORM_INF), 0.0);
    QFile::remove(out);

    // Undo the apply: the original pixels are back.
    controller_.undoStack().undo();
    EXPECT_EQ(cv::norm(controller_.sourceImage(), original, cv::NORM_INF), 0.0);
    EXPECT_TRUE(window_.isWindowModified());
}

TEST_F(GuiControllerTest, ApplyWithoutPreviewSaysSo)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    controller_.applyPreview();
    EXPECT_FALSE(controller_.undoStack().canUndo());
    EXPECT_TRUE(window_.lastError().contains(QStringLiteral("Nothing to apply"))) << window_.lastError().toStdString();
}

}  // namespace

namespace {

TEST_F(GuiControllerTest, PixelReadoutGivesRgbValuesInTheImagesDepth)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    const cv::Mat& img = controller_.sourceImage();
    const cv::Vec3b bgr = img.at<cv::Vec3b>(7, 3);
    const QString want = QStringLiteral("x 3, y 7: %1 %2 %3").arg(bgr[2]).arg(bgr[1]).arg(bgr[0]);
    EXPECT_EQ(controller_.describePixel(QPoint(3, 7)), want);
    EXPECT_TRUE(controller_.describePixel(QPoint(600, 0)).isEmpty());
    EXPECT_TRUE(controller_.describePixel(QPoint(-1, 5)).isEmpty());
}

}  // namespace

namespace {

TEST_F(GuiControllerTest, CompareShowsTheOriginalLeftOfTheDivider)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    auto* compare = window_.findChild<QAction*>(QStringLiteral("actionCompare"));
    ASSERT_NE(compare, nullptr);
    const tessera::filters::FilterChain chain{{tessera::filters::makeBox(15, true)}};
    controller_.requestPreview(chain);
    ASSERT_TRUE(waitForPreviewOf(controller_, chain));
    EXPECT_TRUE(compare->isEnabled());
    compare->setChecked(true);
    EXPECT_TRUE(window_.imageView()->isSplitEnabled());
    // Left of the divider the readout is the original's value, right of it the preview's.
    const cv::Vec3b left = controller_.sourceImage().at<cv::Vec3b>(200, 10);
    const cv::Vec3b right = controller_.previewData().at<cv::Vec3b>(200, 590);
    EXPECT_EQ(controller_.describePixel(QPoint(10, 200)),
              QStringLiteral("x 10, y 200: %1 %2 %3").arg(left[2]).arg(left[1]).arg(left[0]));
    EXPECT_EQ(controller_.describePixel(QPoint(590, 200)),
              QStringLiteral("x 590, y 200: %1 %2 %3").arg(right[2]).arg(right[1]).arg(right[0]));
    compare->setChecked(false);
    EXPECT_FALSE(window_.imageView()->isSplitEnabled());
}

}  // namespace
