// SPDX-License-Identifier: Apache-2.0
// A float result shows its data, not a white or washed-out field: results far beyond the float
// type's [0, 1] are mapped by their own range even under "Full Range of the Type", a u16 image
// filtered into float included, and the status bar names the mapping in use.

#include "gui_test_support.h"
#include "filters/registry.h"
#include "ui/display_menu.h"
#include "ui/image_view.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QLabel>

#include <opencv2/imgcodecs.hpp>

namespace {

using tessera::filters::FilterChain;
using tessera::filters::OutputDepth;

class FloatDisplayTest : public tessera::test::WindowFixture {
protected:
    void TearDown() override { QFile::remove(path_); }

    // A horizontal ramp over the whole range of depth (8 or 16 bits), as a PNG.
    void openRamp(int depth)
    {
        const double top = depth == CV_16U ? 65535.0 : 255.0;
        cv::Mat ramp(40, 64, CV_MAKETYPE(depth, 1));
        for (int x = 0; x < ramp.cols; ++x) {
            ramp.col(x).setTo(cv::Scalar(top * x / (ramp.cols - 1)));
        }
        path_ = tessera::test::tempPath(QStringLiteral("float-display"), QStringLiteral("ramp%1.png").arg(depth));
        ASSERT_TRUE(cv::imwrite(path_.toStdString(), ramp));
        controller_.openImage(path_);
        ASSERT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
    }

    // Adds a box blur whose result is float and waits for its preview.
    void addFloatBox()
    {
        window_.findChild<QAction*>(QStringLiteral("stackAdd_box"))->trigger();
        auto* depth = find<QComboBox>(QStringLiteral("depthCombo"));
        depth->setCurrentIndex(depth->findData(QStringLiteral("f32")));
        ASSERT_NE(depth->currentIndex(), -1);
        tessera::filters::FilterSpec spec = tessera::filters::builtinRegistry().get("box").build({});
        spec.depth = OutputDepth::F32;
        ASSERT_TRUE(tessera::test::waitForPreviewOf(controller_, FilterChain{{spec}}));
        ASSERT_EQ(controller_.previewData().depth(), CV_32F);
    }

    int grayAt(int x) const { return qGray(window_.imageView()->shownImage().pixel(x, 20)); }
    QLabel* displayLabel() { return find<QLabel>(QStringLiteral("displayLabel")); }

    QString path_;
};

TEST_F(FloatDisplayTest, AU16ImageFilteredIntoFloatIsNotWhiteUnderFullRange)
{
    openRamp(CV_16U);
    window_.findChild<QAction*>(QStringLiteral("actionDisplayFullRange"))->trigger();
    addFloatBox();
    // The float values run from 0 to 65535: shown by their own range, dark to light.
    EXPECT_LT(grayAt(0), 16);
    EXPECT_GT(grayAt(63), 239);
    EXPECT_NEAR(grayAt(32), 128, 8);
    const QString text = displayLabel()->toolTip();
    EXPECT_TRUE(displayLabel()->isVisible());
    EXPECT_TRUE(text.contains(QStringLiteral("data min-max"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("beyond the float range"))) << text.toStdString();
    // The choice is kept in the settings; the next window should not inherit it.
    window_.findChild<QAction*>(QStringLiteral("actionDisplayStretch"))->trigger();
}

TEST_F(FloatDisplayTest, AnEightBitImageFilteredIntoFloatUsesItsDataRangeByDefault)
{
    // The window was made before the fixture cleared the settings: start from the default.
    EXPECT_EQ(tessera::ui::DisplayOptions{}.stretch, true);
    window_.findChild<QAction*>(QStringLiteral("actionDisplayStretch"))->trigger();
    openRamp(CV_8U);
    EXPECT_FALSE(displayLabel()->isVisible());  // 8-bit data needs no mapping
    addFloatBox();
    EXPECT_LT(grayAt(0), 16);
    EXPECT_GT(grayAt(63), 239);
    EXPECT_TRUE(displayLabel()->isVisible());
    // The box's result runs from about 2.7 to 252.3 at the ramp's ends; black and white are those.
    const QString text = displayLabel()->toolTip();
    EXPECT_TRUE(text.startsWith(QStringLiteral("Display: data min-max [2.66667, 252.333]"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("beyond"))) << text.toStdString();
    EXPECT_EQ(grayAt(0), 0);
    EXPECT_EQ(grayAt(63), 255);
}

}  // namespace
