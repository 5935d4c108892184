#include "gui_test_support.h"

#include "app/gui_controller.h"
#include "filters/registry.h"
#include "ui/display_menu.h"
#include "ui/image_view.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QLabel>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

namespace {

using tessera::filters::FilterChain;

class DisplayMappingTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        // A float ramp from -1 to 2 across, written as a 32-bit TIFF.
        data_.create(40, 64, CV_32FC1);
        for (int y = 0; y < data_.rows; ++y) {
            for (int x = 0; x < data_.cols; ++x) {
                data_.at<float>(y, x) = -1.0f + 3.0f * static_cast<float>(x) / (data_.cols - 1);
            }
        }
        path_ = QDir::temp().filePath(QStringLiteral("tessera-signed-%1.tif").arg(QCoreApplication::applicationPid()));
        ASSERT_TRUE(cv::imwrite(path_.toStdString(), data_));
        controller_.openImage(path_);
        ASSERT_TRUE(window_.lastError().isEmpty()) << window_.lastError().toStdString();
    }
    void TearDown() override { QFile::remove(path_); }

    void trigger(const char* name)
    {
        auto* action = window_.findChild<QAction*>(QString::fromLatin1(name));
        ASSERT_NE(action, nullptr) << name;
        action->trigger();
    }
    QString displayLabel() const { return window_.findChild<QLabel*>(QStringLiteral("displayLabel"))->text(); }
    int grayAt(int x) const { return qGray(window_.imageView()->shownImage().pixel(x, 10)); }

    cv::Mat data_;
    QString path_;
};

TEST_F(DisplayMappingTest, MappingChangesTheScreenNotTheData)
{
    // Stretch with offset: [-2, 2] with 0 at mid-grey.
    EXPECT_EQ(displayLabel(), QStringLiteral("Display: data min-max [-2, 2], 0 at mid-grey"));
    const int zeroColumn = 21;  // -1 + 3 * 21 / 63 = 0
    EXPECT_EQ(grayAt(zeroColumn), 128);
    const QImage offset = window_.imageView()->shownImage();

    trigger("actionDisplayAbsolute");
    EXPECT_EQ(displayLabel(), QStringLiteral("Display: data min-max |v| [0, 2]"));
    EXPECT_EQ(grayAt(zeroColumn), 0);
    EXPECT_EQ(grayAt(0), 128);  // |-1| halfway to 2
    EXPECT_NE(window_.imageView()->shownImage(), offset);

    trigger("actionDisplayOffset");
    trigger("actionDisplayFullRange");
    EXPECT_EQ(displayLabel(), QStringLiteral("Display: full range [-1, 1], 0 at mid-grey"));
    EXPECT_EQ(grayAt(0), 0);
    EXPECT_EQ(grayAt(zeroColumn), 128);
    EXPECT_EQ(grayAt(63), 255);  // 2 is beyond the range: clamped on screen only

    // The data, and what the readout says, are untouched.
    EXPECT_EQ(cv::norm(controller_.sourceImage(), data_, cv::NORM_INF), 0.0);
    EXPECT_EQ(controller_.describePixel(QPoint(63, 10)), QStringLiteral("x 63, y 10: 2"));
}

TEST_F(DisplayMappingTest, PreviewsFollowTheMapping)
{
    window_.findChild<QAction*>(QStringLiteral("stackAdd_box"))->trigger();
    const FilterChain chain{{tessera::filters::builtinRegistry().get("box").build({})}};
    ASSERT_TRUE(tessera::test::waitForPreviewOf(controller_, chain));
    const cv::Mat preview = controller_.previewData().clone();
    const QImage before = window_.imageView()->shownImage();
    trigger("actionDisplayAbsolute");
    EXPECT_NE(window_.imageView()->shownImage(), before);
    EXPECT_EQ(cv::norm(controller_.previewData(), preview, cv::NORM_INF), 0.0);
    EXPECT_TRUE(displayLabel().contains(QStringLiteral("|v|"))) << displayLabel().toStdString();
    // Previews made after the change use it as well.
    window_.findChild<QAction*>(QStringLiteral("stackAdd_identity"))->trigger();
    ASSERT_TRUE(tessera::test::waitForPreviewOf(
        controller_, FilterChain{{chain.steps[0], tessera::filters::builtinRegistry().get("identity").build({})}}));
    EXPECT_TRUE(displayLabel().contains(QStringLiteral("|v|"))) << displayLabel().toStdString();
}

TEST_F(DisplayMappingTest, EightBitImagesShowNoMapping)
{
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    EXPECT_FALSE(window_.findChild<QLabel*>(QStringLiteral("displayLabel"))->isVisible());
}

}  // namespace
