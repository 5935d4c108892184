// SPDX-License-Identifier: Apache-2.0
#include "ui/image_view.h"
#include "ui/file_dialogs.h"
#include "ui/help_menu.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QUrl>

#include <memory>

using tessera::ui::AboutInfo;
using tessera::ui::ImageView;
using tessera::ui::MainWindow;

namespace {

QImage makeImage(int width, int height)
{
    QImage image(width, height, QImage::Format_RGB888);
    image.fill(Qt::darkYellow);
    return image;
}

QString plain(QString text)
{
    return text.remove(QLatin1Char('&'));
}

class MainWindowTest : public testing::Test {
protected:
    void SetUp() override
    {
        QSettings().clear();
        window_ = std::make_unique<MainWindow>();
        window_->setModalDialogsEnabled(false);
        window_->resize(800, 600);
        window_->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    }

    QAction* action(const char* name) const
    {
        auto* found = window_->findChild<QAction*>(QString::fromLatin1(name));
        EXPECT_NE(found, nullptr) << name;
        return found;
    }

    QString label(const char* name) const
    {
        auto* found = window_->findChild<QLabel*>(QString::fromLatin1(name));
        return found != nullptr ? found->text() : QStringLiteral("<missing label>");
    }

    /// What the toolbar's zoom field shows.
    QString zoomShown() const
    {
        auto* field = window_->findChild<QLineEdit*>(QStringLiteral("zoomField"));
        return field != nullptr ? field->text() : QStringLiteral("<missing zoom field>");
    }

