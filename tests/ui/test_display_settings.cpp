// SPDX-License-Identifier: Apache-2.0
#include "gui_test_support.h"

#include "app/gui/gui_controller.h"
#include "filters/registry.h"
#include "ui/display_menu.h"
#include "ui/file_dialogs.h"
#include "ui/filter_dock.h"
#include "ui/image_view.h"
#include "ui/main_window.h"
#include "ui/window_menus.h"
#include "ui/preferences_dialog.h"

#include <gtest/gtest.h>

#include <memory>

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QSettings>
#include <QStandardPaths>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
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

using SettingsTest = tessera::test::WindowFixture;

TEST_F(SettingsTest, TestsNeverTouchTheUsersSettings)
{
    EXPECT_TRUE(QStandardPaths::isTestModeEnabled());
    EXPECT_TRUE(QSettings().fileName().contains(QStringLiteral("TesseraUiTests")))
        << QSettings().fileName().toStdString();
}

TEST_F(SettingsTest, GeometryAndDockLayoutAreKept)
{
    // A size within the test screen (800 x 600): a larger one is brought within the screen.
    window_.addDockWidget(Qt::LeftDockWidgetArea, window_.filterDock());
    window_.resize(700, 500);
    window_.close();
    tessera::ui::MainWindow restored;
    EXPECT_EQ(restored.size(), QSize(700, 500));
    // The dock layout comes back when the window is shown, with its final size.
    restored.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&restored));
    EXPECT_EQ(restored.dockWidgetArea(restored.filterDock()), Qt::LeftDockWidgetArea);
}

TEST_F(SettingsTest, DisplayMappingChoiceIsKept)
{
    window_.findChild<QAction*>(QStringLiteral("actionDisplayFullRange"))->trigger();
    window_.findChild<QAction*>(QStringLiteral("actionDisplayAbsolute"))->trigger();
    tessera::ui::MainWindow other;
    EXPECT_EQ(other.menus()->displayMenu()->options(), (tessera::ui::DisplayOptions{false, true}));
    tessera::app::GuiController controller(other);
    EXPECT_EQ(controller.displayMapping(), (tessera::app::DisplayMapping{false, tessera::app::SignedMode::Absolute}));
}

TEST_F(SettingsTest, FoldersOfTheFileDialogsAreKept)
{
    using tessera::ui::FolderRole;
    const QString folder = QDir::tempPath();
    tessera::ui::rememberFolder(FolderRole::Save, QDir(folder).filePath(QStringLiteral("out.png")));
    tessera::ui::rememberFolder(FolderRole::Open, QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    EXPECT_EQ(tessera::ui::lastFolder(FolderRole::Save), QFileInfo(folder).absoluteFilePath());
    EXPECT_EQ(tessera::ui::lastFolder(FolderRole::Open),
              QFileInfo(QStringLiteral(TESSERA_SAMPLE_DIR)).absoluteFilePath());
}

// Load Preset starts in the presets that come with Tessera until the user loads one elsewhere.
TEST_F(SettingsTest, PresetDialogsStartInTheBundledPresets)
{
    using tessera::ui::FolderRole;
    const QString bundled = QFileInfo(QStringLiteral(TESSERA_SAMPLE_DIR "/../presets")).absoluteFilePath();
    ASSERT_TRUE(QFileInfo(bundled).isDir()) << bundled.toStdString();
    tessera::ui::setBundledPresetFolder(bundled);
    EXPECT_EQ(tessera::ui::lastFolder(FolderRole::Preset), bundled);
    tessera::ui::rememberFolder(FolderRole::Preset, QDir::temp().filePath(QStringLiteral("mine.json")));
    EXPECT_EQ(tessera::ui::lastFolder(FolderRole::Preset), QFileInfo(QDir::tempPath()).absoluteFilePath());
}

/// Opens Edit > Preferences, picks key in the device list and presses OK.
void choosePreviewDevice(tessera::ui::MainWindow& window, const QString& key)
{
    window.findChild<QAction*>(QStringLiteral("actionPreferences"))->trigger();
    auto* dialog = window.findChild<QDialog*>(QStringLiteral("preferencesDialog"));
    ASSERT_NE(dialog, nullptr);
    auto* combo = dialog->findChild<QComboBox*>(QStringLiteral("deviceCombo"));
    ASSERT_NE(combo, nullptr);
    EXPECT_GE(combo->findData(QStringLiteral("auto")), 0);
    EXPECT_GE(combo->findData(QStringLiteral("cpu")), 0);
    ASSERT_GE(combo->findData(key), 0) << key.toStdString();
    combo->setCurrentIndex(combo->findData(key));
    dialog->accept();
}

TEST_F(SettingsTest, PreferredDeviceReachesTheEngineAndIsKept)
{
    controller_.refreshDeviceInfo();
    controller_.openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
    EXPECT_EQ(window_.menus()->preferredDevice(), QStringLiteral("auto"));
    choosePreviewDevice(window_, QStringLiteral("cpu"));
    EXPECT_EQ(window_.menus()->preferredDevice(), QStringLiteral("cpu"));
    window_.findChild<QAction*>(QStringLiteral("stackAdd_box"))->trigger();
    const FilterChain chain{{tessera::filters::builtinRegistry().get("box").build({})}};
    ASSERT_TRUE(tessera::test::waitForPreviewOf(controller_, chain));
    EXPECT_TRUE(window_.previewStatus().contains(QStringLiteral("CPU is chosen in Preferences")))
        << window_.previewStatus().toStdString();
    tessera::ui::MainWindow other;
    EXPECT_EQ(other.menus()->preferredDevice(), QStringLiteral("cpu"));
}

/// A window and its controller made after `device` was stored as the preview device, with a
/// box filter previewed on the sample.
struct StoredDeviceWindow {
    explicit StoredDeviceWindow(const QString& device)
    {
        tessera::ui::PreferencesDialog::storeDevice(device);
        window = std::make_unique<tessera::ui::MainWindow>();
        window->setModalDialogsEnabled(false);
        controller = std::make_unique<tessera::app::GuiController>(*window);
        controller->openImage(QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png"));
        window->findChild<QAction*>(QStringLiteral("stackAdd_box"))->trigger();
        const FilterChain chain{{tessera::filters::builtinRegistry().get("box").build({})}};
        previewed = tessera::test::waitForPreviewOf(*controller, chain);
    }

    std::unique_ptr<tessera::ui::MainWindow> window;
    std::unique_ptr<tessera::app::GuiController> controller;
    bool previewed = false;
};

TEST_F(SettingsTest, AMissingGpuFallsBackToTheCpuAndSaysSo)
{
    StoredDeviceWindow stored(QStringLiteral("gpu:7"));
    ASSERT_TRUE(stored.previewed);
    EXPECT_TRUE(stored.window->previewStatus().contains(QStringLiteral("GPU 7 (chosen in Preferences) is not present")))
        << stored.window->previewStatus().toStdString();
    // The dialog still shows the stored choice, marked as missing.
    choosePreviewDevice(*stored.window, QStringLiteral("gpu:7"));
}

TEST_F(SettingsTest, AStoredDeviceOutsidePreferencesFormsPreviewsAsAuto)
{
    // gpu:0,1 is a device selection elsewhere (the CLI), not a preview device: read as auto.
    StoredDeviceWindow stored(QStringLiteral("gpu:0,1"));
    ASSERT_TRUE(stored.previewed);
    EXPECT_FALSE(stored.window->previewStatus().contains(QStringLiteral("chosen in Preferences")))
        << stored.window->previewStatus().toStdString();
}

}  // namespace
