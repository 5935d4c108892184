// SPDX-License-Identifier: Apache-2.0
// Every way of replacing the open image (File > Open, Open Recent, a drop) asks before unsaved
// changes are lost; Cancel keeps the image, the stack and Undo as they were, Discard opens the
// other image, Save writes the open one first. Help > Open Sample Image asks as well.

#include "app/gui/gui_controller.h"
#include "filters/factories.h"
#include "gui_test_support.h"
#include "ui/filter_panel.h"
#include "ui/filter_stack.h"
#include "ui/main_window.h"
#include "ui/filter_dock.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMimeData>
#include <QSpinBox>
#include <QTest>
#include <QUrl>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

namespace {

using tessera::ui::MainWindow;
using Answer = tessera::ui::DocumentPrompts::UnsavedAnswer;

const QString kCoffee = QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png");
const QString kCamera = QStringLiteral(TESSERA_SAMPLE_DIR "/camera.png");

class UnsavedGuardTest : public tessera::test::WindowFixture {
protected:
    /// Opens `path`, applies a 5 x 5 box (unsaved) and leaves a 3 x 3 box in the stack.
    void makeModifiedDocument(const QString& path = kCoffee)
    {
        controller_.openImage(path);
        applyBox();
        window_.findChild<QAction*>(QStringLiteral("stackAdd_box"))->trigger();
        ASSERT_EQ(window_.filterStack()->state().entries.size(), 1u);
    }

    void applyBox()
    {
        auto* panel = window_.filterDock()->panel();
        auto* combo = panel->findChild<QComboBox*>(QStringLiteral("filterCombo"));
        combo->setCurrentIndex(combo->findData(QStringLiteral("box")));
        panel->findChild<QSpinBox*>(QStringLiteral("param_size_spin"))->setValue(5);
        const tessera::filters::FilterChain box{{tessera::filters::makeBox(5, true)}};
        ASSERT_TRUE(tessera::test::waitForPreviewOf(controller_, box));
        controller_.applyPreview();
        ASSERT_TRUE(window_.isWindowModified());
    }

    /// Answers every question with `answer` and keeps what each asked about.
    void answer(Answer a)
    {
        window_.prompts().setUnsavedPrompt([this, a](const QString& action) {
            asked_ << action;
            return a;
        });
    }

    void drop(const QString& path)
    {
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        const QPoint at(200, 200);
        QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window_, &enter);
        ASSERT_TRUE(enter.isAccepted());
        QDropEvent event(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window_, &event);
        QCoreApplication::processEvents();  // the window asks once the drop has returned
    }

    void chooseRecent(const QString& path)
    {
        auto* menu = window_.findChild<QMenu*>(QStringLiteral("recentMenu"));
        ASSERT_NE(menu, nullptr);
        for (QAction* a : menu->actions()) {
            if (a->data().toString() == path || a->text().contains(QFileInfo(path).fileName())) {
                a->trigger();
                QTest::qWait(50);  // the recent list answers through the event loop
                return;
            }
        }
        FAIL() << "no recent entry for " << path.toStdString();
    }

    QStringList asked_;
};

TEST_F(UnsavedGuardTest, CancelKeepsTheImageTheStackAndUndo)
{
    makeModifiedDocument();
    controller_.openImage(kCamera);  // puts camera.png in the recent list ...
    ASSERT_TRUE(window_.currentPath().endsWith(QStringLiteral("camera.png")));
    makeModifiedDocument();  // ... and the document is coffee.png with unsaved work again
    const cv::Mat image = controller_.sourceImage().clone();
    const auto stack = window_.filterStack()->state();
    const int undoSteps = controller_.undoStack().count();
    const int undoIndex = controller_.undoStack().index();
    const QString title = window_.windowTitle();

    answer(Answer::Cancel);
    window_.findChild<QAction*>(QStringLiteral("actionOpen"))->trigger();  // no file dialog after Cancel
    chooseRecent(kCamera);
    drop(kCamera);

    ASSERT_EQ(asked_.size(), 3) << asked_.join(QStringLiteral("; ")).toStdString();
    for (const QString& a : asked_) {
        EXPECT_TRUE(a.startsWith(QStringLiteral("open"))) << a.toStdString();
    }
    EXPECT_TRUE(asked_[2].contains(QStringLiteral("camera.png"))) << asked_[2].toStdString();
    EXPECT_EQ(cv::norm(controller_.sourceImage(), image, cv::NORM_INF), 0.0);
    EXPECT_EQ(controller_.sourceImage().size(), image.size());
    EXPECT_TRUE(window_.filterStack()->state() == stack);
    EXPECT_EQ(controller_.undoStack().count(), undoSteps);
    EXPECT_EQ(controller_.undoStack().index(), undoIndex);
    EXPECT_TRUE(window_.isWindowModified());
    EXPECT_EQ(window_.windowTitle(), title);
    EXPECT_TRUE(window_.currentPath().endsWith(QStringLiteral("coffee.png")));
}

