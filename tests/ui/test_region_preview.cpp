// SPDX-License-Identifier: Apache-2.0
#include "gui_test_support.h"

#include "app/gui/gui_controller.h"
#include "filters/cpu_executor.h"
#include "filters/registry.h"
#include "ui/image_view.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <QAction>
#include <QFile>
#include <QListWidget>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

namespace {

using tessera::app::GuiController;
using tessera::filters::FilterChain;
using tessera::values::Rect;

const QSize kCoffee(600, 400);

FilterChain gaussianChain()
{
    return FilterChain{{tessera::filters::builtinRegistry().get("gaussian").build({})}};
}

cv::Rect toCv(const Rect& r)
{
    return cv::Rect(r.x, r.y, r.width, r.height);
}

QSize sizeOf(const Rect& r)
{
    return QSize(r.width, r.height);
}

/// What a preview of a view showing visible should cover: visible and a quarter of its size on
/// each side, inside the image.
Rect withMargin(const Rect& visible)
{
    const int dx = visible.width / 4;
    const int dy = visible.height / 4;
    const int left = std::max(0, visible.x - dx);
    const int top = std::max(0, visible.y - dy);
    const int right = std::min(kCoffee.width(), visible.x + visible.width + dx);
    const int bottom = std::min(kCoffee.height(), visible.y + visible.height + dy);
    return Rect{left, top, right - left, bottom - top};
}

/// Coffee (600 x 400) treated as a large image, zoomed in so the view shows a part of it.
class RegionPreviewTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        controller_.setRegionPreviewThreshold(10'000);
        controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
        ASSERT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
        original_ = controller_.sourceImage().clone();
        view()->setZoom(4.0);
        QTest::qWait(50);
        const Rect visible = view()->visibleImageRect();
        ASSERT_LT(visible.width, kCoffee.width() / 2);
        ASSERT_LT(visible.height, kCoffee.height() / 2);
    }

    tessera::ui::ImageView* view() { return window_.imageView(); }

    void addGaussian() { window_.findChild<QAction*>(QStringLiteral("stackAdd_gaussian"))->trigger(); }

    /// Waits until no preview is outstanding and the one shown covers what the view shows, with
    /// the CPU path's pixels of chain there (within one level, for a GPU's rounding).
    bool waitForViewPreview(const FilterChain& chain)
    {
        QSignalSpy shown(&controller_, &GuiController::previewShown);
        for (int tries = 0; tries < 100; ++tries) {
            const Rect region = controller_.previewRegion();
            const cv::Mat& got = controller_.previewData();
            if (!controller_.isPreviewPending() && !got.empty() && region.contains(view()->visibleImageRect())) {
                const cv::Mat want = tessera::filters::applyCpuRegion(original_, chain, toCv(region));
                if (got.size == want.size && got.type() == want.type() && cv::norm(got, want, cv::NORM_INF) <= 1.0) {
                    return true;
                }
            }
            shown.wait(200);
        }
        return false;
    }

    /// The region preview's pixels against the whole image filtered on the CPU path, cut.
    void expectPreviewIsPartOfWholeResult()
    {
        const cv::Mat whole = tessera::filters::applyCpu(original_, gaussianChain());
        const Rect region = controller_.previewRegion();
        EXPECT_LE(cv::norm(controller_.previewData(), whole(toCv(region)), cv::NORM_INF), 1.0);
        EXPECT_EQ(view()->patchRect(), region);
        EXPECT_TRUE(window_.previewStatus().endsWith(
            QStringLiteral(", view %1 \u00d7 %2").arg(region.width).arg(region.height)))
            << window_.previewStatus().toStdString();
    }

    cv::Mat original_;
};

TEST_F(RegionPreviewTest, PreviewCoversTheViewAndItsMargin)
{
    addGaussian();
    ASSERT_TRUE(waitForViewPreview(gaussianChain()));
    const Rect region = controller_.previewRegion();
    EXPECT_EQ(region, withMargin(view()->visibleImageRect()));
    EXPECT_NE(sizeOf(region), kCoffee);
    expectPreviewIsPartOfWholeResult();
}

TEST_F(RegionPreviewTest, ScrollingOffTheRegionBringsAnotherOne)
{
    addGaussian();
    ASSERT_TRUE(waitForViewPreview(gaussianChain()));
    const quint64 first = controller_.shownPreview();
    const Rect centre = controller_.previewRegion();

    // A small scroll stays inside the margin: no new request.
    view()->horizontalScrollBar()->setValue(view()->horizontalScrollBar()->value() + 8);
    QTest::qWait(150);
    EXPECT_FALSE(controller_.isPreviewPending());
    EXPECT_EQ(controller_.shownPreview(), first);

    view()->horizontalScrollBar()->setValue(view()->horizontalScrollBar()->maximum());
    view()->verticalScrollBar()->setValue(view()->verticalScrollBar()->maximum());
    ASSERT_FALSE(centre.contains(view()->visibleImageRect()));
    ASSERT_TRUE(waitForViewPreview(gaussianChain()));
    EXPECT_GT(controller_.shownPreview(), first);
    EXPECT_EQ(controller_.previewRegion(), withMargin(view()->visibleImageRect()));
    // It reaches the image's last column and row.
    EXPECT_EQ(controller_.previewRegion().right(), kCoffee.width());
    EXPECT_EQ(controller_.previewRegion().bottom(), kCoffee.height());
    expectPreviewIsPartOfWholeResult();

    // Fitted to the window the view shows the whole image, and so does the preview.
    view()->fitToWindow();
    ASSERT_TRUE(waitForViewPreview(gaussianChain()));
    EXPECT_EQ(controller_.previewRegion(), (Rect{0, 0, kCoffee.width(), kCoffee.height()}));
    EXPECT_TRUE(view()->patchRect().empty());
    EXPECT_FALSE(window_.previewStatus().contains(QStringLiteral(", view "))) << window_.previewStatus().toStdString();
}

