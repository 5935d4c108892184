#include "app/gui_controller.h"
#include "ui/image_view.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QLabel>
#include <QSettings>
#include <QTest>

using tessera::app::GuiController;
using tessera::ui::MainWindow;

namespace {

class GuiControllerTest : public testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        window_.setModalDialogsEnabled(false);
        window_.resize(800, 600);
        window_.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window_));
    }

    MainWindow window_;
    GuiController controller_{window_};
};

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
    EXPECT_TRUE(window_.aboutText().contains(QString::fromLatin1(qVersion())));
    auto* compute = window_.findChild<QLabel*>(QStringLiteral("computeLabel"));
    ASSERT_NE(compute, nullptr);
    EXPECT_TRUE(compute->text().startsWith(QStringLiteral("GPU")) ||
                compute->text().startsWith(QStringLiteral("CPU")))
        << compute->text().toStdString();
}

}  // namespace