    std::unique_ptr<MainWindow> window_;
};

TEST_F(MainWindowTest, MenusInProductOrder)
{
    QStringList titles;
    for (QAction* menu : window_->menuBar()->actions()) {
        titles << plain(menu->text());
    }
    const QStringList expected{"File", "Edit", "View", "Filters", "Batch", "Tools", "Help"};
    EXPECT_EQ(titles, expected);
}

TEST_F(MainWindowTest, TitleAndShortcuts)
{
    EXPECT_EQ(window_->windowTitle(), QStringLiteral("Tessera"));
    EXPECT_EQ(action("actionOpen")->shortcut(), QKeySequence(QKeySequence::Open));
    EXPECT_EQ(action("actionFitToWindow")->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_0));
    EXPECT_EQ(action("actionActualSize")->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_1));
    EXPECT_TRUE(action("actionZoomIn")->shortcuts().contains(QKeySequence(QKeySequence::ZoomIn)));
    EXPECT_EQ(action("actionExport")->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    EXPECT_EQ(action("actionRunBatch")->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    EXPECT_TRUE(action("actionRunBatch")->isEnabled());
    EXPECT_EQ(action("actionCompareDevices")->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    EXPECT_TRUE(action("actionCompareDevices")->isEnabled());
}

TEST_F(MainWindowTest, FeaturesNotBuiltYetAreDisabled)
{
    for (const char* name : {"actionSave", "actionSaveAs", "actionExport", "actionUndo", "actionRedo"}) {
        EXPECT_FALSE(action(name)->isEnabled()) << name;
    }
    EXPECT_TRUE(action("actionOpen")->isEnabled());
    EXPECT_TRUE(action("actionAbout")->isEnabled());
    EXPECT_TRUE(action("actionLoadPreset")->isEnabled());
    // Zooming waits for an image.
    EXPECT_FALSE(action("actionZoomIn")->isEnabled());
}

TEST_F(MainWindowTest, ShowImageFitsAndReports)
{
    const QString path = QStringLiteral("/data/big.png");
    window_->showImage(makeImage(5000, 4000), path, QStringLiteral("u8x3"));
    ImageView* view = window_->imageView();
    ASSERT_TRUE(view->hasImage());
    EXPECT_EQ(view->imageSize(), QSize(5000, 4000));
    EXPECT_LT(view->zoomFactor(), 1.0);
    EXPECT_TRUE(window_->windowTitle().contains(QStringLiteral("big.png")));
    EXPECT_TRUE(window_->windowTitle().contains(QStringLiteral("Tessera")));
    EXPECT_TRUE(label("imageInfoLabel").contains(QStringLiteral("5000")));
    EXPECT_TRUE(label("imageInfoLabel").contains(QStringLiteral("u8x3")));
    EXPECT_TRUE(zoomShown().contains(QLatin1Char('%'))) << zoomShown().toStdString();
    EXPECT_EQ(window_->findChild<QLabel*>(QStringLiteral("zoomLabel")), nullptr)
        << "the zoom is shown once, in the toolbar";
    EXPECT_EQ(window_->recentFiles().value(0), path);
    EXPECT_TRUE(action("actionZoomIn")->isEnabled());
}

TEST_F(MainWindowTest, ZoomActionsChangeZoom)
{
    window_->showImage(makeImage(5000, 4000), QStringLiteral("/data/big.png"), QStringLiteral("u8x3"));
    ImageView* view = window_->imageView();
    const double fitted = view->zoomFactor();
    action("actionZoomIn")->trigger();
    EXPECT_GT(view->zoomFactor(), fitted);
    action("actionZoomOut")->trigger();
    action("actionZoomOut")->trigger();
    EXPECT_LT(view->zoomFactor(), fitted);
    action("actionActualSize")->trigger();
    EXPECT_DOUBLE_EQ(view->zoomFactor(), 1.0);
    EXPECT_EQ(zoomShown(), QStringLiteral("100%"));
    action("actionFitToWindow")->trigger();
    EXPECT_NEAR(view->zoomFactor(), fitted, 1e-9);
}

TEST_F(MainWindowTest, DroppedFileIsRequested)
{
    QSignalSpy spy(window_.get(), &MainWindow::openRequested);
    const QString path = QStringLiteral("/tmp/dropped image.png");
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    const QPoint at(200, 200);
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(window_.get(), &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(window_.get(), &drop);
    // Nothing is asked inside the drop, so the application the file came from is not kept
    // waiting; the request follows once the drop has returned.
    EXPECT_EQ(spy.count(), 0);
    QCoreApplication::processEvents();
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.at(0).at(0).toString(), path);
}

TEST_F(MainWindowTest, ANonImageFileIsRefusedWhileDragged)
{
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(QStringLiteral("/tmp/notes.txt"))});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(window_.get(), &enter);
    EXPECT_FALSE(enter.isAccepted());
    mime.setUrls({QUrl::fromLocalFile(QStringLiteral("/tmp/Photo.JPG"))});
    QDragEnterEvent image(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(window_.get(), &image);
    EXPECT_TRUE(image.isAccepted());
}

TEST_F(MainWindowTest, DropWithoutLocalFileIsRefused)
{
    QSignalSpy spy(window_.get(), &MainWindow::openRequested);
    QMimeData mime;
    mime.setText(QStringLiteral("not a file"));
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(window_.get(), &enter);
    EXPECT_FALSE(enter.isAccepted());
    EXPECT_EQ(spy.count(), 0);
}

TEST_F(MainWindowTest, RecentFilesAreKeptNewestFirstAndCapped)
{
    for (int i = 0; i < 12; ++i) {
        window_->showImage(makeImage(8, 8), QStringLiteral("/data/img%1.png").arg(i), QStringLiteral("u8x3"));
    }
    window_->showImage(makeImage(8, 8), QStringLiteral("/data/img5.png"), QStringLiteral("u8x3"));
    const QStringList recent = window_->recentFiles();
    ASSERT_EQ(recent.size(), 10);
    EXPECT_EQ(recent.first(), QStringLiteral("/data/img5.png"));
    EXPECT_EQ(recent.count(QStringLiteral("/data/img5.png")), 1);
    EXPECT_FALSE(recent.contains(QStringLiteral("/data/img0.png")));

    // A new window reads the same list back from the settings.
    MainWindow other;
    EXPECT_EQ(other.recentFiles(), recent);
}

TEST_F(MainWindowTest, RecentFilesOfOneNameShowTheirFolders)
{
    window_->showImage(makeImage(8, 8), QStringLiteral("/data/a/astronaut.png"), QStringLiteral("u8x3"));
    window_->showImage(makeImage(8, 8), QStringLiteral("/data/b/astronaut.png"), QStringLiteral("u8x3"));
    window_->showImage(makeImage(8, 8), QStringLiteral("/data/b/coffee.png"), QStringLiteral("u8x3"));
    auto* menu = window_->findChild<QMenu*>(QStringLiteral("recentMenu"));
    ASSERT_NE(menu, nullptr);
    QStringList texts;
    for (const QAction* action : menu->actions()) {
        texts << action->text();
    }
    EXPECT_TRUE(texts.contains(QStringLiteral("&2 astronaut.png \u2014 /data/b")))
        << texts.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("&3 astronaut.png \u2014 /data/a")));
    EXPECT_TRUE(texts.contains(QStringLiteral("&1 coffee.png")));
}

