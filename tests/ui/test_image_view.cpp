// SPDX-License-Identifier: Apache-2.0
#include "ui/image_view.h"

#include <gtest/gtest.h>

#include <QMouseEvent>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

using tessera::ui::ImageView;

namespace {

QImage makeImage(int width, int height, QColor color = Qt::darkCyan)
{
    QImage image(width, height, QImage::Format_RGB888);
    image.fill(color);
    return image;
}

// A plain hover, sent straight to the viewport: QTest::mouseMove without a button moves the
// global cursor, which the offscreen platform need not turn into an event.
void hover(QWidget* viewport, QPoint pos)
{
    QMouseEvent move(QEvent::MouseMove, QPointF(pos), viewport->mapToGlobal(QPointF(pos)), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QCoreApplication::sendEvent(viewport, &move);
}

int grayAt(const QImage& frame, QPoint pos, qreal dpr)
{
    return qGray(frame.pixel(qRound(pos.x() * dpr), qRound(pos.y() * dpr)));
}

class ImageViewTest : public testing::Test {
protected:
    void SetUp() override
    {
        view_.resize(400, 300);
        view_.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view_));
    }

    ImageView view_;
};

TEST_F(ImageViewTest, StartsEmpty)
{
    EXPECT_FALSE(view_.hasImage());
    EXPECT_TRUE(view_.imageSize().isEmpty());
    EXPECT_DOUBLE_EQ(view_.zoomFactor(), 1.0);
}

TEST_F(ImageViewTest, BigImageIsFittedBelowActualSize)
{
    view_.setImage(makeImage(4000, 3000));
    ASSERT_TRUE(view_.hasImage());
    EXPECT_EQ(view_.imageSize(), QSize(4000, 3000));
    EXPECT_TRUE(view_.isFitToWindow());
    EXPECT_LT(view_.zoomFactor(), 1.0);
    // The whole image fits inside the viewport.
    EXPECT_LE(4000 * view_.zoomFactor(), view_.viewport()->width() + 0.5);
    EXPECT_LE(3000 * view_.zoomFactor(), view_.viewport()->height() + 0.5);
}

TEST_F(ImageViewTest, ZoomStepsAndActualSize)
{
    view_.setImage(makeImage(4000, 3000));
    const double fitted = view_.zoomFactor();
    view_.zoomIn();
    EXPECT_NEAR(view_.zoomFactor(), fitted * ImageView::kZoomStep, 1e-9);
    EXPECT_FALSE(view_.isFitToWindow());
    view_.zoomOut();
    view_.zoomOut();
    EXPECT_NEAR(view_.zoomFactor(), fitted / ImageView::kZoomStep, 1e-9);
    view_.actualSize();
    EXPECT_DOUBLE_EQ(view_.zoomFactor(), 1.0);
    view_.fitToWindow();
    EXPECT_NEAR(view_.zoomFactor(), fitted, 1e-9);
}

TEST_F(ImageViewTest, ZoomIsClamped)
{
    view_.setImage(makeImage(64, 64));
    view_.setZoom(1e6);
    EXPECT_DOUBLE_EQ(view_.zoomFactor(), ImageView::kMaxZoom);
    view_.setZoom(0.0);
    EXPECT_DOUBLE_EQ(view_.zoomFactor(), ImageView::kMinZoom);
}

TEST_F(ImageViewTest, LeavingFitKeepsTheCentre)
{
    view_.setImage(makeImage(4000, 3000));
    view_.actualSize();
    QCoreApplication::processEvents();
    const QPointF centre = view_.mapToScene(view_.viewport()->rect().center());
    EXPECT_NEAR(centre.x(), 2000.0, 2.0);
    EXPECT_NEAR(centre.y(), 1500.0, 2.0);
}

TEST_F(ImageViewTest, FitFollowsWindowSize)
{
    view_.setImage(makeImage(4000, 3000));
    const double before = view_.zoomFactor();
    view_.resize(800, 600);
    QCoreApplication::processEvents();
    EXPECT_GT(view_.zoomFactor(), before);
}

