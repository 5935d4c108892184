// SPDX-License-Identifier: Apache-2.0
// Save with enabled filters in the stack asks what to write: the result (the filters applied
// as one undoable step), the original image (the stack stays), or nothing. The status bar says
// what was written. A stack left on an image when the window closes comes back with that image.

#include "app/gui/gui_controller.h"
#include "filters/factories.h"
#include "gui_test_support.h"
#include "ui/filter_stack.h"
#include "ui/main_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QFile>
#include <QStatusBar>
#include <QUndoStack>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

namespace {

using tessera::ui::MainWindow;
using Choice = tessera::ui::DocumentPrompts::SaveChoice;

const QString kCoffee = QStringLiteral(TESSERA_SAMPLE_DIR "/coffee.png");

class SaveChoiceTest : public tessera::test::WindowFixture {
protected:
    void SetUp() override
    {
        WindowFixture::SetUp();
        target_ = tessera::test::tempPath(QStringLiteral("save-choice"), QStringLiteral("out.png"));
        QFile::remove(target_);
        controller_.openImage(kCoffee);
        window_.findChild<QAction*>(QStringLiteral("stackAdd_box"))->trigger();
        ASSERT_EQ(window_.filterStack()->state().entries.size(), 1u);
        ASSERT_TRUE(tessera::test::waitForPreviewOf(controller_, box()));
    }
    void TearDown() override { QFile::remove(target_); }

    static tessera::filters::FilterChain box()
    {
        return tessera::filters::FilterChain{{tessera::filters::makeBox(3, true)}};
    }

    void answer(Choice c)
    {
        window_.prompts().setSaveChoicePrompt([this, c](const QString& file, const QStringList& filters) {
            asked_ << file + QStringLiteral(": ") + filters.join(QStringLiteral(", "));
            return c;
        });
    }

    QString statusText() const { return window_.statusMessage(); }

    QString target_;
    QStringList asked_;
};

TEST_F(SaveChoiceTest, ApplyAndSaveWritesTheResultAndUndoBringsTheStackBack)
{
    const cv::Mat original = controller_.sourceImage().clone();
    answer(Choice::Result);
    emit window_.saveRequested(target_);
    ASSERT_EQ(asked_.size(), 1);
    EXPECT_TRUE(asked_[0].startsWith(QStringLiteral("tessera-save-choice"))) << asked_[0].toStdString();
    EXPECT_TRUE(asked_[0].contains(QStringLiteral("Box"))) << asked_[0].toStdString();

    const cv::Mat written = cv::imread(target_.toStdString(), cv::IMREAD_UNCHANGED);
    ASSERT_FALSE(written.empty()) << window_.lastError().toStdString();
    const cv::Mat want = tessera::filters::applyCpu(original, box());
    EXPECT_LE(cv::norm(written, want, cv::NORM_INF), 1.0);
    EXPECT_GT(cv::norm(written, original, cv::NORM_INF), 0.0);
    EXPECT_FALSE(window_.isWindowModified());
    EXPECT_TRUE(statusText().contains(QStringLiteral("1 filter applied"))) << statusText().toStdString();
    EXPECT_TRUE(statusText().contains(target_)) << statusText().toStdString();

    // The stack went into the pixels as one step; Undo gives back the original and the stack.
    EXPECT_TRUE(window_.filterStack()->state().entries.empty());
    controller_.undoStack().undo();
    EXPECT_EQ(window_.filterStack()->state().entries.size(), 1u);
    EXPECT_EQ(cv::norm(controller_.sourceImage(), original, cv::NORM_INF), 0.0);
}

TEST_F(SaveChoiceTest, SaveTheOriginalKeepsTheStack)
{
    const cv::Mat original = controller_.sourceImage().clone();
    answer(Choice::Original);
    window_.findChild<QAction*>(QStringLiteral("actionSave"))->setEnabled(true);
    emit window_.saveRequested(target_);
    ASSERT_EQ(asked_.size(), 1);
    const cv::Mat written = cv::imread(target_.toStdString(), cv::IMREAD_UNCHANGED);
    ASSERT_FALSE(written.empty());
    EXPECT_EQ(cv::norm(written, original, cv::NORM_INF), 0.0);
    EXPECT_EQ(window_.filterStack()->state().entries.size(), 1u);
    EXPECT_TRUE(statusText().contains(QStringLiteral("original image"))) << statusText().toStdString();
}

TEST_F(SaveChoiceTest, CancelWritesNothing)
{
    answer(Choice::Cancel);
    emit window_.saveRequested(target_);
    ASSERT_EQ(asked_.size(), 1);
    EXPECT_FALSE(QFile::exists(target_));
    EXPECT_EQ(window_.filterStack()->state().entries.size(), 1u);
    EXPECT_TRUE(statusText().contains(QStringLiteral("Nothing saved"))) << statusText().toStdString();
}

TEST_F(SaveChoiceTest, AStackOfDisabledFiltersDoesNotAsk)
{
    emit window_.filterStack()->enableRequested(0, false);
    answer(Choice::Cancel);
    emit window_.saveRequested(target_);
    EXPECT_TRUE(asked_.isEmpty());
    EXPECT_TRUE(QFile::exists(target_));
}

TEST_F(SaveChoiceTest, TheStackLeftOnAnImageComesBackWithIt)
{
    window_.prompts().setUnsavedPrompt(
        [](const QString&) { return tessera::ui::DocumentPrompts::UnsavedAnswer::Discard; });
    ASSERT_TRUE(window_.close());
    // A fresh start: a new window with nothing in its stack, then the same image again.
    tessera::ui::MainWindow fresh;
    fresh.setModalDialogsEnabled(false);
    tessera::app::GuiController restarted(fresh);
    ASSERT_TRUE(fresh.filterStack()->state().entries.empty());
    restarted.openImage(kCoffee);
    ASSERT_EQ(fresh.filterStack()->state().entries.size(), 1u);
    EXPECT_EQ(fresh.filterStack()->state().entries[0].choice.id, "box");
    EXPECT_TRUE(fresh.statusMessage().contains(QStringLiteral("Restored"))) << fresh.statusMessage().toStdString();
    // Undo takes the restored stack away again; the next open of the image does not repeat it.
    restarted.undoStack().undo();
    EXPECT_TRUE(fresh.filterStack()->state().entries.empty());
    restarted.openImage(kCoffee);
    EXPECT_TRUE(fresh.filterStack()->state().entries.empty());
}

}  // namespace
