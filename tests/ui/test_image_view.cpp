#include "ui/image_view.h"

#include <gtest/gtest.h>

#include <QTest>

using tessera::ui::ImageView;

namespace {

QImage makeImage(int width, int height)
{
    QImage image(width, height, QImage::Format_RGB888);
    image.fill(Qt::darkCyan);
    return image;
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
    QWheelEvent wheel(cursor, view_.viewport()->mapToGlobal(cursor), QPoint(), QPoint(0, 120),
                      Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
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
    QWheelEvent wheel(cursor, view_.viewport()->mapToGlobal(cursor), QPoint(), QPoint(0, -120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(view_.viewport(), &wheel);
    EXPECT_DOUBLE_EQ(view_.zoomFactor(), 1.0);
}

TEST_F(ImageViewTest, NullImageClears)
{
    view_.setImage(makeImage(10, 10));
    view_.setImage(QImage());
    EXPECT_FALSE(view_.hasImage());
}

}  // namespace