TEST_F(ImageViewTest, CtrlWheelZoomsKeepingThePointUnderTheCursor)
{
    view_.setImage(makeImage(4000, 3000));
    view_.actualSize();
    const QPoint cursor(100, 80);
    const QPointF before = view_.mapToScene(cursor);
    QWheelEvent wheel(cursor, view_.viewport()->mapToGlobal(cursor), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::ControlModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(view_.viewport(), &wheel);
    EXPECT_NEAR(view_.zoomFactor(), ImageView::kZoomStep, 1e-9);
    const QPointF after = view_.mapToScene(cursor);
    EXPECT_NEAR(after.x(), before.x(), 2.0);
    EXPECT_NEAR(after.y(), before.y(), 2.0);
}

TEST_F(ImageViewTest, PlainWheelDoesNotZoom)
{
    view_.setImage(makeImage(4000, 3000));
    view_.actualSize();
    const QPoint cursor(100, 80);
    QWheelEvent wheel(cursor, view_.viewport()->mapToGlobal(cursor), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(view_.viewport(), &wheel);
    EXPECT_DOUBLE_EQ(view_.zoomFactor(), 1.0);
}

TEST_F(ImageViewTest, NullImageClears)
{
    view_.setImage(makeImage(10, 10));
    view_.setImage(QImage());
    EXPECT_FALSE(view_.hasImage());
}

TEST_F(ImageViewTest, SplitNeedsAnOriginalOfTheShownSize)
{
    QSignalSpy enabled(&view_, &ImageView::splitEnabledChanged);
    view_.setImage(makeImage(64, 48));
    EXPECT_FALSE(view_.isSplitEnabled());
    EXPECT_DOUBLE_EQ(view_.splitPosition(), 0.5);
    view_.setSplitEnabled(true);
    EXPECT_FALSE(view_.isSplitEnabled());
    view_.setOriginal(makeImage(10, 10));
    EXPECT_FALSE(view_.hasOriginal());
    view_.setSplitEnabled(true);
    EXPECT_FALSE(view_.isSplitEnabled());
    EXPECT_EQ(enabled.count(), 0);

    view_.setOriginal(makeImage(64, 48, Qt::black));
    EXPECT_TRUE(view_.hasOriginal());
    view_.setSplitEnabled(true);
    EXPECT_TRUE(view_.isSplitEnabled());
    EXPECT_TRUE(view_.showsOriginalAt(QPoint(31, 0)));
    EXPECT_FALSE(view_.showsOriginalAt(QPoint(32, 0)));
    view_.setSplitEnabled(false);
    EXPECT_FALSE(view_.isSplitEnabled());
    ASSERT_EQ(enabled.count(), 2);
    EXPECT_TRUE(enabled.at(0).at(0).toBool());
    EXPECT_FALSE(enabled.at(1).at(0).toBool());
}

TEST_F(ImageViewTest, SplitPositionIsClampedAndSignalled)
{
    QSignalSpy moved(&view_, &ImageView::splitPositionChanged);
    view_.setSplitPosition(0.25);
    EXPECT_DOUBLE_EQ(view_.splitPosition(), 0.25);
    view_.setSplitPosition(-3.0);
    EXPECT_DOUBLE_EQ(view_.splitPosition(), 0.0);
    view_.setSplitPosition(7.0);
    EXPECT_DOUBLE_EQ(view_.splitPosition(), 1.0);
    view_.setSplitPosition(1.0);
    ASSERT_EQ(moved.count(), 3);
    EXPECT_DOUBLE_EQ(moved.at(0).at(0).toDouble(), 0.25);
    EXPECT_DOUBLE_EQ(moved.at(2).at(0).toDouble(), 1.0);
}

TEST_F(ImageViewTest, ImageOfAnotherSizeDropsOriginalAndSplit)
{
    view_.setImage(makeImage(64, 48));
    view_.setOriginal(makeImage(64, 48, Qt::black));
    view_.setSplitEnabled(true);
    QSignalSpy enabled(&view_, &ImageView::splitEnabledChanged);
    view_.replaceImage(makeImage(64, 48, Qt::white));
    EXPECT_TRUE(view_.isSplitEnabled());
    view_.setImage(makeImage(32, 32));
    EXPECT_FALSE(view_.isSplitEnabled());
    EXPECT_FALSE(view_.hasOriginal());
    ASSERT_EQ(enabled.count(), 1);
    EXPECT_FALSE(enabled.at(0).at(0).toBool());
    // A later image of the old size does not bring the old original back.
    view_.setImage(makeImage(64, 48));
    EXPECT_FALSE(view_.hasOriginal());
}

TEST_F(ImageViewTest, DraggingTheDividerMovesItWithoutPanning)
{
    view_.setImage(makeImage(4000, 3000, Qt::white));
    view_.setOriginal(makeImage(4000, 3000, Qt::black));
    view_.actualSize();
    view_.setSplitEnabled(true);
    QCoreApplication::processEvents();
    QWidget* viewport = view_.viewport();
    const QPoint divider = view_.mapFromScene(QPointF(2000.0, 1500.0));
    ASSERT_TRUE(viewport->rect().contains(divider));
    const int h = view_.horizontalScrollBar()->value();
    const int v = view_.verticalScrollBar()->value();

    hover(viewport, divider);
    EXPECT_EQ(viewport->cursor().shape(), Qt::SplitHCursor);
    QSignalSpy moved(&view_, &ImageView::splitPositionChanged);
    const QPoint target = divider + QPoint(60, 15);
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, divider);
    QTest::mouseMove(viewport, target);
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, target);

    EXPECT_GE(moved.count(), 1);
    EXPECT_NEAR(view_.splitPosition(), (2000.0 + 60.0) / 4000.0, 1.0 / 4000.0);
    EXPECT_EQ(view_.horizontalScrollBar()->value(), h);
    EXPECT_EQ(view_.verticalScrollBar()->value(), v);

    // Away from the divider the same gesture still pans and leaves the divider alone.
    const double split = view_.splitPosition();
    const QPoint away(20, divider.y());
    hover(viewport, away);
    EXPECT_NE(viewport->cursor().shape(), Qt::SplitHCursor);
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, away);
    QTest::mouseMove(viewport, away + QPoint(40, 0));
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, away + QPoint(40, 0));
    EXPECT_NE(view_.horizontalScrollBar()->value(), h);
    EXPECT_DOUBLE_EQ(view_.splitPosition(), split);
}

