// SPDX-License-Identifier: Apache-2.0
// Before/after compare: the divider stays in view when zooming or scrolling would take it out,
// and only its handle drags it; a left drag anywhere else pans as it does without the divider.

#include "ui/image_view.h"

#include <gtest/gtest.h>

#include <QImage>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

namespace {

using tessera::ui::ImageView;

QImage filled(int w, int h, QColor c)
{
    QImage image(w, h, QImage::Format_RGB888);
    image.fill(c);
    return image;
}

class CompareDividerTest : public testing::Test {
protected:
    void SetUp() override
    {
        view_.resize(400, 300);
        view_.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view_));
        view_.setImage(filled(4000, 3000, Qt::white));
        view_.setOriginal(filled(4000, 3000, Qt::black));
        view_.setSplitEnabled(true);
        QCoreApplication::processEvents();
    }

    /// The divider's x in the viewport.
    int dividerX() const { return view_.mapFromScene(QPointF(view_.splitPosition() * 4000.0, 0.0)).x(); }

    ImageView view_;
};

TEST_F(CompareDividerTest, TheDividerStaysInViewWhenZoomingAndScrolling)
{
    view_.setZoom(2.0);
    view_.horizontalScrollBar()->setValue(0);  // the left edge of the image: the middle is far off
    QCoreApplication::processEvents();
    EXPECT_GE(dividerX(), 0);
    EXPECT_LT(dividerX(), view_.viewport()->width());
    view_.horizontalScrollBar()->setValue(view_.horizontalScrollBar()->maximum());
    QCoreApplication::processEvents();
    EXPECT_GE(dividerX(), 0);
    EXPECT_LT(dividerX(), view_.viewport()->width());
    view_.setZoom(8.0);
    EXPECT_GE(dividerX(), 0);
    EXPECT_LT(dividerX(), view_.viewport()->width());
}

TEST_F(CompareDividerTest, OnlyTheHandleDragsTheDivider)
{
    view_.actualSize();
    QCoreApplication::processEvents();
    QWidget* port = view_.viewport();
    const int x = dividerX();
    ASSERT_GT(x, 0);
    const double split = view_.splitPosition();
    const int h = view_.horizontalScrollBar()->value();
    // On the line, well above the handle in the middle: a pan.
    const QPoint onLine(x, port->height() / 2 - 100);
    QTest::mousePress(port, Qt::LeftButton, Qt::NoModifier, onLine);
    QTest::mouseMove(port, onLine + QPoint(-40, 0));
    QTest::mouseRelease(port, Qt::LeftButton, Qt::NoModifier, onLine + QPoint(-40, 0));
    EXPECT_DOUBLE_EQ(view_.splitPosition(), split);
    EXPECT_NE(view_.horizontalScrollBar()->value(), h);

    // On the handle: the divider moves.
    const QPoint handle(dividerX(), port->height() / 2);
    QTest::mousePress(port, Qt::LeftButton, Qt::NoModifier, handle);
    QTest::mouseMove(port, handle + QPoint(30, 0));
    QTest::mouseRelease(port, Qt::LeftButton, Qt::NoModifier, handle + QPoint(30, 0));
    EXPECT_NE(view_.splitPosition(), split);
}

}  // namespace