TEST_F(RegionPreviewTest, PixelReadoutInsideAndOutsideTheRegion)
{
    addGaussian();
    ASSERT_TRUE(waitForViewPreview(gaussianChain()));
    const Rect region = controller_.previewRegion();
    const cv::Mat whole = tessera::filters::applyCpu(original_, gaussianChain());
    const QPoint inside((2 * region.x + region.width - 1) / 2, (2 * region.y + region.height - 1) / 2);
    const cv::Vec3b filtered = controller_.previewData().at<cv::Vec3b>(inside.y() - region.y, inside.x() - region.x);
    EXPECT_LE(cv::norm(cv::Mat(filtered), cv::Mat(whole.at<cv::Vec3b>(inside.y(), inside.x())), cv::NORM_INF), 1.0);
    EXPECT_EQ(controller_.describePixel(inside), QStringLiteral("x %1, y %2: %3 %4 %5")
                                                     .arg(inside.x())
                                                     .arg(inside.y())
                                                     .arg(filtered[2])
                                                     .arg(filtered[1])
                                                     .arg(filtered[0]));
    const QPoint outside(2, 3);
    ASSERT_FALSE(region.containsPixel(outside.x(), outside.y()));
    const cv::Vec3b source = original_.at<cv::Vec3b>(3, 2);
    EXPECT_EQ(controller_.describePixel(outside), QStringLiteral("x 2, y 3: %1 %2 %3 (original: not previewed here)")
                                                      .arg(source[2])
                                                      .arg(source[1])
                                                      .arg(source[0]));

    // Left of the compare divider the original is on screen, and read out without a note.
    view()->setSplitPosition(1.0);
    view()->setSplitEnabled(true);
    ASSERT_TRUE(view()->isSplitEnabled());
    const cv::Vec3b before = original_.at<cv::Vec3b>(inside.y(), inside.x());
    EXPECT_EQ(controller_.describePixel(inside), QStringLiteral("x %1, y %2: %3 %4 %5")
                                                     .arg(inside.x())
                                                     .arg(inside.y())
                                                     .arg(before[2])
                                                     .arg(before[1])
                                                     .arg(before[0]));
}

TEST_F(RegionPreviewTest, ApplyThenSaveWritesTheWholeFilteredImage)
{
    addGaussian();
    ASSERT_TRUE(waitForViewPreview(gaussianChain()));
    ASSERT_NE(sizeOf(controller_.previewRegion()), kCoffee);
    const cv::Mat want = tessera::filters::applyCpu(original_, gaussianChain());
    window_.findChild<QAction*>(QStringLiteral("actionApply"))->trigger();
    ASSERT_TRUE(waitForWholeResult());
    ASSERT_EQ(controller_.sourceImage().size(), original_.size());
    EXPECT_LE(cv::norm(controller_.sourceImage(), want, cv::NORM_INF), 1.0);
    EXPECT_EQ(window_.findChild<QListWidget*>(QStringLiteral("stackList"))->count(), 0);
    EXPECT_TRUE(view()->patchRect().empty());

    const QString out = tessera::test::tempPath(QStringLiteral("region"), QStringLiteral("applied.png"));
    emit window_.saveRequested(out);
    EXPECT_FALSE(window_.isWindowModified()) << window_.lastError().toStdString();
    const cv::Mat reloaded = cv::imread(out.toStdString(), cv::IMREAD_UNCHANGED);
    QFile::remove(out);
    ASSERT_EQ(reloaded.size(), original_.size());
    EXPECT_EQ(cv::norm(reloaded, controller_.sourceImage(), cv::NORM_INF), 0.0);
    EXPECT_LE(cv::norm(reloaded, want, cv::NORM_INF), 1.0);
}

TEST_F(RegionPreviewTest, ExportWritesTheWholeFilteredImage)
{
    addGaussian();
    ASSERT_TRUE(waitForViewPreview(gaussianChain()));
    const QString out = tessera::test::tempPath(QStringLiteral("region"), QStringLiteral("export.tif"));
    emit window_.exportRequested(out);
    ASSERT_TRUE(waitForWholeResult());
    EXPECT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
    const cv::Mat written = cv::imread(out.toStdString(), cv::IMREAD_UNCHANGED);
    QFile::remove(out);
    ASSERT_EQ(written.size(), original_.size());
    EXPECT_LE(cv::norm(written, tessera::filters::applyCpu(original_, gaussianChain()), cv::NORM_INF), 1.0);
    // The whole result is on screen now; the document is as it was.
    EXPECT_EQ(controller_.previewRegion(), (Rect{0, 0, kCoffee.width(), kCoffee.height()}));
    EXPECT_EQ(cv::norm(written, controller_.previewData(), cv::NORM_INF), 0.0);
    EXPECT_FALSE(window_.isWindowModified());
    EXPECT_EQ(cv::norm(controller_.sourceImage(), original_, cv::NORM_INF), 0.0);
}

}  // namespace
