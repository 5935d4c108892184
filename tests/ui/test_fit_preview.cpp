// SPDX-License-Identifier: Apache-2.0
// A large image shown whole at zoom 1/2 or less is previewed at the screen's pixels: the means of
// the blocks each screen pixel covers, equal to the full result reduced the same way (8-bit
// within 1), shown at the image's size and read out as block means; zooming in brings the full
// resolution back, and Apply always filters every pixel.
#include "gui_test_support.h"

#include "app/engine/reduced_preview.h"
#include "app/gui/gui_controller.h"
#include "filters/cpu_executor.h"
#include "filters/registry.h"
#include "ui/image_view.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QSignalSpy>
#include <QTest>

#include <opencv2/core.hpp>

namespace {

using tessera::app::GuiController;
using tessera::filters::FilterChain;

FilterChain sharpenChain()
{
    return FilterChain{{tessera::filters::builtinRegistry().get("sharpen").build({})}};
}

class FitPreviewTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        controller_.setRegionPreviewThreshold(10'000);  // coffee (600 x 400) counts as large
        controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
        ASSERT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
        original_ = controller_.sourceImage().clone();
    }

    tessera::ui::ImageView* view() { return window_.imageView(); }

    /// Waits until nothing is pending and the preview shown has the reduction wanted.
    bool waitForPreview(int reduce)
    {
        QSignalSpy shown(&controller_, &GuiController::previewShown);
        for (int tries = 0; tries < 100; ++tries) {
            if (!controller_.isPreviewPending() && !controller_.previewData().empty() &&
                controller_.previewReduce() == reduce) {
                return true;
            }
            shown.wait(200);
        }
        return false;
    }

    cv::Mat original_;
};

TEST_F(FitPreviewTest, TheWholeImageAtAQuarterIsPreviewedAsBlockMeans)
{
    view()->setZoom(0.25);
    window_.findChild<QAction*>(QStringLiteral("stackAdd_sharpen"))->trigger();
    ASSERT_TRUE(waitForPreview(4));
    const cv::Mat want = tessera::app::reduceByBlocks(tessera::filters::applyCpu(original_, sharpenChain()), 4);
    const cv::Mat& got = controller_.previewData();
    ASSERT_EQ(got.size(), want.size());
    ASSERT_EQ(got.type(), want.type());
    EXPECT_LE(cv::norm(got, want, cv::NORM_INF), 1.0);
    EXPECT_EQ(view()->imageSize(), QSize(600, 400)) << "shown at the image's size";
    EXPECT_DOUBLE_EQ(view()->renderingScale(), 4.0);
    EXPECT_TRUE(window_.previewStatus().contains(QStringLiteral("fit view 1:4")))
        << window_.previewStatus().toStdString();
    EXPECT_TRUE(controller_.describePixel(QPoint(9, 9)).contains(QStringLiteral("mean of the 4 \u00d7 4 block")));

    // Zoomed in, the view gets every pixel again.
    view()->setZoom(1.0);
    ASSERT_TRUE(waitForPreview(1));
    const tessera::values::Rect region = controller_.previewRegion();
    const cv::Mat full = tessera::filters::applyCpuRegion(original_, sharpenChain(),
                                                          cv::Rect(region.x, region.y, region.width, region.height));
    EXPECT_LE(cv::norm(controller_.previewData(), full, cv::NORM_INF), 1.0);
    EXPECT_DOUBLE_EQ(view()->renderingScale(), 1.0);
}

TEST_F(FitPreviewTest, ApplyFiltersEveryPixelAfterAReducedPreview)
{
    view()->setZoom(0.25);
    window_.findChild<QAction*>(QStringLiteral("stackAdd_sharpen"))->trigger();
    ASSERT_TRUE(waitForPreview(4));
    controller_.applyPreview();
    ASSERT_TRUE(waitForWholeResult());
    const cv::Mat want = tessera::filters::applyCpu(original_, sharpenChain());
    const cv::Mat& now = controller_.sourceImage();
    ASSERT_EQ(now.size(), want.size());
    EXPECT_LE(cv::norm(now, want, cv::NORM_INF), 1.0);
}

}  // namespace