TEST_F(UnsavedGuardTest, DiscardOpensTheOtherImageAndAnUnchangedDocumentIsNotAsked)
{
    makeModifiedDocument();
    answer(Answer::Discard);
    drop(kCamera);
    ASSERT_EQ(asked_.size(), 1);
    EXPECT_TRUE(window_.currentPath().endsWith(QStringLiteral("camera.png")));
    EXPECT_FALSE(window_.isWindowModified());
    const cv::Mat camera = cv::imread(kCamera.toStdString(), cv::IMREAD_UNCHANGED);
    EXPECT_EQ(cv::norm(controller_.sourceImage(), camera, cv::NORM_INF), 0.0);

    // Nothing unsaved now: the next open does not ask.
    drop(kCoffee);
    EXPECT_EQ(asked_.size(), 1);
    EXPECT_TRUE(window_.currentPath().endsWith(QStringLiteral("coffee.png")));
}

TEST_F(UnsavedGuardTest, SaveWritesTheOpenImageBeforeOpeningTheOther)
{
    const QString copy =
        QDir::temp().filePath(QStringLiteral("tessera-unsaved-guard-%1.png").arg(QCoreApplication::applicationPid()));
    controller_.openImage(kCoffee);
    emit window_.saveRequested(copy);  // the document now lives in a file of the test's own
    ASSERT_FALSE(window_.isWindowModified()) << window_.lastError().toStdString();
    applyBox();
    const cv::Mat filtered = controller_.sourceImage().clone();

    answer(Answer::Save);
    drop(kCamera);
    ASSERT_EQ(asked_.size(), 1);
    const cv::Mat written = cv::imread(copy.toStdString(), cv::IMREAD_UNCHANGED);
    ASSERT_FALSE(written.empty());
    EXPECT_EQ(cv::norm(written, filtered, cv::NORM_INF), 0.0);
    EXPECT_TRUE(window_.currentPath().endsWith(QStringLiteral("camera.png")));
    QFile::remove(copy);
}

// Help > Open Sample Image lists the samples found beside the program (the source tree's, here)
// and asks before unsaved work is lost, as Open does.
TEST_F(UnsavedGuardTest, SampleMenuListsTheSamplesAndAsksFirst)
{
    auto* menu = window_.findChild<QMenu*>(QStringLiteral("sampleMenu"));
    ASSERT_NE(menu, nullptr);
    ASSERT_TRUE(menu->isEnabled());
    QAction* camera = nullptr;
    for (QAction* a : menu->actions()) {
        if (a->text() == QStringLiteral("camera.png")) {
            camera = a;
        }
    }
    ASSERT_NE(camera, nullptr);

    makeModifiedDocument();
    answer(Answer::Cancel);
    camera->trigger();
    ASSERT_EQ(asked_.size(), 1);
    EXPECT_TRUE(asked_[0].contains(QStringLiteral("camera.png"))) << asked_[0].toStdString();
    EXPECT_TRUE(window_.currentPath().endsWith(QStringLiteral("coffee.png")));

    answer(Answer::Discard);
    camera->trigger();
    EXPECT_TRUE(window_.currentPath().endsWith(QStringLiteral("camera.png")));
    EXPECT_FALSE(window_.isWindowModified());
}

}  // namespace