TEST_F(ImageViewTest, SplitShowsOriginalLeftAndFilteredRight)
{
    view_.setImage(makeImage(200, 100, Qt::white));
    view_.setOriginal(makeImage(200, 100, Qt::black));
    view_.setSplitEnabled(true);
    QCoreApplication::processEvents();
    const qreal dpr = view_.viewport()->devicePixelRatioF();

    QPoint divider = view_.mapFromScene(QPointF(100.0, 50.0));
    QImage frame = view_.viewport()->grab().toImage();
    EXPECT_LT(grayAt(frame, divider - QPoint(30, 0), dpr), 64);
    EXPECT_GT(grayAt(frame, divider + QPoint(30, 0), dpr), 192);

    // Zoomed in and panned, the boundary still follows the divider.
    view_.setZoom(4.0);
    view_.horizontalScrollBar()->setValue(view_.horizontalScrollBar()->value() + 50);
    QCoreApplication::processEvents();
    divider = view_.mapFromScene(QPointF(100.0, 50.0));
    ASSERT_TRUE(view_.viewport()->rect().contains(divider));
    frame = view_.viewport()->grab().toImage();
    EXPECT_LT(grayAt(frame, divider - QPoint(30, 0), dpr), 64);
    EXPECT_GT(grayAt(frame, divider + QPoint(30, 0), dpr), 192);

    view_.setSplitEnabled(false);
    frame = view_.viewport()->grab().toImage();
    EXPECT_GT(grayAt(frame, divider - QPoint(30, 0), dpr), 192);
}

TEST_F(ImageViewTest, PixelHoveredFollowsZoomAndScroll)
{
    view_.setImage(makeImage(4000, 3000));
    view_.actualSize();
    QCoreApplication::processEvents();
    QSignalSpy hovered(&view_, &ImageView::pixelHovered);
    // With the image larger than the window, viewport x maps to (x + scroll) / zoom.
    view_.horizontalScrollBar()->setValue(1000);
    view_.verticalScrollBar()->setValue(500);
    hover(view_.viewport(), QPoint(10, 20));
    ASSERT_GE(hovered.count(), 1);
    EXPECT_EQ(hovered.last().at(0).toPoint(), QPoint(1010, 520));

    view_.setZoom(2.0);
    view_.horizontalScrollBar()->setValue(1000);
    view_.verticalScrollBar()->setValue(500);
    hover(view_.viewport(), QPoint(11, 21));
    EXPECT_EQ(hovered.last().at(0).toPoint(), QPoint(505, 260));
    hover(view_.viewport(), QPoint(13, 23));
    EXPECT_EQ(hovered.last().at(0).toPoint(), QPoint(506, 261));
}

