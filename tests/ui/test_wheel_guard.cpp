// SPDX-License-Identifier: Apache-2.0
// The wheel over the scrolling Filter panel scrolls it: a combo box, spin box or slider that
// the pointer passes over keeps its value until it has focus.

#include "gui_test_support.h"
#include "ui/filter_dock.h"
#include "ui/filter_panel.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QWheelEvent>

namespace {

/// One notch of the wheel, downwards, over the middle of w.
void wheelDown(QWidget* w)
{
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent event(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &event);
}

class WheelGuardTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        // A filter in the stack, so that its parameters are on screen.
        window_.findChild<QAction*>(QStringLiteral("stackAdd_gaussian"))->trigger();
        QTest::qWait(50);
    }
};

TEST_F(WheelGuardTest, AnUnfocusedComboKeepsItsValueAndThePanelScrolls)
{
    window_.resize(1024, 500);  // short enough for the Filter panel to scroll
    QTest::qWait(50);
    auto* depth = find<QComboBox>(QStringLiteral("depthCombo"));
    ASSERT_NE(depth, nullptr);
    auto* area = qobject_cast<QScrollArea*>(depth->parentWidget());
    for (QWidget* w = depth->parentWidget(); area == nullptr && w != nullptr; w = w->parentWidget()) {
        area = qobject_cast<QScrollArea*>(w);
    }
    ASSERT_NE(area, nullptr);
    EXPECT_EQ(depth->focusPolicy(), Qt::StrongFocus);
    const int index = depth->currentIndex();
    const int scrolled = area->verticalScrollBar()->value();
    wheelDown(depth);
    EXPECT_EQ(depth->currentIndex(), index);
    if (area->verticalScrollBar()->maximum() > 0) {
        EXPECT_GT(area->verticalScrollBar()->value(), scrolled);
    }
    EXPECT_FALSE(depth->hasFocus());

    // With focus, the wheel steps through the choices as usual.
    window_.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window_));
    depth->setFocus(Qt::MouseFocusReason);
    ASSERT_TRUE(depth->hasFocus());
    wheelDown(depth);
    EXPECT_NE(depth->currentIndex(), index);
}

TEST_F(WheelGuardTest, UnfocusedSpinBoxesAndSlidersKeepTheirValues)
{
    auto* spin = window_.filterDock()->panel()->findChild<QDoubleSpinBox*>(QStringLiteral("param_sigma_spin"));
    auto* slider = window_.filterDock()->panel()->findChild<QSlider*>(QStringLiteral("param_sigma_slider"));
    ASSERT_NE(spin, nullptr);
    ASSERT_NE(slider, nullptr);
    const double sigma = spin->value();
    const int position = slider->value();
    wheelDown(spin);
    wheelDown(slider);
    EXPECT_EQ(spin->value(), sigma);
    EXPECT_EQ(slider->value(), position);
}

}  // namespace