TEST_F(MainWindowTest, ChoosingARecentFileRequestsIt)
{
    window_->showImage(makeImage(8, 8), QStringLiteral("/data/a.png"), QStringLiteral("u8x3"));
    QSignalSpy spy(window_.get(), &MainWindow::openRequested);
    auto* menu = window_->findChild<QMenu*>(QStringLiteral("recentMenu"));
    ASSERT_NE(menu, nullptr);
    ASSERT_FALSE(menu->actions().isEmpty());
    menu->actions().first()->trigger();
    ASSERT_TRUE(spy.wait(1000));
    EXPECT_EQ(spy.at(0).at(0).toString(), QStringLiteral("/data/a.png"));
}

TEST_F(MainWindowTest, ErrorIsRecordedAndShownInStatusBar)
{
    window_->showError(QStringLiteral("Cannot open image"), QStringLiteral("/x/missing.png: file not found"));
    EXPECT_EQ(window_->lastError(), QStringLiteral("/x/missing.png: file not found"));
    EXPECT_TRUE(window_->statusMessage().contains(QStringLiteral("missing.png")));
}

TEST_F(MainWindowTest, AboutAndComputeSummary)
{
    AboutInfo info;
    info.tessera = QStringLiteral("0.1.0");
    info.qt = QString::fromLatin1(qVersion());
    info.opencv = QStringLiteral("4.6.0");
    info.cudaRuntime = QStringLiteral("12.4");
    info.cudaDriver = QStringLiteral("none");
    info.cufft = QStringLiteral("11.2.1");
    info.devices = QStringLiteral("No GPU: <no driver>");
    window_->help()->setAboutInfo(info);
    const QString about = window_->help()->aboutText();
    EXPECT_TRUE(about.contains(QStringLiteral("<td>cuFFT</td><td>&nbsp;&nbsp;11.2.1</td>"))) << about.toStdString();
    EXPECT_TRUE(about.contains(QString::fromLatin1(qVersion())));
    EXPECT_TRUE(about.contains(QStringLiteral("4.6.0")));
    EXPECT_TRUE(about.contains(QStringLiteral("&lt;no driver&gt;"))) << "device text is escaped";

    window_->setComputeSummary(QStringLiteral("CPU path (no NVIDIA driver)"));
    EXPECT_EQ(label("computeLabel"), QStringLiteral("CPU path (no NVIDIA driver)"));
}

TEST_F(MainWindowTest, GeometryIsSavedOnClose)
{
    window_->resize(640, 480);
    window_->close();
    MainWindow restored;
    EXPECT_EQ(restored.size(), QSize(640, 480));
}

}  // namespace

namespace {

TEST(FileDialogs, TheOfferedTypeFollowsTheSuggestedName)
{
    const QString filters = tessera::ui::writableImageFilters();
    EXPECT_EQ(tessera::ui::nameFilterFor(filters, QStringLiteral("/p/photo-filtered.jpg")),
              QStringLiteral("JPEG (*.jpg *.jpeg)"));
    EXPECT_EQ(tessera::ui::nameFilterFor(filters, QStringLiteral("x.TIFF")), QStringLiteral("TIFF (*.tif *.tiff)"));
    EXPECT_EQ(tessera::ui::nameFilterFor(filters, QStringLiteral("x.webp")), QStringLiteral("WebP (*.webp)"));
    EXPECT_EQ(tessera::ui::nameFilterFor(filters, QStringLiteral("x.xyz")), QStringLiteral("PNG (*.png)"));
}

}  // namespace