TEST_F(ImageViewTest, PixelLeftOutsideTheImage)
{
    view_.setImage(makeImage(100, 80));
    view_.actualSize();
    QCoreApplication::processEvents();
    QSignalSpy hovered(&view_, &ImageView::pixelHovered);
    QSignalSpy left(&view_, &ImageView::pixelLeft);
    const QPoint centre = view_.mapFromScene(QPointF(50.0, 40.0));
    hover(view_.viewport(), centre);
    ASSERT_EQ(hovered.count(), 1);
    EXPECT_EQ(hovered.last().at(0).toPoint(), QPoint(50, 40));
    hover(view_.viewport(), centre);
    EXPECT_EQ(hovered.count(), 1);
    hover(view_.viewport(), QPoint(2, 2));
    EXPECT_EQ(left.count(), 1);
    hover(view_.viewport(), centre);
    EXPECT_EQ(hovered.count(), 2);
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(view_.viewport(), &leave);
    EXPECT_EQ(left.count(), 2);
}

TEST_F(ImageViewTest, VisibleImageRectFollowsZoomAndScroll)
{
    view_.setImage(makeImage(4000, 3000));
    EXPECT_EQ(view_.visibleImageRect(), (tessera::values::Rect{0, 0, 4000, 3000}));
    QSignalSpy moved(&view_, &ImageView::visibleAreaChanged);
    view_.actualSize();
    QCoreApplication::processEvents();
    EXPECT_GE(moved.count(), 1);
    view_.horizontalScrollBar()->setValue(1000);
    view_.verticalScrollBar()->setValue(500);
    const QSize viewport = view_.viewport()->size();
    EXPECT_EQ(view_.visibleImageRect(), (tessera::values::Rect{1000, 500, viewport.width(), viewport.height()}));
    // At 2x a viewport pixel is half an image pixel; partly shown pixels count as shown.
    view_.setZoom(2.0);
    moved.clear();
    view_.horizontalScrollBar()->setValue(1001);
    view_.verticalScrollBar()->setValue(0);
    EXPECT_GE(moved.count(), 1);
    const tessera::values::Rect rect = view_.visibleImageRect();
    EXPECT_EQ(rect.x, 500);
    EXPECT_EQ(rect.y, 0);
    EXPECT_EQ(rect.width, (1001 + viewport.width() + 1) / 2 - 500);
}

TEST_F(ImageViewTest, PatchShowsOverTheImageAndDimsTheRest)
{
    view_.setImage(makeImage(64, 48, Qt::white));
    view_.actualSize();
    view_.setPatch(makeImage(20, 16, Qt::black), QPoint(4, 6));
    EXPECT_EQ(view_.patchRect(), (tessera::values::Rect{4, 6, 20, 16}));
    QCoreApplication::processEvents();
    const qreal dpr = view_.viewport()->devicePixelRatioF();
    const QImage frame = view_.viewport()->grab().toImage();
    EXPECT_LT(grayAt(frame, view_.mapFromScene(QPointF(10.5, 10.5)), dpr), 16);
    // Outside the patch the white image shows, dimmed: neither white nor black.
    const int outside = grayAt(frame, view_.mapFromScene(QPointF(50.5, 40.5)), dpr);
    EXPECT_GT(outside, 64);
    EXPECT_LT(outside, 224);
    // A new rendering of the same picture keeps the patch; a new picture drops it.
    view_.replaceImage(makeImage(64, 48, Qt::gray));
    EXPECT_EQ(view_.patchRect(), (tessera::values::Rect{4, 6, 20, 16}));
    view_.setPatch(QImage(), QPoint());
    EXPECT_TRUE(view_.patchRect().empty());
    view_.setPatch(makeImage(20, 16, Qt::black), QPoint(4, 6));
    view_.setImage(makeImage(64, 48));
    EXPECT_TRUE(view_.patchRect().empty());
}

}  // namespace
